ansible -i meta.py gpu --list-hosts
