ansible-inventory -i bad11 --list
