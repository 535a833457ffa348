ansible-inventory -i nometa.sh --list
