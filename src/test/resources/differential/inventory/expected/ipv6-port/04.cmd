ansible -i hosts v6[0] --list-hosts
