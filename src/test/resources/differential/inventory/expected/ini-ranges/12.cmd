ansible-inventory -i bad10 --list
