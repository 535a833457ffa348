ansible-playbook -i hosts local.yml --limit localhost
