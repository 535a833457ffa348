ansible -i hosts gpu[01:03] --list-hosts
