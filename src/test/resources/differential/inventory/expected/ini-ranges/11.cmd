ansible-inventory -i bad09 --list
