ansible-inventory -i hosts --graph
