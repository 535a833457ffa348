#!/bin/sh
# Records what real ansible-playbook PRINTS for the cases (record.sh records their results):
#   expected/CASE.console.txt     the default callback's output reduced by normalize_console.py
#                                 (banners and per-host status lines, see there)
#   expected/CASE.list-tasks.txt  ansible-playbook --list-tasks, as printed, for a case with a
#                                 line "# display: list-tasks"
# EngineDifferentialTest compares rocectl's console (-v: one line per host) and --list-tasks with
# those that exist.
# Usage: src/test/resources/differential/engine/record-display.sh [CASE...]  (no CASE: every case)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
mkdir -p expected
version=$(ansible-playbook --version | sed -n 1p)
if [ $# -eq 0 ]; then set -- cases/*.yaml; fi
# shellcheck disable=SC2086 # $args is split into options on purpose
for pb in "$@"; do
    pb=cases/$(basename "$pb" .yaml).yaml
    name=$(basename "$pb" .yaml)
    args=$(sed -n '1s/^# args: //p' "$pb")
    # "# umask: NNN": the umask ansible-playbook runs with, as record.sh does
    mask=$(sed -n 's/^# umask: //p' "$pb" | sed -n 1p)
    rc=0
    out=$(umask "${mask:-$(umask)}"; ANSIBLE_NOCOLOR=1 ANSIBLE_PYTHON_INTERPRETER=auto_silent ANSIBLE_RETRY_FILES_ENABLED=false \
        ansible-playbook -i inventory.ini -c local $args "$pb" 2>/dev/null) || rc=$?
    {
        echo "# $version"
        echo "# command: ${mask:+umask $mask; }ansible-playbook -i inventory.ini -c local ${args:+$args }$pb (ANSIBLE_NOCOLOR=1, stdout through normalize_console.py; exit $rc)"
        printf '%s\n' "$out" | python3 normalize_console.py
    } >"expected/$name.console.txt"
    echo "$name: console, exit $rc"
    if grep -q '^# display:.*list-tasks' "$pb"; then
        {
            echo "# $version"
            echo "# command: ansible-playbook -i inventory.ini -c local ${args:+$args }--list-tasks $pb"
            ansible-playbook -i inventory.ini -c local $args --list-tasks "$pb"
        } >"expected/$name.list-tasks.txt"
        echo "$name: list-tasks"
    fi
done
