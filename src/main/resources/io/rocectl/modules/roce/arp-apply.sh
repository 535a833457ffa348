# shellcheck shell=sh
# roce_arp's change: $1 a file to write ($2 its content, mode 0644, by an atomic rename; nothing
# when $1 is empty), then the live values "PATH VALUE" on stdin written under /proc/sys, then a
# neighbour flush of each NIC named in $3...: one ip -batch for all of them when every name is
# plain (letters, digits, "_.@-": nothing ip's batch reader could split or unquote), else one ip each.
# temp_beside (remote-file-temp.sh) comes before this text; it sets t and tb_chmod.
# shellcheck disable=SC2154
set -e
if [ -n "$1" ]; then
  temp_beside "$1" 0644 || exit 1
  trap 'rm -f "$t"' EXIT
  printf '%s' "$2" > "$t"
  [ -z "$tb_chmod" ] || chmod "$tb_chmod" "$t"
  mv -f -- "$t" "$1"
  trap - EXIT
fi
shift 2
while read -r p v; do printf '%s\n' "$v" > "/proc/sys/$p"; done
plain=1
for d in "$@"; do case $d in ''|*[!A-Za-z0-9_.@-]*) plain=;; esac; done
if [ -n "$plain" ] && [ $# -gt 1 ]; then
  for d in "$@"; do printf 'neigh flush dev %s\n' "$d"; done | ip -4 -batch -
else
  for d in "$@"; do ip -4 neigh flush dev "$d"; done
fi
