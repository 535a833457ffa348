ansible-inventory -i hosts --host h1
