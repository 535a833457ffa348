ansible-inventory -i bad.yml --list
