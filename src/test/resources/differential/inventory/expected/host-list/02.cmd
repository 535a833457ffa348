ansible-inventory -i host1, --list
