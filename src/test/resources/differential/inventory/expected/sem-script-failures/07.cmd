ansible-inventory -i notobj.sh --list
