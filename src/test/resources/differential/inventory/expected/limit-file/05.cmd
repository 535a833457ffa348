ansible -i inv/hosts all --list-hosts --limit @two.retry,mgmt1
