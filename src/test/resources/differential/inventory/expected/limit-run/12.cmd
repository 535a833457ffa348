ansible-playbook -i empty local.yml --limit 127.0.0.1
