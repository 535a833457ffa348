ansible -i hosts.ini localhost --list-hosts
