ansible-inventory -i bad07 --list
