#!/bin/sh
# bench/fix-profile.sh: where the RoCE fix's time goes, per task, on a lab that is up.
#
# Usage (root):  bench/fix-profile.sh INVENTORY [RUNS]     (default 2: from its state, then again)
# Each run: ./rocectl run playbooks/roce-multinic.yaml -i INVENTORY --skip-tags probe --output json;
# prints the wall time and CPU of the rocectl process, the processes started on the whole machine
# meanwhile (/proc/stat "processes": the lab hosts share its kernel), and per task the slowest
# host's and the mean host's time and how many hosts changed. Needs jq.
# Example: ./rocectl lab up --name prof --hosts 32 --nics 4 && bench/fix-profile.sh /run/rocectl-lab/prof/inventory.ini
set -eu
cd "$(dirname "$0")/.."
INV=${1:?usage: bench/fix-profile.sh INVENTORY [RUNS]}
RUNS=${2:-2}
OUT=$(mktemp)
trap 'rm -f "$OUT" "$OUT.time"' EXIT
forks() { awk '/^processes/ { print $2 }' /proc/stat; }
i=1
while [ "$i" -le "$RUNS" ]; do
  f0=$(forks)
  /usr/bin/env time -f "%e s wall, rocectl CPU %U s user %S s sys" -o "$OUT.time" \
    ./rocectl run playbooks/roce-multinic.yaml -i "$INV" --skip-tags probe --output json > "$OUT" || true
  f1=$(forks)
  echo "run $i: $(cat "$OUT.time"); processes started: $((f1 - f0)); in-run $(jq -r '.duration_ms' "$OUT") ms"
  jq -r '.plays[].tasks[] | [([.hosts[].duration_ms] | max), (([.hosts[].duration_ms] | add) / ([.hosts[].duration_ms] | length) | floor),
      ([.hosts[] | select(.status == "changed")] | length), .task] | @tsv' "$OUT" |
    awk -F'\t' 'BEGIN { printf "  %8s %8s %7s  %s\n", "max ms", "mean ms", "changed", "task" } { printf "  %8d %8d %7d  %s\n", $1, $2, $3, $4 }'
  i=$((i + 1))
done
