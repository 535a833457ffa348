ansible-inventory -i dir --list
