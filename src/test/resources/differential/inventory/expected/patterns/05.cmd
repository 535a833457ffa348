ansible -i hosts webservers:dbservers:&staging:!db1.example.com --list-hosts
