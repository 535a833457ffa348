ansible-playbook -i failing.sh site.yml
