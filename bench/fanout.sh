#!/usr/bin/env bash
# bench/fanout.sh: fan-out speed of rocectl next to pdsh, ClusterShell and Ansible, on one lab.
#
# Usage (root, from anywhere; paths are relative to the repo root):  bench/fanout.sh
#
# What it does
#   1. builds the jar if needed (./rocectl --version builds it), brings up a lab of
#      $FANBENCH_HOSTS hosts x $FANBENCH_NICS NICs named $FANBENCH_NAME (real sshd per host in
#      network namespaces; each host has its own /etc view) with subnets that do not clash with the
#      default lab, so another lab may run at the same time;
#   2. checks once (untimed) that every tool reaches every host and prints what it should;
#   3. times, $FANBENCH_RUNS runs each (median reported), with the same fork count:
#        ad-hoc `uname -r` on all hosts:
#          ./rocectl shell -i INV -- uname -r
#          pdsh -R ssh -f 64 -w IPS uname -r          (ssh options via PDSH_SSH_ARGS_APPEND)
#          clush -f 64 -b -w IPS uname -r             (ssh options via -o)
#          ansible all -i INV -f 64 -m command -a 'uname -r'
#            - "warm": ControlPersist masters from the previous run are reused (Ansible's best case)
#            - "cold": the masters are closed before each run (one key exchange per host, like the others)
#        bench/playbooks/three-tasks.yaml (command, lineinfile, copy; gather_facts: false):
#          ./rocectl run ... and ansible-playbook ..., first run (the files are removed on every host
#          before each timed run, untimed; changed=2 per host is checked) and re-run (changed=0 checked);
#   4. prints a Markdown table of the medians (all samples in the last column) and takes the lab down.
#   A trap closes Ansible's ssh masters, takes the lab down and removes the temp dir on any exit.
#
# Ansible is configured only through the environment (nothing in ~/.ansible.cfg is needed):
#   ANSIBLE_HOST_KEY_CHECKING=True, ANSIBLE_SSH_ARGS with the lab's known_hosts, StrictHostKeyChecking
#   and ControlMaster/ControlPersist, ANSIBLE_PIPELINING=True, ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
#   (skips interpreter discovery: Ansible's fastest honest setting), temp and control dirs in a temp dir.
# pdsh and clush address hosts by management IP (the lab's host names are not in DNS); the lab's
#   known_hosts is keyed by IP, so StrictHostKeyChecking=yes holds for every tool.
#
# Environment knobs (defaults):
#   FANBENCH_NAME=fanbench FANBENCH_HOSTS=32 FANBENCH_NICS=4 FANBENCH_RUNS=3 FANBENCH_FORKS=64
#   FANBENCH_SUBNET=172.28.0.0/16 FANBENCH_MGMT=10.245.0.0/16
#   FANBENCH_SKIP=""   space-separated rows to skip: rocectl pdsh clush ansible-warm ansible-cold
#                      rocectl-run ansible-playbook
#   FANBENCH_KEEP=1    leave the lab up at the end (for poking at it)
# Needs: root, Java 17 + Maven (first build), pdsh, clustershell, ansible (Debian packages).
# The machine is shared: load average is printed before and after; run twice when numbers look noisy.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

NAME=${FANBENCH_NAME:-fanbench}
HOSTS=${FANBENCH_HOSTS:-32}
NICS=${FANBENCH_NICS:-4}
RUNS=${FANBENCH_RUNS:-3}
FORKS=${FANBENCH_FORKS:-64}
SUBNET=${FANBENCH_SUBNET:-172.28.0.0/16}
MGMT=${FANBENCH_MGMT:-10.245.0.0/16}
SKIP=" ${FANBENCH_SKIP:-} "
PLAYBOOK=bench/playbooks/three-tasks.yaml

[ "$(id -u)" = 0 ] || { echo "fanout.sh: needs root (the lab uses network namespaces)" >&2; exit 1; }
for tool in java pdsh clush ansible ansible-playbook ssh; do
  command -v "$tool" >/dev/null || { echo "fanout.sh: $tool not found (apt-get install -y pdsh clustershell ansible)" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/fanbench.XXXXXX)
export WORK
LAB_UP=0

