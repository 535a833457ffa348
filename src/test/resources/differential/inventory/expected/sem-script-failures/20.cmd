ansible-playbook -i notexec.sh -i good.ini site.yml
