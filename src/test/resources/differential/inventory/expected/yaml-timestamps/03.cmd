ansible-playbook -i times.yml play.yml
