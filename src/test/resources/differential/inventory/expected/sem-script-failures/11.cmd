ansible-inventory -i truthy --list
