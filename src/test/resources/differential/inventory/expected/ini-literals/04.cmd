ansible-inventory -i bad-utf8 --host h1
