#!/usr/bin/env bash
# bench/fix-vs-ansible.sh: the RoCE fix with rocectl and with Ansible, side by side in one run.
#
# Usage (root, from anywhere):  bench/fix-vs-ansible.sh [HOSTSxNICS]     (default 32x4)
#
# For each tool, on a FRESH lab (broken the way a new cluster is: several NICs in one subnet, no
# per-NIC routing, default ARP sysctls), it times the fix from broken and then the re-run with
# nothing to change (changed=0 is checked), then checks untimed that every cross-host NIC pair
# answers (fping from every NIC in every host namespace). An untimed rocectl run on a lab of its
# own comes first (the launcher records its class archive then). Order: rocectl, Ansible, rocectl again,
# so a change of machine load shows up as a difference between the two rocectl rows.
#   rocectl: ./rocectl run playbooks/roce-multinic.yaml -i INV --skip-tags probe -f FORKS
#   Ansible: ansible-playbook -i INV -f FORKS bench/ansible/roce-fix.yaml   (7 plain tasks, the
#            same fix; pipelining, ControlPersist, python3 interpreter set: its fastest honest setup)
# Before each timed command it waits (at most CALM_MAX=30 s) for the CPUs to be CALM_IDLE=90 % idle
# over a second, for every tool alike, and logs the load average then.
# Prints a Markdown table with both times, the ratio, and the load average before and after.
# Environment: FIXBENCH_NAME=fixbench FIXBENCH_FORKS=64 FIXBENCH_SUBNET=172.29.0.0/16
#              FIXBENCH_MGMT=10.246.0.0/16
# Needs: root, Java 17 + Maven (first build), ansible-core, fping (Debian packages).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SIZE=${1:-32x4}
HOSTS=${SIZE%x*}; NICS=${SIZE#*x}
NAME=${FIXBENCH_NAME:-fixbench}
FORKS=${FIXBENCH_FORKS:-64}
SUBNET=${FIXBENCH_SUBNET:-172.29.0.0/16}
MGMT=${FIXBENCH_MGMT:-10.246.0.0/16}
[ "$(id -u)" = 0 ] || { echo "fix-vs-ansible.sh: needs root (the lab uses network namespaces)" >&2; exit 1; }
for tool in java ansible-playbook fping ssh; do
  command -v "$tool" >/dev/null || { echo "fix-vs-ansible.sh: $tool not found (apt-get install -y ansible-core fping)" >&2; exit 1; }
done

WORK=$(mktemp -d /tmp/fixbench.XXXXXX)
LAB=/run/rocectl-lab/$NAME
INV=$LAB/inventory.ini
LAB_UP=0
close_masters() {
  local s
  for s in "$WORK"/cp/*; do
    if [ -S "$s" ]; then ssh -o ControlPath="$s" -O exit x >/dev/null 2>&1 || true; fi
  done
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  close_masters
  [ "$LAB_UP" = 1 ] && { ./rocectl lab down --name "$NAME" >/dev/null 2>&1 || echo "fix-vs-ansible.sh: run ./rocectl lab down --name $NAME" >&2; }
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
now() { date +%s.%N; }
say() { printf '%s\n' "$*" >&2; }

./rocectl --version >/dev/null
mkdir -p "$WORK/cp" "$WORK/tmp"
export ANSIBLE_HOST_KEY_CHECKING=True ANSIBLE_PIPELINING=True ANSIBLE_FORKS="$FORKS"
export ANSIBLE_SSH_ARGS="-o UserKnownHostsFile=$LAB/known_hosts -o StrictHostKeyChecking=yes -o BatchMode=yes -o ControlMaster=auto -o ControlPersist=300s"
export ANSIBLE_SSH_CONTROL_PATH_DIR="$WORK/cp" ANSIBLE_LOCAL_TEMP="$WORK/tmp"
export ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 ANSIBLE_NOCOLOR=1 NO_COLOR=1

fresh_lab() {
  close_masters
  ./rocectl lab down --name "$NAME" >/dev/null 2>&1 || true
  LAB_UP=1
  ./rocectl lab up --name "$NAME" --hosts "$HOSTS" --nics "$NICS" --subnet "$SUBNET" --mgmt-subnet "$MGMT" >"$WORK/up.log" \
    || { cat "$WORK/up.log" >&2; exit 1; }
}

# every cross-host NIC pair answers a ping (untimed; all hosts at once, 1 ms between pings; a pair
# whose one ping is lost gets three more, so a single loss on a busy machine is not a failed pair);
# prints the number of failed pairs
failed_pairs() {
  local ips ns
  ips=$(grep -o '"ip" : "[0-9.]*"' "$LAB/state.json" | sed 's/.*: "//; s/"//' | tr '\n' ' ')
  rm -rf "$WORK/fping"; mkdir -p "$WORK/fping"
  # shellcheck disable=SC2013
  for ns in $(sed -n 's/.*"namespace" : "\([^"]*\)".*/\1/p' "$LAB/state.json"); do
    # shellcheck disable=SC2086,SC2016
    nsenter --net="/run/netns/$ns" sh -c 'for src in $(ip -4 -o addr show | awk "\$2 ~ /^ens/ {sub(\"/.*\", \"\", \$4); print \$4}"); do
          for dst in $(fping -q -c1 -i1 -t500 -S "$src" "$@" 2>&1 | awk "/\/0\// { print \$1 }"); do
            fping -q -c3 -t500 -S "$src" "$dst" 2>&1; done; done' sh $ips >"$WORK/fping/$ns" &
  done
  wait
  cat "$WORK"/fping/* | grep -c '/0/' || true
}

# Before each timed command: wait (at most CALM_MAX s, default 30) until the CPUs were at least
# CALM_IDLE % (default 90) idle over one second, so that no run inherits the work of what came
# before it (a lab just made, the other tool's run); the load average lags by minutes, so it is
# only reported. Prints the seconds waited.
calm() {
  local w=0 a b
  while [ "$w" -lt "${CALM_MAX:-30}" ]; do
    a=$(awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8, $5 + $6 }' /proc/stat)
    sleep 1
    b=$(awk '/^cpu / { print $2 + $3 + $4 + $5 + $6 + $7 + $8, $5 + $6 }' /proc/stat)
    w=$((w + 1))
    # shellcheck disable=SC2086 # two numbers each
    if awk -v min="${CALM_IDLE:-90}" 'BEGIN { split(ARGV[1], x, " "); split(ARGV[2], y, " "); ARGV[1] = ARGV[2] = "";
        t = y[1] - x[1]; exit !(t > 0 && 100 * (y[2] - x[2]) / t >= min) }' "$a" "$b"; then break; fi
  done
  echo "$w"
}

# CPU time the hypervisor gave to others while this machine wanted it (steal, all CPUs), in s
steal() { awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f", $9 / hz }' /proc/stat; }

# timed CMD VERIFY: prints the wall seconds of CMD; VERIFY (reads $WORK/run.log) must hold after
timed() {
  local t0 t1 w s0
  w=$(calm)
  say "   (waited ${w} s for idle CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg))"
  s0=$(steal)
  t0=$(now)
  bash -c "$1" >"$WORK/run.log" 2>&1 || { say "fix-vs-ansible.sh: failed: $1"; tail -30 "$WORK/run.log" >&2; exit 1; }
  t1=$(now)
  say "   (CPU time stolen by the hypervisor meanwhile: $(awk -v a="$s0" -v b="$(steal)" 'BEGIN { printf "%.2f", b - a }') s)"
  bash -c "$2" || { say "fix-vs-ansible.sh: unexpected result of: $1 ($2)"; tail -30 "$WORK/run.log" >&2; exit 1; }
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }'
}

R_CMD="./rocectl run playbooks/roce-multinic.yaml -i $INV --skip-tags probe -f $FORKS"
A_CMD="ansible-playbook -i $INV -f $FORKS bench/ansible/roce-fix.yaml"
LOG=$WORK/run.log
R_FIRST="grep -Eq 'changed=[1-9]' $LOG && ! grep -Eq '(unreachable|failed)=[1-9]' $LOG"
R_AGAIN="grep -q 'changed=0' $LOG && ! grep -Eq '(changed|unreachable|failed)=[1-9]' $LOG"
A_FIRST="[ \$(grep -Ec 'changed=[1-9][0-9]* +unreachable=0 +failed=0' $LOG) = $HOSTS ]"
A_AGAIN="[ \$(grep -Ec 'changed=0 +unreachable=0 +failed=0' $LOG) = $HOSTS ]"

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
declare -A FIRST AGAIN BAD
# untimed warm-up: the launcher records its class archive for `run` on the first use
fresh_lab
say "== warm-up (untimed): rocectl run, which records the launcher's class archive"
bash -c "$R_CMD" >"$WORK/warmup.log" 2>&1 || { tail -30 "$WORK/warmup.log" >&2; exit 1; }
for tool in rocectl ansible rocectl2; do
  fresh_lab
  if [ "$tool" = ansible ]; then c=$A_CMD; f=$A_FIRST; a=$A_AGAIN; else c=$R_CMD; f=$R_FIRST; a=$R_AGAIN; fi
  say "== $tool: fix from broken"
  FIRST[$tool]=$(timed "$c" "$f")
  say "   ${FIRST[$tool]} s"
  say "== $tool: re-run"
  AGAIN[$tool]=$(timed "$c" "$a")
  say "   ${AGAIN[$tool]} s"
  BAD[$tool]=$(failed_pairs)
  say "   failed pairs after the fix: ${BAD[$tool]}"
done
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)
ratio() { awk -v a="$1" -v r1="$2" -v r2="$3" 'BEGIN { r = (r1 > r2 ? r1 : r2); printf "%.1fx", a / r }'; }

echo "lab: $HOSTS hosts x $NICS NICs, forks $FORKS; $(ansible-playbook --version 2>/dev/null | sed -n 1p); load average before $LOAD0, after $LOAD1"
echo
echo "| tool | fix from broken | re-run (changed=0) | failed pairs after |"
echo "|---|---:|---:|---:|"
echo "| rocectl (first) | ${FIRST[rocectl]} s | ${AGAIN[rocectl]} s | ${BAD[rocectl]} |"
echo "| Ansible | ${FIRST[ansible]} s | ${AGAIN[ansible]} s | ${BAD[ansible]} |"
echo "| rocectl (again) | ${FIRST[rocectl2]} s | ${AGAIN[rocectl2]} s | ${BAD[rocectl2]} |"
echo "| **ratio** (Ansible / slower rocectl) | **$(ratio "${FIRST[ansible]}" "${FIRST[rocectl]}" "${FIRST[rocectl2]}")** | **$(ratio "${AGAIN[ansible]}" "${AGAIN[rocectl]}" "${AGAIN[rocectl2]}")** | |"
echo
echo "rocectl: \`$R_CMD\`"
echo "Ansible: \`$A_CMD\`"
