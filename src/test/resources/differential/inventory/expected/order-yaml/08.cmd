ansible -i hosts.yml top[0] --list-hosts
