ansible -i inv/hosts all --list-hosts --limit @empty.retry
