ansible-inventory -i host-int.yml --list
