ansible -i hosts.yml localhost -c local -m debug -a var=groups
