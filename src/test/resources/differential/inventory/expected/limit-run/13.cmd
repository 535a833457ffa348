ansible-playbook -i empty local.yml --limit ::1
