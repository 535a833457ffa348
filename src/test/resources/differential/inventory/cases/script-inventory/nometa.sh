#!/bin/sh
# An inventory script without _meta: Ansible asks --host NAME for each host
case "$1" in
  --list) echo '{"nodes": {"hosts": ["n1", "n2"]}, "all": {"vars": {"site": "lab"}}}' ;;
  --host) echo "{\"id\": \"$2-id\"}" ;;
  *) exit 1 ;;
esac
