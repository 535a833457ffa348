ansible-inventory -i hosts --host h2
