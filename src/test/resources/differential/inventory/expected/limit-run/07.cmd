ansible-playbook -i hosts local.yml --limit localhost,127.0.0.1,h1
