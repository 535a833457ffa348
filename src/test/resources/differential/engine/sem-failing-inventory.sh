#!/bin/sh
# An inventory script that fails (for cases/sem_failing_inventory_script.yaml)
echo "cannot reach the CMDB" >&2
exit 3
