ansible -i ../../../../../../../inventory/a800.ini localhost -c local -m debug -a var=groups
