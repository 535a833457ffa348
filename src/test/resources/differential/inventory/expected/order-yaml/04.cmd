ansible -i hosts.yml all --list-hosts
