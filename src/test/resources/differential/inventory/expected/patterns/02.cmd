ansible -i hosts webservers,dbservers --list-hosts
