ansible-inventory -i dir,with,comma/hosts --list
