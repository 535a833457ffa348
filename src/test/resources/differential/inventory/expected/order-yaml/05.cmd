ansible -i hosts.yml top --list-hosts
