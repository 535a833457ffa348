ansible -i hosts localhost --list-hosts --limit h1,127.0.0.1
