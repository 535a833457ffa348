#!/usr/bin/env bash
# bench/small-playbooks.sh: small playbooks, rocectl next to Ansible, side by side in one run (issue 28).
#
# Usage (root, from anywhere; paths are relative to the repo root):  bench/small-playbooks.sh
#
# What it does
#   1. builds the jar if needed (./rocectl --version builds it) and brings up a lab of
#      $SMALLBENCH_HOSTS hosts x 2 NICs named $SMALLBENCH_NAME (real sshd per host; subnets that do
#      not clash with the default lab or bench/fanout.sh's);
#   2. runs every command once, untimed (this also records rocectl's class archives and opens
#      Ansible's ControlPersist masters), and checks what each printed;
#   3. times three workloads, each tool right after the other (interleaved), and reports the
#      median wall time and the median CPU time (user + system of the command and the children it
#      waited for; Ansible's ssh masters are not its children, so its CPU is undercounted):
#        a 1-host ping:  rocectl run PING -l gpu01   |  ansible-playbook PING -l gpu01  |  ansible gpu01 -m ping
#        the 3-task playbook of bench/fanout.sh on every host, first run (files removed before, untimed)
#          and re-run (changed=0 checked), forks 64;
#        the engine differential corpus (src/test/resources/differential/engine/cases, the playbooks
#          EngineDifferentialTest compares with recorded ansible-playbook runs), every case one after
#          another against 4 lab hosts named as the corpus's inventory names them (h1..h4, groups
#          nodes and odd), each case with the options of its "# args:" line; the cases that bring
#          their own inventory (-i) are left out. A pass times each case with one tool and then the
#          other (which tool goes first alternates between passes) and sums each tool's times;
#          the median pass is reported. Exit codes of the two tools are compared and the cases
#          where they differ are listed (over SSH a few cases behave differently from the recorded
#          local runs: the timing still counts them);
#   4. prints a Markdown table and takes the lab down.
#
# Ansible is set up as in bench/fanout.sh (its fastest honest settings): ControlPersist masters
# kept warm, pipelining, ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3, host keys checked.
#
# Environment knobs (defaults):
#   SMALLBENCH_NAME=smallpb SMALLBENCH_HOSTS=32 SMALLBENCH_RUNS=5 (ping and 3-task rows)
#   SMALLBENCH_CORPUS_RUNS=3 SMALLBENCH_FORKS=64 SMALLBENCH_SUBNET=172.27.0.0/16
#   SMALLBENCH_MGMT=10.247.0.0/16
#   SMALLBENCH_SKIP=""        space-separated workloads to skip: ping three corpus
#   SMALLBENCH_CASES=""       only these corpus cases (space-separated names without .yaml)
#   SMALLBENCH_CORPUS_UNTIMED=1  0: no untimed corpus pass (the exit codes compared are the last
#                             timed pass's; halves the time of a one-pass run)
#   SMALLBENCH_ROCECTL=./rocectl   the rocectl command (e.g. another checkout's launcher, for an A/B)
#   SMALLBENCH_KEEP=1         leave the lab up at the end
# Needs: root, Java 17 + Maven (first build), ansible-core (Debian's ansible), GNU time (/usr/bin/time).
# The machine is shared: the load average is printed before and after; compare ratios, not seconds.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

NAME=${SMALLBENCH_NAME:-smallpb}
HOSTS=${SMALLBENCH_HOSTS:-32}
RUNS=${SMALLBENCH_RUNS:-5}
CRUNS=${SMALLBENCH_CORPUS_RUNS:-3}
CUNTIMED=${SMALLBENCH_CORPUS_UNTIMED:-1}
FORKS=${SMALLBENCH_FORKS:-64}
SUBNET=${SMALLBENCH_SUBNET:-172.27.0.0/16}
MGMT=${SMALLBENCH_MGMT:-10.247.0.0/16}
SKIP=" ${SMALLBENCH_SKIP:-} "
ROCECTL=${SMALLBENCH_ROCECTL:-./rocectl}
CASEDIR=src/test/resources/differential/engine/cases
THREE=bench/playbooks/three-tasks.yaml

[ "$(id -u)" = 0 ] || { echo "small-playbooks.sh: needs root (the lab uses network namespaces)" >&2; exit 1; }
for tool in java ansible ansible-playbook ssh /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "small-playbooks.sh: $tool not found (apt-get install -y ansible time)" >&2; exit 1; }
done
[ "$HOSTS" -ge 4 ] || { echo "small-playbooks.sh: SMALLBENCH_HOSTS must be at least 4 (the corpus uses 4 hosts)" >&2; exit 1; }

