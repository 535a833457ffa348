#!/bin/sh
# Times `rocectl run playbooks/roce-multinic.yaml` on a fresh, broken lab: the first run (the fix)
# and the second (nothing to do), wall clock including JVM start, plus the run's own "elapsed".
# Needs root. Usage: bench/roce-playbook.sh [JAR] [SIZES...]   (default 8x4; build the jar first:
# mvn -q -o package -DskipTests). Checks every cross-host pair with fping afterwards (not timed).
set -eu
JAR=${1:-target/rocectl.jar}
[ $# -gt 0 ] && shift
SIZES=${*:-8x4}
NAME=roceb
MGMT=${MGMT:-10.249.250.0/24}   # override when taken: MGMT=10.x.y.0/24
DIR=/run/rocectl-lab/$NAME
rocectl() { java -jar "$JAR" "$@"; }
now() { date +%s.%N; }
run() {
  t0=$(now)
  el=$(rocectl run playbooks/roce-multinic.yaml -i "$DIR/inventory.ini" | sed -n 's/^elapsed: //p')
  t1=$(now)
  printf '%8.1f %8s' "$(echo "$t1 - $t0" | bc)" "$el"
}

printf '%-6s %8s %8s %8s %8s %s\n' size first_s run_s second_s run_s failed_pairs
for size in $SIZES; do
  h=${size%x*}; k=${size#*x}
  rocectl lab down --name "$NAME" >/dev/null
  rocectl lab up --name "$NAME" --hosts "$h" --nics "$k" --mgmt-subnet "$MGMT" >/dev/null
  printf '%-6s ' "$size"
  run; run
  ips=$(grep -o '"ip" : "[0-9.]*"' "$DIR/state.json" | sed 's/.*: "//; s/"//' | tr '\n' ' ')
  bad=0
  # shellcheck disable=SC2013 # namespace names are single words ([a-z0-9-])
  for ns in $(sed -n 's/.*"namespace" : "\([^"]*\)".*/\1/p' "$DIR/state.json"); do
    # shellcheck disable=SC2086,SC2016 # $ips is a list of addresses; the inner sh expands its own $src and $@
    n=$(nsenter --net="/run/netns/$ns" sh -c 'for src in $(ip -4 -o addr show | awk "\$2 ~ /^ens/ {sub(\"/.*\", \"\", \$4); print \$4}"); do
          fping -q -c1 -t300 -S "$src" "$@" 2>&1; done' sh $ips | grep -c '/0/' || true)
    bad=$((bad + n))
  done
  printf ' %s\n' "$bad"
  rocectl lab down --name "$NAME" >/dev/null
done
