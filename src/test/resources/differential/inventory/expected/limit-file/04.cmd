ansible -i inv/hosts all --list-hosts --limit @blank-line.retry
