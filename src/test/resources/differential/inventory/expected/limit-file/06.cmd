ansible -i inv/hosts mgmt --list-hosts --limit @empty.retry
