ansible -i hosts webservers[0:2] --list-hosts
