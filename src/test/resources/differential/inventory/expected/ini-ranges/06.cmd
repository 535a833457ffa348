ansible-inventory -i bad04 --list
