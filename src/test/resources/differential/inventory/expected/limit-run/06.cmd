ansible-playbook -i hosts local.yml --limit h1,::1
