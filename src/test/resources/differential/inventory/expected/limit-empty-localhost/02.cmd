ansible -i hosts localhost --list-hosts --limit 
