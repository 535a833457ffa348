ansible -i hosts &web:db --list-hosts
