ansible -i hosts *.example.com --list-hosts
