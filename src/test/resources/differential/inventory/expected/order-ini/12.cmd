ansible -i hosts * --list-hosts
