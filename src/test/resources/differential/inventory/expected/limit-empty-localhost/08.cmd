ansible -i hosts h1:localhost --list-hosts --limit 127.0.0.1
