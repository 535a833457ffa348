ansible -i hosts gpu[1],webservers[1] --list-hosts
