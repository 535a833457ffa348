ansible-inventory -i host-bool.yml --list
