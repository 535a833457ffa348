#!/usr/bin/env bash
# bench/stress-suite.sh: runs the test suite several times under CPU load, each run from a fresh
# clone of the current HEAD, to find tests that pass on an idle machine only.
#
# Usage (from anywhere inside the checkout):
#   bench/stress-suite.sh [-n RUNS] [--tests PATTERN] [--load CPUS]
#     -n RUNS          how many runs, one after the other (default 5)
#     --tests PATTERN  only these test classes: passed to surefire as -Dtest=PATTERN
#                      (e.g. 'CommitConfirm*Test,SharedShellTest'), with `mvn test` instead of
#                      `mvn verify` (no packaging, no *IT tests)
#     --load CPUS      how many CPU burners run beside the suite (default 4; 0: no load)
#
# What it does
#   1. clones HEAD (committed work only: uncommitted changes are not tested, and it says so) into
#      a temp dir, a fresh clone per run;
#   2. starts the load: `stress-ng --cpu CPUS` (installed with apt-get when missing and this is
#      root), else CPUS busy shell loops; their PIDs are recorded;
#   3. runs `mvn -B -o verify` (or `mvn -B -o test -Dtest=PATTERN`) in each clone, with a random
#      ROCECTL_LAB_TAG of its own (the lab tests' names end in it: two copies of this script can
#      run at once, each the other's load), and prints one
#      line per run: PASS or FAIL, the test counts summed over surefire and failsafe, the duration,
#      and for a failed run the failing tests and its log;
#   4. stops the load by the recorded PIDs (also on Ctrl-C or any other exit), removes the clones
#      of passed runs, and prints a summary. Exit status: 0 when every run passed, 1 when one
#      failed, 2 for bad usage.
#
# Maven runs offline (-o): the dependencies must be in ~/.m2 already (one `mvn -B verify` does it).
# MVN (default mvn) names another Maven.
set -euo pipefail

runs=5
tests=""
load=4
usage() {
  echo "usage: bench/stress-suite.sh [-n RUNS] [--tests PATTERN] [--load CPUS]" >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    -n) [ $# -ge 2 ] || usage; runs="$2"; shift 2 ;;
    --tests) [ $# -ge 2 ] || usage; tests="$2"; shift 2 ;;
    --load) [ $# -ge 2 ] || usage; load="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "stress-suite: unknown argument '$1'" >&2; usage ;;
  esac
done
case "$runs" in ''|*[!0-9]*|0) echo "stress-suite: -n wants a positive number, got '$runs'" >&2; exit 2 ;; esac
case "$load" in ''|*[!0-9]*) echo "stress-suite: --load wants a number of CPUs, got '$load'" >&2; exit 2 ;; esac
case "$tests" in *[!A-Za-z0-9_.,*#+!-]*) echo "stress-suite: --tests '$tests' is not a surefire test pattern" >&2; exit 2 ;; esac

src="$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)"
head="$(git -C "$src" rev-parse HEAD)"
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
  echo "stress-suite: note: uncommitted changes in $src are not tested (HEAD ${head:0:12} is)" >&2
fi
mvn="${MVN:-mvn}"
work="$(mktemp -d "${TMPDIR:-/tmp}/rocectl-stress.XXXXXX")"
load_pids=()
failed_runs=0

stop_load() {
  local p
  for p in "${load_pids[@]}"; do
    kill -TERM "$p" 2>/dev/null || true
  done
  for p in "${load_pids[@]}"; do
    wait "$p" 2>/dev/null || true
  done
  load_pids=()
}
finish() {
  stop_load
  if [ "$failed_runs" -eq 0 ]; then rm -rf "$work"; fi
}
trap finish EXIT
trap 'exit 130' INT TERM

start_load() {
  [ "$load" -gt 0 ] || { echo "load: none"; return; }
  if ! command -v stress-ng >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "load: installing stress-ng"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng >/dev/null 2>&1; } \
      || true
  fi
  if command -v stress-ng >/dev/null 2>&1; then
    stress-ng --cpu "$load" --quiet >/dev/null 2>&1 &
    load_pids+=("$!")
    echo "load: stress-ng --cpu $load (PID $!)"
  else
    local i
    for ((i = 0; i < load; i++)); do
      ( while :; do :; done ) &
      load_pids+=("$!")
    done
    echo "load: no stress-ng; $load busy shell loops (PIDs ${load_pids[*]})"
  fi
}

# "RUN TESTS FAILURES ERRORS SKIPPED" summed over the summary lines of surefire and failsafe
counts() {
  awk '/^\[(INFO|WARNING|ERROR)\] Tests run: [0-9]+, Failures: [0-9]+, Errors: [0-9]+, Skipped: [0-9]+$/ {
         gsub(/,/, ""); t += $4; f += $6; e += $8; s += $10 }
       END { printf "%d %d %d %d\n", t, f, e, s }' "$1"
}

echo "stress-suite: $runs run(s) of ${tests:-the whole suite} at ${head:0:12}, logs in $work"
start_load
for ((i = 1; i <= runs; i++)); do
  clone="$work/run$i"
  git clone -q --no-checkout "$src" "$clone"
  git -C "$clone" checkout -q --detach "$head"
  if [ -n "$tests" ]; then
    goal=(test "-Dtest=$tests" -Dsurefire.failIfNoSpecifiedTests=false)
  else
    goal=(verify)
  fi
  start=$SECONDS
  rc=0
  # a lab tag of this run's own: another suite running at once (a second copy of this script, a
  # developer's mvn) never shares a lab name, namespace or lab directory with it
  tag="$(LC_ALL=C tr -dc 'a-z0-9' </dev/urandom | head -c 2 || true)"
  (cd "$clone" && ROCECTL_LAB_TAG="$tag" "$mvn" -B -o "${goal[@]}") >"$clone.log" 2>&1 || rc=$?
  secs=$((SECONDS - start))
  read -r t f e s < <(counts "$clone.log")
  if [ "$rc" -eq 0 ]; then
    verdict=PASS
    rm -rf "$clone"
  else
    verdict=FAIL
    failed_runs=$((failed_runs + 1))
  fi
  printf 'run %d/%d: %s  tests %d, failures %d, errors %d, skipped %d  %dm%02ds\n' \
    "$i" "$runs" "$verdict" "$t" "$f" "$e" "$s" $((secs / 60)) $((secs % 60))
  if [ "$verdict" = FAIL ]; then
    grep -E '<<< (FAILURE|ERROR)!$' "$clone.log" | sed -E 's/^\[ERROR\] /    /; s/ -- Time elapsed.*//' | sort -u | head -20 || true
    [ "$t" -gt 0 ] || tail -5 "$clone.log" | sed 's/^/    /'
    echo "    log: $clone.log"
  fi
done
stop_load
if [ "$failed_runs" -eq 0 ]; then
  echo "stress-suite: all $runs run(s) passed"
else
  echo "stress-suite: $failed_runs of $runs run(s) failed; logs and clones in $work"
  exit 1
fi
