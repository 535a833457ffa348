ansible -i hosts web*[0] --list-hosts
