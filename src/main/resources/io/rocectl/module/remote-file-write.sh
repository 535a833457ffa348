# shellcheck shell=sh
# RemoteFile.writeAtomic: $1 path, $2 mode; the content ($3 when given: text, written by printf
# with no process; else stdin) goes into a temporary beside the path (temp_beside,
# remote-file-temp.sh, comes before this text), then is renamed over the path.
# shellcheck disable=SC2154 # t and tb_chmod are set by temp_beside
set -e
temp_beside "$1" "$2"
trap 'rm -f "$t"' EXIT
if [ $# -ge 3 ]; then printf '%s' "$3" > "$t"; else cat > "$t"; fi
[ -z "$tb_chmod" ] || chmod "$tb_chmod" "$t"
mv -f -- "$t" "$1"
trap - EXIT
