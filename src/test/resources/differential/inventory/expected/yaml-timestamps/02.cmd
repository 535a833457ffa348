ansible-inventory -i times.yml --host h1
