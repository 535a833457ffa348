#!/bin/sh
# Graph + schedule benchmark for 1,024 hosts x 8 NICs (issue 5): rail under -Xmx512m, all under -Xmx1g.
# Usage: bench/probe-graph.sh [HOSTS [NICS]]      (from the repository root; needs mvn offline cache)
set -eu
cd "$(dirname "$0")/.."
hosts=${1:-1024}
nics=${2:-8}
# GraphBench lives in the test sources (not shipped in the jar)
mvn -q -B -o -Dstyle.color=never test-compile
mvn -q -B -o -Dstyle.color=never dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=runtime
cp=target/test-classes:target/classes:$(cat target/bench.classpath)
for spec in rail:512m all:1g subnet:1g intra:512m; do
  set_=${spec%%:*}
  heap=${spec#*:}
  echo "== $set_ (-Xmx$heap)"
  java -Xmx"$heap" -cp "$cp" io.rocectl.probe.GraphBench "$set_" "$hosts" "$nics"
done
