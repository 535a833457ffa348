ansible-inventory -i inv --list
