ansible-playbook -i hosts all.yml --limit 
