ansible-inventory -i hosts --host web1
