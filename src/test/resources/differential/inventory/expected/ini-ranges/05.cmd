ansible-inventory -i bad03 --list
