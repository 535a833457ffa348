ansible -i hosts web --list-hosts --limit b1,d1
