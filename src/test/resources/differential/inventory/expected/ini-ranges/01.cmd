ansible-inventory -i ok --list
