ansible-inventory -i ../../../../../../../inventory/a800.yaml --list
