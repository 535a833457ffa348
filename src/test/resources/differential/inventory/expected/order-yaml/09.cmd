ansible -i hosts.yml top[-1] --list-hosts
