ansible-inventory -i bad02 --list
