ansible-inventory -i badsection --list
