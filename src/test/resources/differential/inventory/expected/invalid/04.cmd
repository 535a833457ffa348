ansible-inventory -i bad.yml --host nohost
