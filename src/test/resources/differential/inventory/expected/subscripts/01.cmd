ansible -i hosts webservers[0] --list-hosts