WORK=$(mktemp -d /tmp/smallbench.XXXXXX)
LAB_UP=0
close_masters() {
  local s
  for s in "$WORK"/cp/*; do
    if [ -S "$s" ]; then ssh -o ControlPath="$s" -O exit smallbench >/dev/null 2>&1 || true; fi
  done
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  close_masters
  if [ "$LAB_UP" = 1 ] && [ "${SMALLBENCH_KEEP:-0}" != 1 ]; then
    ./rocectl lab down --name "$NAME" >/dev/null 2>&1 || echo "small-playbooks.sh: lab down failed; run ./rocectl lab down --name $NAME" >&2
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say() { printf '%s\n' "$*" >&2; }

say "== build"
$ROCECTL --version >/dev/null

say "== lab up: $NAME, $HOSTS hosts x 2 NICs"
./rocectl lab down --name "$NAME" >/dev/null 2>&1 || true
LAB_UP=1
./rocectl lab up --name "$NAME" --hosts "$HOSTS" --nics 2 --subnet "$SUBNET" --mgmt-subnet "$MGMT" >"$WORK/lab-up.log" \
  || { cat "$WORK/lab-up.log" >&2; exit 1; }
LAB=/run/rocectl-lab/$NAME
INV=$LAB/inventory.ini
KH=$LAB/known_hosts
ip_of() { sed -n "s/^$1 ansible_host=\([0-9.]*\).*/\1/p" "$INV"; }

# The corpus's inventory (differential/engine/inventory.ini: h1..h4, h2 with rack=r2, group odd)
# on the first four lab hosts.
CINV=$WORK/corpus.ini
{
  echo "[nodes]"
  echo "h1 ansible_host=$(ip_of gpu01)"
  echo "h2 rack=r2 ansible_host=$(ip_of gpu02)"
  echo "h3 ansible_host=$(ip_of gpu03)"
  echo "h4 ansible_host=$(ip_of gpu04)"
  echo
  echo "[odd]"
  echo "h1"
  echo "h3"
  echo
  echo "[all:vars]"
  echo "ansible_user=root"
  echo "ansible_ssh_private_key_file=$LAB/id_ed25519"
  echo "rocectl_known_hosts=$KH"
} >"$CINV"
PING=$WORK/ping.yaml
printf '%s\n' '- name: ping' '  hosts: all' '  gather_facts: false' '  tasks:' '    - name: ping' '      ping:' >"$PING"

mkdir -p "$WORK/cp" "$WORK/ansible-tmp"
export ANSIBLE_HOST_KEY_CHECKING=True
export ANSIBLE_PIPELINING=True
export ANSIBLE_SSH_ARGS="-o UserKnownHostsFile=$KH -o StrictHostKeyChecking=yes -o BatchMode=yes -o ControlMaster=auto -o ControlPersist=300s"
export ANSIBLE_SSH_CONTROL_PATH_DIR="$WORK/cp"
export ANSIBLE_LOCAL_TEMP="$WORK/ansible-tmp"
export ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3
export ANSIBLE_RETRY_FILES_ENABLED=false
export ANSIBLE_NOCOLOR=1 NO_COLOR=1

# timed LOG CMD: runs CMD (bash -c) with its output in LOG; prints "WALL CPU RC"
timed() {
  local log=$1 cmd=$2 rc=0
  /usr/bin/time -o "$WORK/time" -f '%e %U %S' bash -c "$cmd" >"$log" 2>&1 || rc=$?
  tail -1 "$WORK/time" | awk -v rc="$rc" '{ printf "%s %.2f %s\n", $1, $2 + $3, rc }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A WALL CPU CMD
ORDER=()
# sample LABEL CMD VERIFY: one timed run; VERIFY (reads $WORK/run.log) must succeed
sample() {
  local label=$1 cmd=$2 verify=$3 w c rc
  read -r w c rc < <(timed "$WORK/run.log" "$cmd")
  if [ "$rc" != 0 ] || ! bash -c "$verify" >/dev/null 2>&1; then
    say "small-playbooks.sh: $label: exit $rc or unexpected output ($cmd)"; tail -20 "$WORK/run.log" >&2; exit 1
  fi
  [ -n "${CMD[$label]:-}" ] || ORDER+=("$label")
  CMD[$label]=$cmd
  WALL[$label]+="$w "
  CPU[$label]+="$c "
  say "   $label: $w s (CPU $c s)"
}
skip() { [[ "$SKIP" == *" $1 "* ]]; }
LOG=$WORK/run.log
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)

R_PING="$ROCECTL run $PING -i $INV -l gpu01"
A_PLAY_PING="ansible-playbook -i $INV -l gpu01 $PING"
A_PING="ansible gpu01 -i $INV -m ping"
R_THREE="$ROCECTL run $THREE -i $INV -f $FORKS"
A_THREE="ansible-playbook -i $INV -f $FORKS $THREE"
RESET="./rocectl shell -i $INV -- rm -f /etc/rocectl/bench.conf /etc/rocectl/bench2.conf"
OK1="grep -Eq 'ok=1 +changed=0 +unreachable=0 +failed=0' $LOG"
PONG="grep -q '\"ping\": \"pong\"' $LOG"
FIRST_R="grep -q 'changed=2 *unreachable=0 *failed=0' $LOG && ! grep -Eq 'changed=[013-9]|(unreachable|failed)=[1-9]' $LOG"
RERUN_R="grep -q 'changed=0 *unreachable=0 *failed=0' $LOG && ! grep -Eq '(changed|unreachable|failed)=[1-9]' $LOG"
FIRST_A="[ \$(grep -Ec 'changed=2 +unreachable=0 +failed=0' $LOG) = $HOSTS ]"
RERUN_A="[ \$(grep -Ec 'changed=0 +unreachable=0 +failed=0' $LOG) = $HOSTS ]"

if ! skip ping; then
  say "== 1-host ping (untimed check, then $RUNS interleaved runs)"
  for c in "$R_PING|$OK1" "$A_PLAY_PING|$OK1" "$A_PING|$PONG"; do
    timed "$LOG" "${c%%|*}" >/dev/null; bash -c "${c#*|}" || { say "check failed: ${c%%|*}"; tail -20 "$LOG" >&2; exit 1; }
  done
  for ((i = 1; i <= RUNS; i++)); do
    sample "rocectl run, 1-task ping playbook, 1 host" "$R_PING" "$OK1"
    sample "ansible-playbook, 1-task ping playbook, 1 host" "$A_PLAY_PING" "$OK1"
    sample "ansible -m ping, 1 host" "$A_PING" "$PONG"
  done
fi

if ! skip three; then
  say "== 3-task playbook on $HOSTS hosts (untimed check, then $RUNS interleaved runs)"
  bash -c "$RESET" >/dev/null
  for c in "$R_THREE|$FIRST_R" "$A_THREE|$RERUN_A"; do
    timed "$LOG" "${c%%|*}" >/dev/null; bash -c "${c#*|}" || { say "check failed: ${c%%|*}"; tail -20 "$LOG" >&2; exit 1; }
  done
  for ((i = 1; i <= RUNS; i++)); do
    bash -c "$RESET" >/dev/null
    sample "rocectl run, 3 tasks, $HOSTS hosts, first run" "$R_THREE" "$FIRST_R"
    bash -c "$RESET" >/dev/null
    sample "ansible-playbook, 3 tasks, $HOSTS hosts, first run" "$A_THREE" "$FIRST_A"
    sample "rocectl run, 3 tasks, $HOSTS hosts, re-run" "$R_THREE" "$RERUN_R"
    sample "ansible-playbook, 3 tasks, $HOSTS hosts, re-run" "$A_THREE" "$RERUN_A"
  done
fi

CORPUS_ROWS=()
if ! skip corpus; then
  cases=()
  for f in "$CASEDIR"/*.yaml; do
    n=$(basename "$f" .yaml)
    if [ -n "${SMALLBENCH_CASES:-}" ] && [[ " $SMALLBENCH_CASES " != *" $n "* ]]; then continue; fi
    args=$(sed -n '1s/^# args: //p' "$f")
    [[ " $args " == *" -i "* ]] && continue
    cases+=("$n")
  done
  [ "${#cases[@]}" -gt 0 ] || { say "small-playbooks.sh: no corpus case selected"; exit 1; }
  say "== corpus: ${#cases[@]} cases ($([ "$CUNTIMED" = 1 ] && echo "untimed pass, then ")$CRUNS timed passes)"
  declare -A RC_R RC_A
  for n in "${cases[@]}"; do
    [ "$CUNTIMED" = 1 ] || break
    args=$(sed -n '1s/^# args: //p' "$CASEDIR/$n.yaml")
    read -r _ _ "RC_R[$n]" < <(timed "$LOG" "$ROCECTL run -i $CINV $args $CASEDIR/$n.yaml")
    read -r _ _ "RC_A[$n]" < <(timed "$LOG" "ansible-playbook -i $CINV $args $CASEDIR/$n.yaml")
  done
  rw=() rc=() aw=() ac=()
  for ((p = 1; p <= CRUNS; p++)); do
    tr_w=0 tr_c=0 ta_w=0 ta_c=0
    for n in "${cases[@]}"; do
      args=$(sed -n '1s/^# args: //p' "$CASEDIR/$n.yaml")
      for tool in $([ $((p % 2)) = 1 ] && echo "r a" || echo "a r"); do
        if [ "$tool" = r ]; then
          read -r w c "RC_R[$n]" < <(timed "$LOG" "$ROCECTL run -i $CINV $args $CASEDIR/$n.yaml")
          tr_w=$(awk -v a="$tr_w" -v b="$w" 'BEGIN { print a + b }'); tr_c=$(awk -v a="$tr_c" -v b="$c" 'BEGIN { print a + b }')
        else
          read -r w c "RC_A[$n]" < <(timed "$LOG" "ansible-playbook -i $CINV $args $CASEDIR/$n.yaml")
          ta_w=$(awk -v a="$ta_w" -v b="$w" 'BEGIN { print a + b }'); ta_c=$(awk -v a="$ta_c" -v b="$c" 'BEGIN { print a + b }')
        fi
      done
    done
    say "   pass $p: rocectl $tr_w s (CPU $tr_c s), ansible-playbook $ta_w s (CPU $ta_c s)"
    rw+=("$tr_w") rc+=("$tr_c") aw+=("$ta_w") ac+=("$ta_c")
  done
  differ=()
  for n in "${cases[@]}"; do [ "${RC_R[$n]}" = "${RC_A[$n]}" ] || differ+=("$n (rocectl ${RC_R[$n]}, ansible ${RC_A[$n]})"); done
  CORPUS_ROWS+=("| rocectl run, corpus of ${#cases[@]} playbooks | \`$ROCECTL run -i CINV ARGS CASE.yaml\`, each case | $(printf '%s\n' "${rw[@]}" | median) | $(printf '%s\n' "${rc[@]}" | median) | ${rw[*]} |")
  CORPUS_ROWS+=("| ansible-playbook, corpus of ${#cases[@]} playbooks | \`ansible-playbook -i CINV ARGS CASE.yaml\`, each case | $(printf '%s\n' "${aw[@]}" | median) | $(printf '%s\n' "${ac[@]}" | median) | ${aw[*]} |")
fi
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

echo
echo "Small playbooks, rocectl next to Ansible: median of $RUNS interleaved runs (corpus: of $CRUNS passes), wall and CPU"
echo "seconds, $(nproc) cores, load average before $LOAD0, after $LOAD1; $(date -u +%Y-%m-%dT%H:%MZ), $($ROCECTL --version | sed -n 1p),"
echo "$(java -version 2>&1 | head -1), $(ansible-playbook --version 2>/dev/null | sed -n 1p)."
echo
echo "| what | command | median wall s | median CPU s | runs wall s |"
echo "|---|---|---:|---:|---|"
for l in "${ORDER[@]}"; do
  echo "| $l | \`${CMD[$l]}\` | $(tr ' ' '\n' <<<"${WALL[$l]}" | grep . | median) | $(tr ' ' '\n' <<<"${CPU[$l]}" | grep . | median) | ${WALL[$l]}|"
done | sed "s#$INV#INV#g; s#$PING#PING#g"
[ "${#CORPUS_ROWS[@]}" = 0 ] || printf '%s\n' "${CORPUS_ROWS[@]}"
echo
echo "INV = the lab's inventory ($HOSTS hosts); PING = a 1-task playbook (hosts: all, gather_facts: false, ping);"
echo "CINV = the corpus inventory on gpu01..gpu04. Ansible: ControlPersist (warm), pipelining, python3 set."
if ! skip corpus && [ "${#differ[@]}" -gt 0 ]; then
  echo "Corpus cases whose exit code differs between the tools over SSH: ${differ[*]}"
fi
