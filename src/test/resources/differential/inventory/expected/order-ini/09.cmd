ansible -i hosts db:web --list-hosts
