ansible-inventory -i gpu[01-04], --list
