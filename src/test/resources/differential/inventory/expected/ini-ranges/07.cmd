ansible-inventory -i bad05 --list
