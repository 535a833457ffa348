ansible -i hosts top --list-hosts
