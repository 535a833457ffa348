#!/usr/bin/env bash
# bench/adhoc-ssh.sh: one ad-hoc command on every host of a lab, rocectl next to pdsh and clush,
# interleaved, with the CPU each side used (issue 28: "at most 0.5x pdsh's time").
#
# Usage (root, from anywhere):  bench/adhoc-ssh.sh
#
# What it does
#   1. builds the jar if needed (./rocectl --version), brings up a lab of $ADHOC_HOSTS hosts x
#      $ADHOC_NICS NICs named $ADHOC_NAME (or uses the running lab $ADHOC_LAB and leaves it up);
#   2. checks once (untimed) that each tool reaches every host and prints `uname -r`;
#   3. runs $ADHOC_RUNS rounds; each round runs the three commands once, in an order that rotates
#      from round to round (so none always runs first or last):
#        ./rocectl shell -i INV -- uname -r
#        pdsh -R ssh -l root -f 64 -w IPS uname -r          (ssh options via PDSH_SSH_ARGS_APPEND)
#        clush -f 64 -b -l root -o SSHOPTS -w IPS uname -r
#      and records per run: wall time; the client's CPU (user + system of the command and the
#      children it waited for: pdsh's and clush's ssh processes, rocectl's JVM); the servers' CPU
#      (user + system of the lab's sshd processes and what they ran, from the listeners' counters
#      of reaped children, read once every session process has ended);
#   4. prints a Markdown table of the medians, the median of the per-round ratios rocectl/pdsh,
#      and the load average before and after; takes its own lab down.
#
# Environment knobs (defaults):
#   ADHOC_NAME=adhocssh ADHOC_HOSTS=32 ADHOC_NICS=4 ADHOC_RUNS=7 ADHOC_FORKS=64
#   ADHOC_SUBNET=172.27.0.0/16 ADHOC_MGMT=10.244.0.0/16
#   ADHOC_LAB=NAME     use this running lab instead (not taken down)
#   ADHOC_ROCECTL=CMD  the rocectl command (default ./rocectl), e.g. to run a class path
# Needs: root, Java 17 + Maven (first build), pdsh, clustershell (Debian packages).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

NAME=${ADHOC_LAB:-${ADHOC_NAME:-adhocssh}}
HOSTS=${ADHOC_HOSTS:-32}
NICS=${ADHOC_NICS:-4}
RUNS=${ADHOC_RUNS:-7}
FORKS=${ADHOC_FORKS:-64}
SUBNET=${ADHOC_SUBNET:-172.27.0.0/16}
MGMT=${ADHOC_MGMT:-10.244.0.0/16}
ROCECTL=${ADHOC_ROCECTL:-./rocectl}

[ "$(id -u)" = 0 ] || { echo "adhoc-ssh.sh: needs root (the lab uses network namespaces)" >&2; exit 1; }
for tool in java pdsh clush ssh; do
  command -v "$tool" >/dev/null || { echo "adhoc-ssh.sh: $tool not found (apt-get install -y pdsh clustershell)" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "adhoc-ssh.sh: /usr/bin/time not found (apt-get install -y time)" >&2; exit 1; }

WORK=$(mktemp -d /tmp/adhocssh.XXXXXX)
LAB_UP=0
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ "$LAB_UP" = 1 ]; then
    ./rocectl lab down --name "$NAME" >/dev/null 2>&1 || echo "adhoc-ssh.sh: lab down failed; run ./rocectl lab down --name $NAME" >&2
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say() { printf '%s\n' "$*" >&2; }

say "== build"
./rocectl --version >/dev/null

LAB=/run/rocectl-lab/$NAME
if [ -z "${ADHOC_LAB:-}" ]; then
  say "== lab up: $NAME, $HOSTS hosts x $NICS NICs"
  ./rocectl lab down --name "$NAME" >/dev/null 2>&1 || true
  LAB_UP=1
  ./rocectl lab up --name "$NAME" --hosts "$HOSTS" --nics "$NICS" --subnet "$SUBNET" --mgmt-subnet "$MGMT" >"$WORK/lab-up.log" \
    || { cat "$WORK/lab-up.log" >&2; exit 1; }
fi
INV=$LAB/inventory.ini
[ -f "$INV" ] || { echo "adhoc-ssh.sh: no lab $NAME ($INV missing)" >&2; exit 1; }
IPS=$(grep -o 'ansible_host=[0-9.]*' "$INV" | cut -d= -f2 | paste -sd, -)
HOSTS=$(tr ',' '\n' <<<"$IPS" | grep -c .)
[ "$HOSTS" -gt 0 ] || { echo "adhoc-ssh.sh: $INV lists no hosts" >&2; exit 1; }
SSHOPTS="-i $LAB/id_ed25519 -o UserKnownHostsFile=$LAB/known_hosts -o StrictHostKeyChecking=yes -o BatchMode=yes"
export PDSH_SSH_ARGS_APPEND="$SSHOPTS"

