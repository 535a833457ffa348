ansible -i inv/hosts all --list-hosts --limit gpu[1:2]
