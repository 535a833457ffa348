ansible-playbook -i hosts local.yml --limit ::1
