ansible-inventory -i badjson.sh -i good.ini --list
