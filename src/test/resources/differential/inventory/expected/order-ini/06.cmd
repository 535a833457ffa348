ansible -i hosts a --list-hosts
