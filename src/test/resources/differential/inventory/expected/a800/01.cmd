ansible-inventory -i ../../../../../../../inventory/a800.ini --list
