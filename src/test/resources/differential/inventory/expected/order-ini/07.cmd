ansible -i hosts b --list-hosts
