ansible -i inv all --list-hosts
