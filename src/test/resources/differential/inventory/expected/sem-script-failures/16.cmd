ansible -i failing.sh all --list-hosts
