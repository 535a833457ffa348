ansible-inventory -i nonexistent, --list
