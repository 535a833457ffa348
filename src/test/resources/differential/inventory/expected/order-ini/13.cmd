ansible -i hosts ungrouped --list-hosts
