ansible-inventory -i meta.py -i nometa.sh --list
