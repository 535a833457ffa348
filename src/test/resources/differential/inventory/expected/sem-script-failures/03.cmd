ansible-inventory -i good.ini -i failing.sh --list
