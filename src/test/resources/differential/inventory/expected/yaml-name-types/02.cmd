ansible-inventory -i host-date.yml --list
