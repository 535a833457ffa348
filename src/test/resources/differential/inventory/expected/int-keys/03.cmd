ansible-inventory -i mixed.yml --list
