ansible-inventory -i hosts.yml --list
