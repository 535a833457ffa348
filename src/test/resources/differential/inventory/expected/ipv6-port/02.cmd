ansible-inventory -i hosts --host 2001:db8::2
