# shellcheck shell=sh
# Stages one change of RemoteFile.replaceAll: $1 the path, $2 the mode (or the link target),
# $3 "file" (content on stdin) or "link". Prints the temporary file made beside $1.
set -e
if [ -d "$1" ] && [ ! -L "$1" ]; then echo "$1 is a directory" >&2; exit 1; fi
mkdir -p -- "$(dirname -- "$1")"
t=$(mktemp "$1.rocectl.XXXXXX")
if [ "$3" = link ]; then rm -f -- "$t"; ln -s -- "$2" "$t"; else cat > "$t"; chmod "$2" "$t"; fi
echo "$t"
