ansible-inventory -i empty.sh --list
