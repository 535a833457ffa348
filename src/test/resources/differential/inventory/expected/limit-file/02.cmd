ansible -i inv/hosts gpu --list-hosts --limit @two.retry
