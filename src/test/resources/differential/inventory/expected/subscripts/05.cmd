ansible -i hosts webservers[1-2] --list-hosts
