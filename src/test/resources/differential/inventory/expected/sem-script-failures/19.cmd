ansible-playbook -i badjson.sh -i good.ini site.yml
