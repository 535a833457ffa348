ansible -i hosts localhost -c local -m debug -a var=groups
