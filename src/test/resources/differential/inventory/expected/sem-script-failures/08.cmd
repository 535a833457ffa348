ansible-inventory -i yamlout.sh -i good.ini --list
