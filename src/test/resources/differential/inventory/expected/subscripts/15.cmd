ansible -i hosts webservers[9] --list-hosts
