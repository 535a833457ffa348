ansible-inventory -i quoted.yml --list
