ansible -i inv localhost -c local -m debug -a var=groups
