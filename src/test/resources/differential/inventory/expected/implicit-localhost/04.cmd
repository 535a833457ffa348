ansible -i hosts.ini all --list-hosts
