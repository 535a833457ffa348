#!/bin/sh
# Times `rocectl node-check` per node on a lab (issue 26). Needs root.
# Usage: bench/node-check.sh [CLASSPATH] [HOSTSxNICS] [SAMPLES]
#   CLASSPATH: target/rocectl.jar (mvn -q -o package -DskipTests), or a class path of a copy
#   outside /root (a lab host's /root is a clean one, so ~/.m2 is not visible inside it).
# Brings up a lab (default 64x8), runs the fix playbook (which writes each host's
# /etc/rocectl/endpoints.json; its probe on rail pairs only, to save time), then runs node-check inside SAMPLES hosts spread over the lab,
# one after the other, each as the host sees itself (`lab exec`: its network, mount and UTS
# namespaces). Reports per host: the wall time of the node-check JVM (start-up included) measured
# inside the host, node-check's own elapsed_ms and its steps, and the verdict; then max and median.
set -eu
CP=${1:-target/rocectl.jar}
SIZE=${2:-64x8}
SAMPLES=${3:-5}
NAME=${NAME:-nchk}
MGMT=10.246.0.0/16
h=${SIZE%x*}; k=${SIZE#*x}
rc() { java -cp "$CP" io.rocectl.cli.Main "$@"; }
now() { date +%s.%N; }

rc lab down --name "$NAME" >/dev/null 2>&1 || true
trap 'rc lab down --name "$NAME" >/dev/null 2>&1 || true' EXIT
t0=$(now)
rc lab up --name "$NAME" --hosts "$h" --nics "$k" --mgmt-subnet "$MGMT" >/tmp/nchkbench-up.log
t1=$(now)
inv=/run/rocectl-lab/$NAME/inventory.ini
rc run playbooks/roce-multinic.yaml -i "$inv" -e roce_probe_pairs=rail >/tmp/nchkbench-fix.log
t2=$(now)
printf 'lab %s: up %.1f s, fix run (writes the endpoints files) %.1f s; load: %s\n' "$SIZE" \
  "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
java=$(command -v java)
out=/tmp/nchkbench-times
: >"$out"
i=0
while [ "$i" -lt "$SAMPLES" ]; do
  n=$(( 1 + i * (h - 1) / (SAMPLES > 1 ? SAMPLES - 1 : 1) ))
  host=$(printf 'gpu%02d' "$n")
  # shellcheck disable=SC2016 # expanded inside the host
  line=$(rc lab exec --name "$NAME" "$host" -- sh -c 'a=$(date +%s%N); "$0" -cp "$1" io.rocectl.cli.Main node-check --format json --state-dir "/tmp/nchkbench-state/$2" >/tmp/nchkbench-$2.json; rc=$?; b=$(date +%s%N); echo "$(( (b - a) / 1000000 )) $rc"' "$java" "$CP" "$host")
  ms=${line% *}; code=${line#* }
  json=$(cat "/tmp/nchkbench-$host.json")
  echo "$ms" >>"$out"
  printf '%s: %s ms wall (exit %s) %s\n' "$host" "$ms" "$code" \
    "$(echo "$json" | sed 's/.*"message":"\([^"]*\)".*"elapsed_ms":\([0-9]*\),"steps_ms":\({[^}]*}\).*/elapsed_ms=\2 steps=\3 "\1"/')"
  i=$((i + 1))
done
sort -n "$out" | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
  printf "node-check wall time over %d hosts: median %d ms, max %d ms (bound: 40 s + JVM start)\n", NR, m, v[NR] }'
