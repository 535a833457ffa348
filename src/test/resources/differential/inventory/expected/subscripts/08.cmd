ansible -i hosts gpu[0:0] --list-hosts
