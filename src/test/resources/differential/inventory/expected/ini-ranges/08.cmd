ansible-inventory -i bad06 --list
