ansible -i a,b,c b:c --list-hosts
