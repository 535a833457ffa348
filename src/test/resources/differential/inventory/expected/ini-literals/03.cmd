ansible-inventory -i nested-bytes --list
