ansible-inventory -i escapes.sh --list
