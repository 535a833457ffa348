ansible -i hosts all --list-hosts --limit 127.0.0.1
