ansible-inventory -i bad08 --list
