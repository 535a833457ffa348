ansible-inventory -i hosts.yml --graph
