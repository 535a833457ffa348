ansible -i truthy all --list-hosts
