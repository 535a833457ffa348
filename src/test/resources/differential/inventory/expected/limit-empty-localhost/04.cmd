ansible -i hosts localhost --list-hosts --limit 127.0.0.1
