ansible-inventory -i bad-month.yml --list
