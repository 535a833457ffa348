ansible -i hosts ~(web|db).*\.example\.com --list-hosts
