ansible -i hosts.yml mid:leaf --list-hosts
