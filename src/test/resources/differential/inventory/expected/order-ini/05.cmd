ansible -i hosts prod --list-hosts
