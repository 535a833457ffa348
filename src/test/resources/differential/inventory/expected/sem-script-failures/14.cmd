ansible-inventory -i dir --host d1
