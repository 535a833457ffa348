ansible -i hosts webservers[-1] --list-hosts
