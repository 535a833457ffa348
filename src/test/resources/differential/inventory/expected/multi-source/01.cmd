ansible-inventory -i first/hosts.ini -i second/hosts.yml --list
