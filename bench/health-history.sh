#!/bin/sh
# Times `rocectl health` on a lab with a full health history against none (issue 27: the history
# must not slow health down). Needs root.
# Usage: bench/health-history.sh [CLASSPATH] [HOSTSxNICS] [RUNS]
#   CLASSPATH: target/rocectl.jar (mvn -q -o package -DskipTests), or target/classes:DEPS
#   default 32x4, 5 runs of each, alternating; NAME (env) is the lab's name (default healthben).
# "full": every host's history file at its bound of 256 entries per port, stamped within the last
# 6 hours, every entry different (CNP counters moving, so none is dropped as a quiet repeat; the
# worst case), written before each run; "none": no history file (deleted before each run). The
# previous sample is kept in both, so both runs compute deltas. Prints wall seconds and the JVM's
# CPU seconds (user+sys) of each run, then the medians.
set -eu
CP=${1:-target/rocectl.jar}
SIZE=${2:-32x4}
RUNS=${3:-5}
NAME=${NAME:-healthben}
MGMT=${MGMT:-10.246.0.0/16}
h=${SIZE%x*}; k=${SIZE#*x}
rocectl() { java -cp "$CP" io.rocectl.cli.Main "$@"; }
state=$(mktemp -d /tmp/health-history-bench.XXXXXX)
trap 'rocectl lab down --name "$NAME" >/dev/null 2>&1 || true; rm -rf "$state"' EXIT
rocectl lab down --name "$NAME" >/dev/null
rocectl lab up --name "$NAME" --hosts "$h" --nics "$k" --mgmt-subnet "$MGMT" >/dev/null
inv=/run/rocectl-lab/$NAME/inventory.ini
rocectl health -i "$inv" --state-dir "$state" >/dev/null   # the previous sample of every host

full() {
  now=$(date +%s)
  grep -o '^gpu[0-9]*' "$inv" | sort -u | while read -r host; do
    awk -v now="$now" -v nics="$k" 'BEGIN {
      print "# rocectl health history 1"
      for (n = 0; n < nics; n++) for (i = 0; i < 256; i++)
        printf "%d mlx5_%d/1 1 0 ld=0 se=0 re=0 lr=0 li=0 cs=%d ch=0 ce=%d\n", now - 21000 + i * 82, n, i * 1000, i * 1000
    }' > "$state/$host.history"
  done
}

one() {  # $1 = full|none: prints "wall cpu"
  if [ "$1" = full ]; then full; else rm -f "$state"/*.history; fi
  t0=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$state/time" java -cp "$CP" io.rocectl.cli.Main health -i "$inv" --state-dir "$state" \
    >/dev/null 2>"$state/err" || { echo "health failed ($1):" >&2; cat "$state/err" >&2; exit 2; }
  t1=$(date +%s.%N)
  read -r u s < "$state/time"
  echo "$(echo "$t1 - $t0" | bc) $(echo "$u + $s" | bc)"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

printf '%-5s %4s %8s %8s\n' hist run wall_s cpu_s
: > "$state/full.txt"; : > "$state/none.txt"
for r in $(seq 1 "$RUNS"); do
  for mode in none full; do
    read -r wall cpu <<EOF2
$(one "$mode")
EOF2
    set -- "$wall" "$cpu"
    printf '%-5s %4d %8.2f %8.2f\n' "$mode" "$r" "$1" "$2"
    echo "$1 $2" >> "$state/$mode.txt"
  done
done
for mode in none full; do
  printf 'median %-5s wall %.2f s, cpu %.2f s\n' "$mode" "$(cut -d' ' -f1 "$state/$mode.txt" | median)" \
    "$(cut -d' ' -f2 "$state/$mode.txt" | median)"
done
echo "history bytes per host (full): $(wc -c < "$(find "$state" -name '*.history' | sort | head -1)")"
