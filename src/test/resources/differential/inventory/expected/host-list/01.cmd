ansible-inventory -i a,b,c --list
