ansible-inventory -i bad01 --list
