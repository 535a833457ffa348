#!/bin/sh
# Control-node cost of a probe pass over the simulated cluster (no lab, no root): CPU seconds (the
# simulated hosts' own answering time subtracted), wall time, heap in use at its highest (garbage
# included), the largest heap left after a collection (the live set's peak), the live heap after
# the pass, for each shape. Each case runs in its own JVM capped at 1 GiB of heap (-Xmx1g), so a case that needed more
# would fail (XMX=512m for a tighter cap). Usage: bench/probe-sim.sh [HOSTSxNICS:PAIRSET ...]
#   default: 1024x8:rail 1024x8:all 4096x8:rail
set -eu
cd "$(dirname "$0")/.."
mvn -B -q -o test-compile
cp=target/probe-sim.classpath
mvn -B -q -o dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$cp" >/dev/null
cases=${*:-1024x8:rail 1024x8:all 4096x8:rail}
echo "| hosts x NICs | pair set | directed pairs | failed | control CPU s | sim hosts CPU s | wall s | heap in use, max MiB | heap after GC, max MiB | live heap after MiB | faults found |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for c in $cases; do
  shape=${c%%:*} ps=${c#*:}
  java "-Xmx${XMX:-1g}" -cp "target/classes:target/test-classes:$(cat "$cp")" io.rocectl.sim.ProbeSimBench "${shape%%x*}" "${shape#*x}" "$ps"
done
echo "heap cap -Xmx${XMX:-1g}; load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
