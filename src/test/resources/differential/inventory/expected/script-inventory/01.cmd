ansible-inventory -i meta.py --list
