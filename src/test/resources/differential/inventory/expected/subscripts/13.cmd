ansible -i hosts gpu0[1:3] --list-hosts
