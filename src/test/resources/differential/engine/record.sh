#!/bin/sh
# Records what real ansible-playbook does with each playbook in cases/ (inventory.ini, every
# host on a local connection) into expected/CASE.txt, which EngineDifferentialTest compares
# rocectl's run with. Needs ansible-core and python3; the test itself needs neither.
# Usage: src/test/resources/differential/engine/record.sh [CASE...]  (no CASE: every case)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
mkdir -p expected
version=$(ansible-playbook --version | sed -n 1p)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then set -- cases/*.yaml; fi
# shellcheck disable=SC2086 # $args is split into options on purpose
for pb in "$@"; do
    pb=cases/$(basename "$pb" .yaml).yaml
    name=$(basename "$pb" .yaml)
    rc=0
    # a case may give extra options in a first line "# args: ..." (--limit PATTERN, --tags A,B, -e KEY=VALUE, --check, --diff)
    args=$(sed -n '1s/^# args: //p' "$pb")
    # and a line "# umask: NNN": the umask ansible-playbook runs with (its local modules inherit it)
    mask=$(sed -n 's/^# umask: //p' "$pb" | sed -n 1p)
    (umask "${mask:-$(umask)}"
    ANSIBLE_STDOUT_CALLBACK=json ANSIBLE_PYTHON_INTERPRETER=auto_silent ANSIBLE_RETRY_FILES_ENABLED=false \
        ANSIBLE_CALLBACK_RESULT_FORMAT=json \
        ansible-playbook -i inventory.ini -c local $args "$pb") >"$tmp/out.json" 2>"$tmp/err.txt" || rc=$?
    {
        echo "# $version"
        echo "# command: ${mask:+umask $mask; }ansible-playbook -i inventory.ini -c local ${args:+$args }$pb (ANSIBLE_STDOUT_CALLBACK=json, then normalize.py)"
        python3 normalize.py "$tmp/out.json" "$rc" "$tmp/err.txt"
    } >"expected/$name.txt"
    echo "$name: exit $rc"
done
