ansible-inventory -i meta.py --graph
