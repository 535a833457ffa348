ansible-inventory -i hosts.ini --list
