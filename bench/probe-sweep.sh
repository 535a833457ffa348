#!/bin/sh
# Times `rocectl probe` against the floor: a direct fping sweep of the same NIC pairs run inside
# the lab's namespaces (one `fping -S SRC targets...` per source NIC, every host at once via
# `ip netns exec`), with the probe's own ping settings (-c 2 -p 200 -i 2 -t 1000).
# Median of REPS runs each; prints a Markdown table. Needs root, jq and fping.
#
# Usage: bench/probe-sweep.sh [JAR] [HOSTSxNICS]        (default target/rocectl.jar 32x4)
#   env: REPS=3  LAB=probebench  MGMT=10.246.200.0/24  KEEP=1 (leave the lab up)
#        PAIRS="rail all"  (pair sets to time)
#        REUSE=1 DIR=/run/rocectl-lab/NAME: time an existing, already fixed lab (not taken down)
#        CALM=4 CALM_MAX=45: before the floor and before rocectl's probe, wait (at most CALM_MAX s)
#        for the 1-minute load average to fall below CALM
#        STATES="broken fixed": time the fresh lab before the fix playbook (every pair broken:
#        wrong routes, ARP flux), then after it (REUSE=1 times only "fixed")
# Build the jar first: mvn -q -o package -DskipTests
set -eu
JAR=${1:-target/rocectl.jar}
SIZE=${2:-32x4}
REPS=${REPS:-3}
LAB=${LAB:-probebench}
MGMT=${MGMT:-10.246.200.0/24}
PAIRS=${PAIRS:-rail all}
H=${SIZE%x*}
K=${SIZE#*x}
DIR=${DIR:-/run/rocectl-lab/$LAB}
INV=$DIR/inventory.ini
PLAYBOOK=$(dirname "$0")/../playbooks/roce-multinic.yaml
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

rocectl() { java -jar "$JAR" "$@"; }
now() { date +%s.%N; }
median() { sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }

if [ "${REUSE:-0}" = 1 ]; then
  KEEP=1
  echo "reusing the lab in $DIR" >&2
else
  echo "lab $LAB: $H hosts x $K NICs (management $MGMT)" >&2
  rocectl lab down --name "$LAB" >/dev/null
  rocectl lab up --name "$LAB" --hosts "$H" --nics "$K" --mgmt-subnet "$MGMT" >/dev/null
fi
STATES=${STATES:-broken fixed}
[ "${REUSE:-0}" = 1 ] && STATES=fixed
fix() {
  rocectl run "$PLAYBOOK" -i "$INV" >"$TMP/fix.log" 2>&1 || { tail -20 "$TMP/fix.log" >&2; echo "fix playbook failed" >&2; exit 2; }
}

# Before each measured command: wait until the 1-minute load average is below CALM (default 4)
# or CALM_MAX seconds (default 45) have passed, so that no run inherits the load of the one before.
calm() {
  w=0
  while [ "$w" -lt "${CALM_MAX:-45}" ] && [ "$(echo "$(cut -d' ' -f1 /proc/loadavg) >= ${CALM:-4}" | bc)" = 1 ]; do
    sleep 1; w=$((w + 1))
  done
}

# The highest 1-minute load average seen while a command runs (sampled every 0.5 s).
loadmax() {
  ( m=0; while :; do l=$(cut -d' ' -f1 /proc/loadavg); m=$(echo "if ($l > $m) $l else $m" | bc); echo "$m" > "$TMP/load.$1"; sleep 0.5; done ) &
  echo $! > "$TMP/loadpid.$1"
}
loadstop() { kill "$(cat "$TMP/loadpid.$1")" 2>/dev/null || :; wait "$(cat "$TMP/loadpid.$1")" 2>/dev/null || :; cat "$TMP/load.$1" 2>/dev/null || echo 0; }

# "NAMESPACE SRC_IP TARGET..." per source NIC, for a pair set (rail: same NIC index; all: every NIC)
targets() {
  jq -r --arg set "$1" '.hosts as $hs | $hs[] as $h | $h.nics[] as $n
    | [$h.namespace, $n.ip] + [ $hs[] | select(.name != $h.name) | .nics[]
        | select($set == "all" or .rail == $n.rail) | .ip ] | join(" ")' "$DIR/state.json"
}

# One floor sweep, retries included as the probe does them (silent targets pinged again, twice);
# prints "seconds pairs_answered pairs".
floor_src() { # $1 namespace $2 source $3 output; targets on stdin
  cat > "$3.t"
  : > "$3.r"
  for try in 1 2 3; do
    [ -s "$3.t" ] || break
    # shellcheck disable=SC2046 # targets are split on purpose
    ip netns exec "$1" fping -q -S "$2" -c 2 -p 200 -i 2 -t 1000 $(cat "$3.t") 2>"$3.o" >/dev/null || :
    awk -F'[ /]+' -v last="$try" '/xmt\/rcv/ { if ($8 > 0 || last == 3) print > "/dev/stdout"; else print $1 > "/dev/stderr" }' \
      "$3.o" >> "$3.r" 2> "$3.t"
  done
}
floor() {
  rm -f "$TMP"/fp.* "$TMP"/fr.*
  i=0 pids=
  t0=$(now)
  while read -r ns src tgts; do
    i=$((i + 1))
    echo "$tgts" | tr ' ' '\n' | floor_src "$ns" "$src" "$TMP/fp.$i" &
    pids="$pids $!"
  done < "$TMP/targets.$1"
  # shellcheck disable=SC2086 # a list of PIDs (not the load sampler running beside)
  wait $pids
  t1=$(now)
  ok=$(cat "$TMP"/fp.*.r | awk -F'[ /]+' '/xmt\/rcv/ && $8 > 0 {n++} END{print n+0}')
  total=$(awk '{n += NF - 2} END{print n}' "$TMP/targets.$1")
  echo "$(echo "$t1 - $t0" | bc) $ok $total"
}

# The SSH floor: JVM start + one connection per host + one trivial command (any SSH-based probe pays it).
sshfloor() {
  t0=$(now)
  rocectl shell -i "$INV" -- true >/dev/null
  t1=$(now)
  echo "$t1 - $t0" | bc
}

# One rocectl probe; prints "wall_seconds probe_ms pairs_ok pairs_total probe_phase_s".
probe() {
  set=$1; shift
  t0=$(now)
  rocectl probe -i "$INV" --pairs "$set" --report "$TMP/report.json" -v "$@" > "$TMP/probe.txt" || true
  t1=$(now)
  phase=$(sed -n 's/.* probe \([0-9.]*\) s.*/\1/p' "$TMP/probe.txt")
  echo "$(echo "$t1 - $t0" | bc) $(jq -r '"\(.duration_ms) \(.summary.pairs_ok) \(.summary.pairs_total)"' "$TMP/report.json") $phase"
}

echo "| state | pair set | pairs (answered by fping) | fping floor (s) | SSH floor (s) | rocectl all layers: wall / in-run / probe phase (s) | ratio to fping floor | rocectl --layers ip: wall / in-run / probe phase (s) | ratio to fping floor | max load: floor / rocectl |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for state in $STATES; do
[ "$state" = fixed ] && [ "${REUSE:-0}" != 1 ] && fix
for set in $PAIRS; do
  targets "$set" > "$TMP/targets.$set"
  : > "$TMP/floor"; : > "$TMP/full"; : > "$TMP/ip"; : > "$TMP/ssh"
  r=1
  lf=0 lp=0
  while [ "$r" -le "$REPS" ]; do
    calm; loadmax f; floor "$set" >> "$TMP/floor"; l=$(loadstop f); lf=$(echo "if ($l > $lf) $l else $lf" | bc)
    sshfloor >> "$TMP/ssh"
    calm; loadmax p; probe "$set" >> "$TMP/full"; l=$(loadstop p); lp=$(echo "if ($l > $lp) $l else $lp" | bc)
    probe "$set" --layers ip >> "$TMP/ip"
    r=$((r + 1))
  done
  for f in floor ssh full ip; do sed "s/^/$set $f: /" "$TMP/$f" >&2; done
  pairs=$(awk 'NR==1{print $3}' "$TMP/floor")
  fl=$(awk '{print $1}' "$TMP/floor" | median)
  fw=$(awk '{print $1}' "$TMP/full" | median)
  fr=$(awk '{print $2 / 1000}' "$TMP/full" | median)
  fp=$(awk '{print $5}' "$TMP/full" | median)
  ip_=$(awk '{print $5}' "$TMP/ip" | median)
  sf=$(median < "$TMP/ssh")
  iw=$(awk '{print $1}' "$TMP/ip" | median)
  ir=$(awk '{print $2 / 1000}' "$TMP/ip" | median)
  answered=$(awk 'NR==1{print $2}' "$TMP/floor")
  if [ "$state" = fixed ]; then
    bad=$(cat "$TMP/full" "$TMP/ip" | awk '$3 != $4' | wc -l)
    [ "$bad" -eq 0 ] || echo "warning: $bad rocectl runs did not see every pair ok" >&2
    awk '$2 != $3' "$TMP/floor" | grep -q . && echo "warning: some floor sweeps missed pairs" >&2
  fi
  printf '| %s | %s | %s (%s) | %.2f | %.2f | %.2f / %.2f / %.2f | %.1fx / %.1fx / %.1fx | %.2f / %.2f / %.2f | %.1fx / %.1fx / %.1fx | %s / %s |\n' \
    "$state" "$set" "$pairs" "$answered" "$fl" "$sf" \
    "$fw" "$fr" "$fp" "$(echo "$fw / $fl" | bc -l)" "$(echo "$fr / $fl" | bc -l)" "$(echo "$fp / $fl" | bc -l)" \
    "$iw" "$ir" "$ip_" "$(echo "$iw / $fl" | bc -l)" "$(echo "$ir / $fl" | bc -l)" "$(echo "$ip_ / $fl" | bc -l)" \
    "$lf" "$lp"
done
done
echo
echo "wall: the whole command (JVM start, SSH connections, NIC facts, probe, diagnosis); in-run: the"
echo "report's duration_ms (from endpoint gathering to diagnosis); probe phase: the batched probe command"
echo "on every host over SSH (what the fping floor does, plus link, route and ARP readings)."
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
[ "${KEEP:-0}" = 1 ] || rocectl lab down --name "$LAB" >/dev/null
