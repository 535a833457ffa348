ansible -i hosts.ini all:!localhost --list-hosts
