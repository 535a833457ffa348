ansible-playbook -i hosts mixed.yml --limit h1:127.0.0.1
