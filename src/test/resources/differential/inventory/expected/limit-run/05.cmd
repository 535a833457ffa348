ansible-playbook -i hosts local.yml --limit h1,127.0.0.1
