ansible-playbook -i failing.sh -i good.ini site.yml
