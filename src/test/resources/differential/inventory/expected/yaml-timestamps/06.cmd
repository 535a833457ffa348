ansible-inventory -i bad-day.yml --list
