ansible-inventory -i ok --graph
