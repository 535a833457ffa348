ansible -i hosts all --list-hosts
