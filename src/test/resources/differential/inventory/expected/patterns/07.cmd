ansible -i hosts web* --list-hosts
