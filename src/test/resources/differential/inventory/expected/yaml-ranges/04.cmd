ansible -i hosts.yml webservers[2:] --list-hosts
