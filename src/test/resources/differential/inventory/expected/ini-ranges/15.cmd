ansible-inventory -i bad13 --list
