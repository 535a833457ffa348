ansible-inventory -i bad-zone.yml --list
