ansible -i hosts gpu0[12] --list-hosts
