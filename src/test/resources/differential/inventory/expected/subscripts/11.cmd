ansible -i hosts gpu:!gpu[1:3] --list-hosts
