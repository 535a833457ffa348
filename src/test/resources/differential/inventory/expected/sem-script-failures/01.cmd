ansible-inventory -i failing.sh --list
