ansible-inventory -i notexec.sh -i good.ini --list
