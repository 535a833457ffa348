ansible-inventory -i inv --host s1
