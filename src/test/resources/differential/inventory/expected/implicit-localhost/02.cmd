ansible -i hosts.ini 127.0.0.1 --list-hosts
