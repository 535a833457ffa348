ansible -i first/hosts.ini -i second/hosts.yml gpu --list-hosts
