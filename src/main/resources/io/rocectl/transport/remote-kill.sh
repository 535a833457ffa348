# shellcheck shell=sh
# Kills every process on this host whose environment carries ROCECTL_CMD=$1 (the token of a
# command that timed out: RemoteKill), and with $2 also ROCECTL_SHELL=$2 (the shared shell that
# ran it and its subshells: SharedShell); prints the PIDs of each pass, at most 5 passes.
case $1 in ''|*[!0-9a-f]*) echo "bad token '$1'" >&2; exit 2;; esac
case ${2-0} in ''|*[!0-9a-f]*) echo "bad token '$2'" >&2; exit 2;; esac
c="ROCECTL_CMD=$1"; s=$c
[ -z "${2:-}" ] || s="ROCECTL_SHELL=$2"
i=0
while [ $i -lt 5 ]; do
  p=$(grep -l -s -F -e "$c" -e "$s" /proc/[0-9]*/environ 2>/dev/null | sed 's|^/proc/||; s|/environ$||')
  [ -n "$p" ] || exit 0
  # shellcheck disable=SC2086 # $p is a list of PIDs, one word each
  echo $p
  # shellcheck disable=SC2086
  kill -KILL $p 2>/dev/null
  i=$((i + 1))
done
