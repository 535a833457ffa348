ansible-inventory -i gpu01:2222,gpu02,gpu01:2200, --list
