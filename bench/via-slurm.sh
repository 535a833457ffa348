#!/bin/sh
# Times `rocectl probe --via slurm` (one srun step for the NIC read, one for the probe) against
# `rocectl probe` over SSH on the same lab with a real Slurm (`lab up --slurm`), broken (fresh)
# and fixed, alternating the two REPS times each; checks that both found the same failed pairs
# and causes. Prints a Markdown table (median wall, in-run, and the endpoints/probe phases).
# Needs root and jq.
#
# Usage: bench/via-slurm.sh [HOSTSxNICS]        (default 16x4)
#   env: ROCECTL="java -jar target/rocectl.jar" (the command to run)  REPS=3  LAB=viabench
#        MGMT=10.246.210.0/24  PAIRS=all  KEEP=1 (leave the lab up)  STATES="broken fixed"
set -eu
SIZE=${1:-16x4}
ROCECTL=${ROCECTL:-java -jar target/rocectl.jar}
REPS=${REPS:-3}
LAB=${LAB:-viabench}
MGMT=${MGMT:-10.246.210.0/24}
PAIRS=${PAIRS:-all}
STATES=${STATES:-broken fixed}
H=${SIZE%x*}
K=${SIZE#*x}
INV=/run/rocectl-lab/$LAB/inventory.ini
PLAYBOOK=$(dirname "$0")/../playbooks/roce-multinic.yaml
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

rocectl() { $ROCECTL "$@"; }
now() { date +%s.%N; }
median() { sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }
phase() { sed -n 's/^phases:.* '"$1"' \([0-9.]*\) s.*/\1/p' "$2"; }

rocectl lab down --name "$LAB" >/dev/null
rocectl lab up --name "$LAB" --hosts "$H" --nics "$K" --mgmt-subnet "$MGMT" --slurm >&2
cleanup() { [ "${KEEP:-0}" = 1 ] || rocectl lab down --name "$LAB" >/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

echo "| lab | state | pairs | via | wall | in-run | endpoints phase | probe phase | failed pairs | load average |"
echo "|---|---|---:|---|---:|---:|---:|---:|---:|---:|"
for state in $STATES; do
  if [ "$state" = fixed ]; then rocectl run "$PLAYBOOK" -i "$INV" >/dev/null; fi
  for via in ssh slurm; do : > "$TMP/$via.wall"; : > "$TMP/$via.run"; : > "$TMP/$via.ep"; : > "$TMP/$via.pr"; done
  i=0
  while [ $i -lt "$REPS" ]; do
    for via in ssh slurm; do
      t0=$(now)
      rocectl probe -i "$INV" --pairs "$PAIRS" --via "$via" -v --report "$TMP/$via.json" > "$TMP/$via.txt" 2>&1 || true
      t1=$(now)
      echo "$t1 - $t0" | bc >> "$TMP/$via.wall"
      jq -r '.duration_ms / 1000' "$TMP/$via.json" >> "$TMP/$via.run"
      phase endpoints "$TMP/$via.txt" >> "$TMP/$via.ep"
      phase probe "$TMP/$via.txt" >> "$TMP/$via.pr"
      jq -r '.failures[] | "\(.src_host):\(.src_nic)>\(.dst_host):\(.dst_nic) \(.layer) \(.cause)"' "$TMP/$via.json" | sort > "$TMP/$via.failed"
      load=$(cut -d' ' -f1 /proc/loadavg)
      echo "$load" >> "$TMP/$via.load"
    done
    cmp -s "$TMP/ssh.failed" "$TMP/slurm.failed" || { echo "DIFFERENT verdicts ($state): see diff" >&2; diff "$TMP/ssh.failed" "$TMP/slurm.failed" >&2 || true; }
    i=$((i + 1))
  done
  pairs=$(jq -r '.summary.pairs_total' "$TMP/ssh.json")
  for via in ssh slurm; do
    printf '| %s | %s | %s | %s | %.2f s | %.2f s | %.2f s | %.2f s | %s | %s |\n' "${H} x ${K}" "$state" "$pairs" "$via" \
      "$(median < "$TMP/$via.wall")" "$(median < "$TMP/$via.run")" "$(median < "$TMP/$via.ep")" "$(median < "$TMP/$via.pr")" \
      "$(wc -l < "$TMP/$via.failed")" "$(sort -n "$TMP/$via.load" | tail -1)"
    : > "$TMP/$via.load"
  done
done
