ansible-playbook -i hosts local.yml --limit 127.0.0.1
