ansible -i hosts webservers[-4] --list-hosts
