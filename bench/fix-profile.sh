#!/bin/sh
# bench/fix-profile.sh: where the RoCE fix's time goes, per task, on a lab that is up.
#
# Usage (root):  bench/fix-profile.sh INVENTORY [RUNS]     (default 2: from its state, then again)
# Each run: ./rocectl run playbooks/roce-multinic.yaml -i INVENTORY --skip-tags probe --output json;
# prints the wall time and CPU of the rocectl process, the processes started on the whole machine
# meanwhile (/proc/stat "processes": the lab hosts share its kernel), the lab hosts' own CPU (a
# cgroup holding their sshd trees; lab inventories only), and per task the slowest
# host's and the mean host's time and how many hosts changed. Needs jq.
# Example: ./rocectl lab up --name prof --hosts 32 --nics 4 && bench/fix-profile.sh /run/rocectl-lab/prof/inventory.ini
set -eu
cd "$(dirname "$0")/.."
INV=${1:?usage: bench/fix-profile.sh INVENTORY [RUNS]}
RUNS=${2:-2}
OUT=$(mktemp)
CG=
# shellcheck disable=SC2317 # called by the trap
cleanup() {
  rm -f "$OUT" "$OUT.time"
  [ -n "$CG" ] && [ -d "$CG" ] || return 0
  # the lab's processes go back where they were (the parent group); the group goes
  while read -r p; do echo "$p" > "$(dirname "$CG")/cgroup.procs" 2>/dev/null || :; done < "$CG/cgroup.procs"
  rmdir "$CG" 2>/dev/null || :
}
trap cleanup EXIT
forks() { awk '/^processes/ { print $2 }' /proc/stat; }
# The lab hosts' own CPU (their sshd trees, nothing else on the machine): when the inventory is a
# lab's (state.json beside it), its sshd PIDs go into a cpuacct cgroup (v1) or a cgroup (v2) made
# for this script; their children (every command rocectl runs) follow them there.
STATE=$(dirname "$INV")/state.json
if [ -f "$STATE" ]; then
  if [ -d /sys/fs/cgroup/cpuacct ]; then CG=/sys/fs/cgroup/cpuacct/rocectl-fix-profile
  elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then CG=/sys/fs/cgroup/rocectl-fix-profile; fi
  if [ -n "$CG" ] && mkdir -p "$CG" 2>/dev/null; then
    for p in $(jq -r '.hosts[].sshdPid' "$STATE"); do echo "$p" > "$CG/cgroup.procs" 2>/dev/null || :; done
  else CG=; fi
fi
hostcpu() { # nanoseconds of CPU the lab hosts used so far
  if [ -f "$CG/cpuacct.usage" ]; then cat "$CG/cpuacct.usage"
  elif [ -f "$CG/cpu.stat" ]; then awk '/^usage_usec/ { print $2 * 1000 }' "$CG/cpu.stat"
  else echo 0; fi
}
i=1
while [ "$i" -le "$RUNS" ]; do
  f0=$(forks); c0=$(hostcpu)
  /usr/bin/env time -f "%e s wall, rocectl CPU %U s user %S s sys" -o "$OUT.time" \
    ./rocectl run playbooks/roce-multinic.yaml -i "$INV" --skip-tags probe --output json > "$OUT" || true
  f1=$(forks); c1=$(hostcpu)
  hc=
  [ -z "$CG" ] || hc="; lab hosts CPU $(echo "scale=2; ($c1 - $c0) / 1000000000" | bc) s"
  echo "run $i: $(cat "$OUT.time"); processes started: $((f1 - f0)); in-run $(jq -r '.duration_ms' "$OUT") ms$hc"
  jq -r '.plays[].tasks[] | [([.hosts[].duration_ms] | max), (([.hosts[].duration_ms] | add) / ([.hosts[].duration_ms] | length) | floor),
      ([.hosts[] | select(.status == "changed")] | length), .task] | @tsv' "$OUT" |
    awk -F'\t' 'BEGIN { printf "  %8s %8s %7s  %s\n", "max ms", "mean ms", "changed", "task" } { printf "  %8d %8d %7d  %s\n", $1, $2, $3, $4 }'
  i=$((i + 1))
done
