ansible-inventory -i meta.py --host s1
