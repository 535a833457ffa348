# shellcheck shell=sh
# roce_arp's change: $1 a file to write ($2 its content, mode 0644, by an atomic rename; nothing
# when $1 is empty), then the live values, lines "PATH VALUE" in $3, written under /proc/sys, then a
# neighbour flush of each NIC named in $4...: one ip -batch for all of them when every name is
# plain (letters, digits, "_.@-": nothing ip's batch reader could split or unquote), else one ip each.
# (Values come as arguments, not on stdin: the shell's read takes one byte per system call.)
# temp_beside (remote-file-temp.sh) comes before this text; it sets t and tb_chmod.
# shellcheck disable=SC2154
set -e
nl='
'
if [ -n "$1" ]; then
  temp_beside "$1" 0644 || exit 1
  trap 'rm -f "$t"' EXIT
  printf '%s' "$2" > "$t"
  [ -z "$tb_chmod" ] || chmod "$tb_chmod" "$t"
  mv -f -- "$t" "$1"
  trap - EXIT
fi
live=$3
shift 3
# one "PATH VALUE" per line (a path holds no blank: interface names cannot)
set -f; ifs=$IFS; IFS=$nl
for l in $live; do printf '%s\n' "${l#* }" > "/proc/sys/${l%% *}"; done
IFS=$ifs; set +f
plain=1
for d in "$@"; do case $d in ''|*[!A-Za-z0-9_.@-]*) plain=;; esac; done
if [ -n "$plain" ] && [ $# -gt 1 ]; then
  # the batch as a here-document, which the shell writes itself (a pipe would be a process)
  b=
  for d in "$@"; do b="${b}neigh flush dev $d$nl"; done
  ip -4 -batch - <<EOF
$b
EOF
else
  for d in "$@"; do ip -4 neigh flush dev "$d"; done
fi
