ansible -i hosts all --list-hosts --limit gpu[2:]
