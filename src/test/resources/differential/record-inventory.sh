#!/usr/bin/env bash
# Records what real Ansible prints for every inventory case of the differential suite, so that
# DifferentialInventoryTest can compare rocectl against it without Ansible installed.
#
#   src/test/resources/differential/record-inventory.sh [CASE...]  (needs ansible-core; run from anywhere;
#                                                                   CASE...: re-record only those)
#
# Each case is a directory inventory/cases/NAME/ with its inventory files and a file `commands`:
# one check per line, run with the case directory as the working directory (blank and # lines skipped):
# (INV may be A+B: ansible-inventory -i A -i B, inventories merged in order)
#   list  INV               ansible-inventory -i INV --list
#   host  INV HOST          ansible-inventory -i INV --host HOST
#   graph INV               ansible-inventory -i INV --graph
#   hosts INV PATTERN [LIMIT]  ansible -i INV PATTERN --list-hosts [--limit LIMIT] ('' for an empty LIMIT)
#                           (the hosts a play `hosts: PATTERN` runs on, in run order. ansible-playbook
#                           --list-hosts prints the same hosts from a Python set, so in no stable order:
#                           the ad-hoc command, which shares InventoryManager.get_hosts, is recorded.)
#   groups INV              ansible -i INV localhost -m debug -a var=groups (the `groups` variable)
#   play  INV PLAYBOOK [LIMIT]  ansible-playbook -i INV PLAYBOOK [--limit LIMIT] (plays with connection: local;
#                           compared: exit code and recap; '' for an empty LIMIT)
# A line may start with `known(REASON)`: rocectl differs on purpose there (README says so); the
# expected output is still recorded, the test checks rocectl's documented behaviour instead.
# Outputs go to inventory/expected/NAME/NN.out (stdout), NN.err (stderr, for reference) and NN.rc
# (exit code), NN counting the checks of the case from 01 (the case's own path reads CASE); expected/VERSION names the Ansible used.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/inventory"
command -v ansible-inventory >/dev/null || { echo "ansible-inventory not found (apt-get install ansible-core)" >&2; exit 1; }
export ANSIBLE_NOCOLOR=1 ANSIBLE_FORCE_COLOR=0 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_DEPRECATION_WARNINGS=0
unset ANSIBLE_CONFIG  # no ansible.cfg in the case directories: Ansible defaults
export ANSIBLE_RETRY_FILES_ENABLED=0
export PYTHONHASHSEED=0
if [ $# -eq 0 ]; then rm -rf "$here/expected"; fi
mkdir -p "$here/expected"
{
  ansible --version | sed -n 1p
  echo "recorded by src/test/resources/differential/record-inventory.sh"
  echo "no ansible.cfg, PYTHONHASHSEED=0 LC_ALL=${LC_ALL:-unset}"
} > "$here/expected/VERSION"
cases=("$here"/cases/*/)
if [ $# -gt 0 ]; then cases=(); for c in "$@"; do cases+=("$here/cases/$c/"); done; fi
for case in "${cases[@]}"; do
  name="$(basename "$case")"
  rm -rf "$here/expected/$name"
  out="$here/expected/$name"
  mkdir -p "$out"
  n=0
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    nn="$(printf '%02d' "$n")"
    line="$(sed -E 's/^known\([^)]*\) *//' <<<"$line")"
    read -r -a w <<<"$line"
    kind="${w[0]}"
    inv="${w[1]}"
    # INV may name several inventories joined by '+': each is one -i, in order
    IFS='+' read -r -a invs <<<"$inv"
    iargs=()
    for x in "${invs[@]}"; do iargs+=(-i "$x"); done
    case "$kind" in
      list)   cmd=(ansible-inventory "${iargs[@]}" --list) ;;
      host)   cmd=(ansible-inventory "${iargs[@]}" --host "${w[2]}") ;;
      graph)  cmd=(ansible-inventory "${iargs[@]}" --graph) ;;
      hosts)  cmd=(ansible "${iargs[@]}" "${w[2]}" --list-hosts)
              if [ "${#w[@]}" -gt 3 ]; then
                if [ "${w[3]}" = "''" ]; then cmd+=(--limit ""); else cmd+=(--limit "${w[3]}"); fi
              fi ;;
      groups) cmd=(ansible "${iargs[@]}" localhost -c local -m debug -a var=groups) ;;
      play)   cmd=(ansible-playbook "${iargs[@]}" "${w[2]}")
              if [ "${#w[@]}" -gt 3 ]; then
                if [ "${w[3]}" = "''" ]; then cmd+=(--limit ""); else cmd+=(--limit "${w[3]}"); fi
              fi ;;
      *) echo "$name: unknown check '$kind'" >&2; exit 1 ;;
    esac
    set +e
    (cd "$case" && "${cmd[@]}") >"$out/$nn.out" 2>"$out/$nn.err"
    echo $? >"$out/$nn.rc"
    set -e
    # no machine-specific paths in the recorded files: the case directory reads CASE (also where
    # Ansible wrapped the path over two lines of a warning)
    python3 - "${case%/}" "$out/$nn.out" "$out/$nn.err" <<'PY'
import re, sys
pattern = "\n?".join(re.escape(c) for c in sys.argv[1])
for f in sys.argv[2:]:
    with open(f) as fh:
        text = fh.read()
    with open(f, "w") as fh:
        fh.write(re.sub(pattern, "CASE", text))
PY
    printf '%s\n' "${cmd[*]}" >"$out/$nn.cmd"
  done <"$case/commands"
  echo "$name: $n checks"
done
