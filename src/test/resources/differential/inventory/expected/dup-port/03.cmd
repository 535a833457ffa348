ansible-inventory -i hosts --host h3
