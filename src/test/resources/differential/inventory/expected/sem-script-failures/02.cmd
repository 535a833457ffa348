ansible-inventory -i failing.sh -i good.ini --list
