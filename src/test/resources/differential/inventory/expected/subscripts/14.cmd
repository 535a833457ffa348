ansible -i hosts gpu[7:9] --list-hosts
