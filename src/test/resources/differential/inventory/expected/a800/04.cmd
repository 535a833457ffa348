ansible -i ../../../../../../../inventory/a800.ini all --list-hosts
