ansible -i hosts.yml leaf:mid --list-hosts
