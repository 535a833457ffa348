ansible-playbook -i empty local.yml --limit 
