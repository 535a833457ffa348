ansible-inventory -i key-date.yml --list
