# rocectl: writes the endpoints file atomically. $1 = its path; the JSON comes on stdin (data,
# never part of this script). A temporary file beside it, mode 0644, then renamed over it.
set -eu
dir=${1%/*}
mkdir -p -- "$dir"
tmp="$dir/.rocectl-endpoints.$$"
trap 'rm -f -- "$tmp"' EXIT
umask 022
cat > "$tmp"
chmod 0644 -- "$tmp"
mv -f -- "$tmp" "$1"
trap - EXIT