close_masters() { # closes Ansible's ControlPersist ssh masters of this run (by their sockets)
  local s
  for s in "$WORK"/cp/*; do
    if [ -S "$s" ]; then ssh -o ControlPath="$s" -O exit fanbench >/dev/null 2>&1 || true; fi
  done
}

export -f close_masters

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  close_masters
  if [ "$LAB_UP" = 1 ] && [ "${FANBENCH_KEEP:-0}" != 1 ]; then
    ./rocectl lab down --name "$NAME" >/dev/null 2>&1 || echo "fanout.sh: lab down failed; run ./rocectl lab down --name $NAME" >&2
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
say() { printf '%s\n' "$*" >&2; }

say "== build"
./rocectl --version >/dev/null

say "== lab up: $NAME, $HOSTS hosts x $NICS NICs"
./rocectl lab down --name "$NAME" >/dev/null 2>&1 || true
LAB_UP=1
./rocectl lab up --name "$NAME" --hosts "$HOSTS" --nics "$NICS" --subnet "$SUBNET" --mgmt-subnet "$MGMT" >"$WORK/lab-up.log" \
  || { cat "$WORK/lab-up.log" >&2; exit 1; }
LAB=/run/rocectl-lab/$NAME
INV=$LAB/inventory.ini
KEY=$LAB/id_ed25519
KH=$LAB/known_hosts
IPS=$(grep -o 'ansible_host=[0-9.]*' "$INV" | cut -d= -f2 | paste -sd, -)
N=$(tr ',' '\n' <<<"$IPS" | grep -c .)
[ "$N" = "$HOSTS" ] || { echo "fanout.sh: inventory lists $N hosts, expected $HOSTS" >&2; exit 1; }

SSHOPTS="-i $KEY -o UserKnownHostsFile=$KH -o StrictHostKeyChecking=yes -o BatchMode=yes"
export PDSH_SSH_ARGS_APPEND="$SSHOPTS"
mkdir -p "$WORK/cp" "$WORK/ansible-tmp"
export ANSIBLE_HOST_KEY_CHECKING=True
export ANSIBLE_PIPELINING=True
export ANSIBLE_SSH_ARGS="-o UserKnownHostsFile=$KH -o StrictHostKeyChecking=yes -o BatchMode=yes -o ControlMaster=auto -o ControlPersist=120s"
export ANSIBLE_SSH_CONTROL_PATH_DIR="$WORK/cp"
export ANSIBLE_LOCAL_TEMP="$WORK/ansible-tmp"
export ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
export ANSIBLE_FORKS="$FORKS"
export ANSIBLE_NOCOLOR=1 NO_COLOR=1
ansible-inventory -i "$INV" --list >"$WORK/inv.json" || { echo "fanout.sh: ansible-inventory cannot read $INV" >&2; exit 1; }
[ "$(grep -c '"ansible_host"' "$WORK/inv.json")" = "$HOSTS" ] || { echo "fanout.sh: ansible-inventory sees the wrong hosts" >&2; exit 1; }

# The exact commands (run by bash -c so the table can show them verbatim).
C_ROCECTL="./rocectl shell -i $INV -- uname -r"
C_PDSH="pdsh -R ssh -l root -f $FORKS -w $IPS uname -r"
C_CLUSH="clush -f $FORKS -b -l root -o '$SSHOPTS' -w $IPS uname -r"
C_ANSIBLE="ansible all -i $INV -f $FORKS -m command -a 'uname -r'"
C_RUN="./rocectl run $PLAYBOOK -i $INV -f $FORKS"
C_PLAY="ansible-playbook -i $INV -f $FORKS $PLAYBOOK"
RESET="./rocectl shell -i $INV -- rm -f /etc/rocectl/bench.conf /etc/rocectl/bench2.conf"

# check NAME CMD REGEX...: runs CMD once (untimed); each REGEX must match its output (grep -E), else stop.
check() {
  local name=$1 cmd=$2 re
  shift 2
  if ! bash -c "$cmd" >"$WORK/check.log" 2>&1; then
    say "fanout.sh: check of $name failed: $cmd"; tail -20 "$WORK/check.log" >&2; exit 1
  fi
  for re in "$@"; do
    grep -Eq -- "$re" "$WORK/check.log" || { say "fanout.sh: $name output lacks /$re/"; tail -20 "$WORK/check.log" >&2; exit 1; }
  done
}

# count_lines REGEX: how many lines of the last check output match
count_lines() { grep -Ec -- "$1" "$WORK/check.log" || true; }

ROWS=()
# measure LABEL CMD PREPARE VERIFY: RUNS timed runs of CMD (PREPARE untimed before each; VERIFY, a
# command reading $WORK/run.log, must succeed after each); records the median.
measure() {
  local label=$1 cmd=$2 prep=$3 verify=$4 i t0 t1 samples=() med
  say "== $label"
  for ((i = 1; i <= RUNS; i++)); do
    [ -n "$prep" ] && { bash -c "$prep" >/dev/null 2>&1 || { say "fanout.sh: prepare failed: $prep"; exit 1; }; }
    t0=$(now)
    if ! bash -c "$cmd" >"$WORK/run.log" 2>&1; then
      say "fanout.sh: $label failed: $cmd"; tail -20 "$WORK/run.log" >&2; exit 1
    fi
    t1=$(now)
    if [ -n "$verify" ] && ! bash -c "$verify" >/dev/null 2>&1; then
      say "fanout.sh: $label: unexpected output ($verify)"; tail -20 "$WORK/run.log" >&2; exit 1
    fi
    samples+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')")
    say "   run $i: ${samples[-1]} s"
  done
  med=$(printf '%s\n' "${samples[@]}" | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  ROWS+=("| $label | \`$cmd\` | $med | ${samples[*]} |")
}
skip() { [[ "$SKIP" == *" $1 "* ]]; }

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
say "== checks (untimed), load average $LOAD0"
check rocectl "$C_ROCECTL" "\($HOSTS\)" "$(uname -r)"
check pdsh "$C_PDSH"
[ "$(count_lines ": $(uname -r)\$")" = "$HOSTS" ] || { say "fanout.sh: pdsh did not answer from every host"; exit 1; }
check clush "$C_CLUSH" "$(uname -r)"
check "rocectl run" "$C_RUN" 'ok=3 +changed=[02] +unreachable=0 +failed=0'   # also records run's class archive
check ansible-playbook "$C_PLAY" 'ok=3 +changed=[02] +unreachable=0 +failed=0'
check ansible "$C_ANSIBLE"
[ "$(count_lines 'CHANGED \| rc=0')" = "$HOSTS" ] || { say "fanout.sh: ansible did not answer from every host"; exit 1; }

LOG=$WORK/run.log
ONE_OUT="grep -q '($HOSTS)' $LOG"
PDSH_OUT="[ \$(grep -c ': ' $LOG) = $HOSTS ]"
ANS_OUT="[ \$(grep -c 'rc=0' $LOG) = $HOSTS ]"
# rocectl folds the recap (gpu[01-32] : ok=3 changed=2 ...); Ansible prints one line per host.
FIRST_ROCECTL="grep -q 'changed=2 *unreachable=0 *failed=0' $LOG && ! grep -Eq 'changed=[013-9]|(unreachable|failed)=[1-9]' $LOG"
RERUN_ROCECTL="grep -q 'changed=0 *unreachable=0 *failed=0' $LOG && ! grep -Eq '(changed|unreachable|failed)=[1-9]' $LOG"
FIRST_ANS="[ \$(grep -Ec 'changed=2 +unreachable=0 +failed=0' $LOG) = $HOSTS ]"
RERUN_ANS="[ \$(grep -Ec 'changed=0 +unreachable=0 +failed=0' $LOG) = $HOSTS ]"

skip rocectl || measure "rocectl shell (ad-hoc)" "$C_ROCECTL" "" "$ONE_OUT"
skip pdsh || measure "pdsh (ad-hoc)" "$C_PDSH" "" "$PDSH_OUT"
skip clush || measure "clush -b (ad-hoc)" "$C_CLUSH" "" "grep -q '$(uname -r)' $LOG"
skip ansible-warm || measure "ansible -m command, warm ControlPersist (ad-hoc)" "$C_ANSIBLE" "" "$ANS_OUT"
skip ansible-cold || measure "ansible -m command, cold: masters closed (ad-hoc)" "$C_ANSIBLE" close_masters "$ANS_OUT"
if ! skip rocectl-run; then
  measure "rocectl run 3 tasks, first run" "$C_RUN" "$RESET" "$FIRST_ROCECTL"
  measure "rocectl run 3 tasks, re-run (changed=0)" "$C_RUN" "" "$RERUN_ROCECTL"
fi
if ! skip ansible-playbook; then
  measure "ansible-playbook 3 tasks, first run (warm masters)" "$C_PLAY" "$RESET" "$FIRST_ANS"
  measure "ansible-playbook 3 tasks, re-run (changed=0, warm masters)" "$C_PLAY" "" "$RERUN_ANS"
fi
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

echo
echo "Fan-out on $HOSTS lab hosts x $NICS NICs, forks $FORKS, median of $RUNS runs (wall seconds, $(nproc) cores;"
echo "load average before $LOAD0, after $LOAD1; $(date -u +%Y-%m-%dT%H:%MZ), $(./rocectl --version | head -1))."
echo
echo "| what | command | median s | runs s |"
echo "|---|---|---:|---|"
printf '%s\n' "${ROWS[@]}" | sed "s#$IPS#IPS#g; s#'$SSHOPTS'#'SSHOPTS'#g; s#$INV#INV#g"
echo
echo "INV = $INV; IPS = the $HOSTS management addresses ($(cut -d, -f1 <<<"$IPS")..$(awk -F, '{print $NF}' <<<"$IPS")); SSHOPTS = $SSHOPTS"
echo "PDSH_SSH_ARGS_APPEND=SSHOPTS; ANSIBLE_SSH_ARGS=$ANSIBLE_SSH_ARGS; ANSIBLE_PIPELINING=True;"
echo "ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3. First runs: files removed on every host before each run (untimed)."
