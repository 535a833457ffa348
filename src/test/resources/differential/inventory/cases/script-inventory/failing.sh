#!/bin/sh
# An inventory script that fails: the inventory is refused
echo "cannot reach the CMDB" >&2
exit 3
