ansible-playbook -i hosts all.yml --limit h1,127.0.0.1
