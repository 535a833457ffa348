ansible-playbook -i hosts mixed.yml --limit 127.0.0.1,h2
