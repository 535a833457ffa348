ansible-inventory -i h1,,h2,, --list
