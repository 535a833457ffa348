#!/bin/sh
# Records what real ansible-playbook's type_debug says of values from each source (play.yml, run
# with both inventories, -e key=value and -e @file, every host on a local connection) into
# expected.txt: one "label: class" line per value. TypeDebugRefusedTest reads it (the reason
# rocectl refuses type_debug) and checks that rocectl refuses play.yml before the run.
# Needs ansible-core and python3; the test needs neither.
# Usage: src/test/resources/differential/type_debug/record.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args="-i inventory.ini -i inventory.yml -c local -e ev_s=abc -e ev_i=5 -e @extra.yml play.yml"
version=$(ansible-playbook --version | sed -n 1p)
rc=0
# shellcheck disable=SC2086 # $args is split into options on purpose
ANSIBLE_STDOUT_CALLBACK=json ANSIBLE_PYTHON_INTERPRETER=auto_silent ANSIBLE_RETRY_FILES_ENABLED=false \
    ansible-playbook $args >"$tmp/out.json" 2>"$tmp/err.txt" || rc=$?
{
    echo "# $version"
    echo "# command: ansible-playbook $args (ANSIBLE_STDOUT_CALLBACK=json; exit $rc)"
    python3 - "$tmp/out.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for task in doc["plays"][0]["tasks"]:
    name = task["task"]["name"]
    r = task["hosts"].get("h1", {})
    if isinstance(r.get("msg"), dict):
        for k, v in r["msg"].items():
            print(k + ": " + v)
    for i, x in enumerate(r.get("results", [])):
        print(name + " item " + str(i) + ": " + x["msg"])
PY
} >expected.txt
echo "type_debug: exit $rc, $(grep -vc '^#' expected.txt) values"
