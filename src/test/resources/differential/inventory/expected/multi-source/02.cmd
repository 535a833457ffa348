ansible-inventory -i second/hosts.yml -i first/hosts.ini --list
