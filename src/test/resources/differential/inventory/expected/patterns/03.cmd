ansible -i hosts webservers:!staging --list-hosts
