ansible -i failing.sh -i good.ini all --list-hosts
