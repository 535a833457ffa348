ansible-inventory -i times.yml --list