# The lab's sshd listeners (one per host, by their config path); their counters of reaped
# children's CPU grow by what each login cost on the server side.
mapfile -t LISTENERS < <(pgrep -f "^sshd: /usr/sbin/sshd -D -f $LAB/hosts/" || true)
[ "${#LISTENERS[@]}" = "$HOSTS" ] || { echo "adhoc-ssh.sh: found ${#LISTENERS[@]} sshd listeners of $NAME, expected $HOSTS" >&2; exit 1; }
TCK=$(getconf CLK_TCK)
sshd_cpu_ms() { # user + system of the listeners and their reaped children, in ms
  local p f t=0
  for p in "${LISTENERS[@]}"; do
    f=$(sed 's/^.*) //' "/proc/$p/stat")
    # shellcheck disable=SC2086
    set -- $f
    t=$((t + ${12} + ${13} + ${14} + ${15}))
  done
  echo $((t * 1000 / TCK))
}
sessions_gone() { # waits (at most 20 s) until no listener has a child left: every session reaped
  local p deadline=$((SECONDS + 20))
  while [ $SECONDS -lt $deadline ]; do
    for p in "${LISTENERS[@]}"; do
      if pgrep -P "$p" >/dev/null; then continue 2; fi
    done
    return 0
  done
  say "adhoc-ssh.sh: sshd sessions still running after 20 s"; return 1
}

KVER=$(uname -r)
C_ROCECTL="$ROCECTL shell -i $INV -- uname -r"
C_PDSH="pdsh -R ssh -l root -f $FORKS -w $IPS uname -r"
C_CLUSH="clush -f $FORKS -b -l root -o '$SSHOPTS' -w $IPS uname -r"
V_ROCECTL="grep -q '($HOSTS)' $WORK/out && grep -q '$KVER' $WORK/out"
V_PDSH="[ \$(grep -c ': $KVER\$' $WORK/out) = $HOSTS ]"
V_CLUSH="grep -q '$KVER' $WORK/out && ! grep -qi 'exited with exit code' $WORK/out"
TOOLS=(rocectl pdsh clush)
declare -A CMD=([rocectl]="$C_ROCECTL" [pdsh]="$C_PDSH" [clush]="$C_CLUSH")
declare -A VERIFY=([rocectl]="$V_ROCECTL" [pdsh]="$V_PDSH" [clush]="$V_CLUSH")

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
say "== checks (untimed), load average $LOAD0"
for t in "${TOOLS[@]}"; do
  bash -c "${CMD[$t]}" >"$WORK/out" 2>&1 || { say "adhoc-ssh.sh: $t failed: ${CMD[$t]}"; tail -20 "$WORK/out" >&2; exit 1; }
  bash -c "${VERIFY[$t]}" || { say "adhoc-ssh.sh: $t: unexpected output"; tail -20 "$WORK/out" >&2; exit 1; }
done
sessions_gone

declare -A WALL CPU SRV
for t in "${TOOLS[@]}"; do WALL[$t]=""; CPU[$t]=""; SRV[$t]=""; done
RATIOS=""
for ((r = 0; r < RUNS; r++)); do
  declare -A w=()
  for ((k = 0; k < ${#TOOLS[@]}; k++)); do
    t=${TOOLS[$(((k + r) % ${#TOOLS[@]}))]}
    s0=$(sshd_cpu_ms)
    /usr/bin/time -o "$WORK/time" -f "%e %U %S" bash -c "${CMD[$t]}" >"$WORK/out" 2>&1 \
      || { say "adhoc-ssh.sh: $t failed: ${CMD[$t]}"; tail -20 "$WORK/out" >&2; exit 1; }
    bash -c "${VERIFY[$t]}" || { say "adhoc-ssh.sh: $t: unexpected output"; tail -20 "$WORK/out" >&2; exit 1; }
    sessions_gone
    s1=$(sshd_cpu_ms)
    read -r e u s <"$WORK/time"
    w[$t]=$e
    WALL[$t]+="$e "
    CPU[$t]+="$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') "
    SRV[$t]+="$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.2f", (b - a) / 1000 }') "
  done
  RATIOS+="$(awk -v a="${w[rocectl]}" -v b="${w[pdsh]}" 'BEGIN { printf "%.2f", a / b }') "
  say "   round $((r + 1)): rocectl ${w[rocectl]} s, pdsh ${w[pdsh]} s, clush ${w[clush]} s"
done
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "One ad-hoc command on $HOSTS lab hosts, $RUNS interleaved rounds, medians ($(nproc) cores; load average"
echo "before $LOAD0, after $LOAD1; $(date -u +%Y-%m-%dT%H:%MZ), $(./rocectl --version | head -1))."
echo
echo "| tool | command | wall s | client CPU s | sshd-side CPU s | wall, every run |"
echo "|---|---|---:|---:|---:|---|"
for t in "${TOOLS[@]}"; do
  echo "| $t | \`${CMD[$t]}\` | $(median <<<"${WALL[$t]}") | $(median <<<"${CPU[$t]}") | $(median <<<"${SRV[$t]}") | ${WALL[$t]% } |" \
    | sed "s#$IPS#IPS#g; s#'$SSHOPTS'#'SSHOPTS'#g; s#$INV#INV#g"
done
echo
echo "rocectl / pdsh, median of the per-round ratios: $(median <<<"$RATIOS") (rounds: ${RATIOS% })"
echo "INV = $INV; IPS = the $HOSTS management addresses; SSHOPTS = PDSH_SSH_ARGS_APPEND = $SSHOPTS"
