#!/bin/sh
# Times `rocectl lab up` and `lab down` for 8x4, 32x4 and 64x8 (hosts x NICs). Needs root.
# Usage: bench/lab-up.sh [JAR] [SIZES...]   (build the jar first: mvn -q -o package -DskipTests)
# Each size: up (timed), status + one real SSH login to the last host (checked, not timed), down (timed).
set -eu
JAR=${1:-target/rocectl.jar}
[ $# -gt 0 ] && shift
SIZES=${*:-8x4 32x4 64x8}
NAME=labbench
MGMT=10.247.0.0/16
lab() { java -cp "$JAR" io.rocectl.lab.LabMain "$@"; }
now() { date +%s.%N; }

printf '%-6s %10s %10s\n' size up_s down_s
for size in $SIZES; do
  h=${size%x*}; k=${size#*x}
  lab down --name "$NAME" >/dev/null
  t0=$(now)
  lab up --name "$NAME" --hosts "$h" --nics "$k" --mgmt-subnet "$MGMT" >/tmp/labbench-up.log
  t1=$(now)
  lab status --name "$NAME" >/dev/null || { echo "status not healthy at $size" >&2; exit 2; }
  dir=/run/rocectl-lab/$NAME
  last=$(grep -c ansible_host "$dir/inventory.ini")
  ip=$(grep ansible_host "$dir/inventory.ini" | tail -1 | sed 's/.*ansible_host=//')
  ssh -i "$dir/id_ed25519" -o UserKnownHostsFile="$dir/known_hosts" -o StrictHostKeyChecking=yes \
      -o BatchMode=yes "root@$ip" hostname >/dev/null || { echo "ssh to host $last failed at $size" >&2; exit 2; }
  t2=$(now)
  lab down --name "$NAME" >/dev/null
  t3=$(now)
  printf '%-6s %10.1f %10.1f\n' "$size" "$(echo "$t1 - $t0" | bc)" "$(echo "$t3 - $t2" | bc)"
done
