ansible -i hosts 127.0.0.1 --list-hosts --limit localhost
