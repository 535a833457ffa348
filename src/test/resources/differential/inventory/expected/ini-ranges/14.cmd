ansible-inventory -i bad12 --list
