# shellcheck shell=sh
# roce_arp's change: $1 a file to write ($2 its content, mode 0644, by an atomic rename; nothing
# when $1 is empty), then the live values "PATH VALUE" on stdin written under /proc/sys, then a
# neighbour flush of each NIC named in $3...
set -e
if [ -n "$1" ]; then
  mkdir -p -- "${1%/*}"
  t=$(mktemp "$1.rocectl.XXXXXX")
  trap 'rm -f "$t"' EXIT
  printf '%s' "$2" > "$t"
  chmod 0644 "$t"
  mv -f -- "$t" "$1"
  trap - EXIT
fi
shift 2
while read -r p v; do printf '%s\n' "$v" > "/proc/sys/$p"; done
for d in "$@"; do ip -4 neigh flush dev "$d"; done
