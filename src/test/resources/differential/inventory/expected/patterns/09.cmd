ansible -i hosts !webservers --list-hosts
