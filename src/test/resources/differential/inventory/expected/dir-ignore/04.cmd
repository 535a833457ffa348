ansible-inventory -i inv --host b1
