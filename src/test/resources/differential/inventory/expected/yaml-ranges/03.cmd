ansible -i hosts databases[1:] --list-hosts
