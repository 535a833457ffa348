ansible-inventory -i [2001:db8::2]:2222,2001:db8::3, --list
