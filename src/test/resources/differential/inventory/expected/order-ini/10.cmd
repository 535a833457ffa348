ansible -i hosts all:!web --list-hosts
