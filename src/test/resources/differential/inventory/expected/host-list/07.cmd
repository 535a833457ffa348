ansible -i a,b,c all --list-hosts
