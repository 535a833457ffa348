ansible-inventory -i nometa.sh --host n2
