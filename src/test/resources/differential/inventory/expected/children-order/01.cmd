ansible-inventory -i hosts --list
