ansible-inventory -i first-host --list
