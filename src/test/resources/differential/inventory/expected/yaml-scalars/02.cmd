ansible-inventory -i hosts.yml --host h1
