ansible-inventory -i group-int.yml --list
