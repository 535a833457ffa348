ansible-inventory -i hostfail.sh --list
