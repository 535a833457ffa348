ansible -i hosts gpu02,mgmt1,gpu01 --list-hosts
