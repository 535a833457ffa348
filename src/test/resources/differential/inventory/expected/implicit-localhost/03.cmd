ansible -i hosts.ini nodes:localhost --list-hosts
