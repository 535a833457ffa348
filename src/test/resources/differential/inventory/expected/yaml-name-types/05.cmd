ansible-inventory -i group-date.yml --list
