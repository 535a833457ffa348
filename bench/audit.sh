#!/bin/sh
# rocectl audit beside rocectl health on a fixed lab: the commands (SSH round trips) each starts
# per host, counted with the transport's own counter (bench/RoundTrips.java, over connections
# opened beforehand; the audit's JSON "commands" gives the same count from the CLI), and the wall
# time of each whole command, JVM start included (median of REPS runs). Needs root.
# Usage: bench/audit.sh [CLASSPATH] [SIZE]   (default target/rocectl.jar 64x8; env REPS, LAB, MGMT)
set -eu
CP=${1:-target/rocectl.jar}
SIZE=${2:-64x8}
REPS=${REPS:-3}
NAME=${LAB:-audbench}
MGMT=${MGMT:-10.245.0.0/16}
h=${SIZE%x*}; k=${SIZE#*x}
r() { java -cp "$CP" io.rocectl.cli.Main "$@"; }
now() { date +%s.%N; }
dir=/run/rocectl-lab/$NAME
inv=$dir/inventory.ini
tmp=$(mktemp -d)
trap 'r lab down --name "$NAME" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
r lab down --name "$NAME" >/dev/null
r lab up --name "$NAME" --hosts "$h" --nics "$k" --mgmt-subnet "$MGMT" >"$tmp/up.log"
r run playbooks/roce-multinic.yaml -i "$inv" --skip-tags probe >"$tmp/fix.log" || { echo "the fix failed" >&2; exit 2; }
echo "lab $SIZE up and fixed; load average $(cut -d' ' -f1-3 /proc/loadavg)"

java -cp "$CP" bench/RoundTrips.java "$dir" 2>/dev/null >"$tmp/rt"
r audit -i "$inv" --output json >"$tmp/audit.json" || { echo "the fixed lab is not audit-clean" >&2; cat "$tmp/audit.json" >&2; exit 2; }
cli=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["commands"]; v=sorted(c.values()); print(len(v), v[0], v[-1])' "$tmp/audit.json")
settings=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["settings_compared"])' "$tmp/audit.json")

# wall time of one command, median of REPS (exit 0 required)
wall() {
  : >"$tmp/times"
  i=0
  while [ "$i" -lt "$REPS" ]; do
    t0=$(now); "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 2; }; t1=$(now)
    echo "$t1 - $t0" | bc >>"$tmp/times"; i=$((i + 1))
  done
  sort -n "$tmp/times" | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]}'
}
hw=$(wall r health -i "$inv" --state-dir "$tmp/health")
aw=$(wall r audit -i "$inv")
printf '%-8s %-6s %-24s %-12s %s\n' command size "commands per host" "median wall" "runs"
printf '%-8s %-6s %-24s %-12s %s\n' health "$SIZE" "$(awk '$1=="health"{print $2"-"$3}' "$tmp/rt")" "${hw} s" "$REPS"
printf '%-8s %-6s %-24s %-12s %s\n' audit "$SIZE" "$(awk '$1=="audit"{print $2"-"$3}' "$tmp/rt") (CLI: $(echo "$cli" | awk '{print $2"-"$3}'))" "${aw} s" "$REPS"
echo "hosts $(awk '$1=="hosts"{print $2}' "$tmp/rt"); audit: $settings settings compared, clean; load average $(cut -d' ' -f1-3 /proc/loadavg)"
