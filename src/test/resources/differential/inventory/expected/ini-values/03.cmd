ansible-inventory -i hosts --host web2
