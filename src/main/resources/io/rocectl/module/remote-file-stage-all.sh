# shellcheck shell=sh
# Stages every change of RemoteFile.replaceAll in one command, then leaves the commit triples in
# "$@" for remote-file-commit.sh, which follows this text in the same script. Arguments are
# quadruples KIND PATH ARG LENGTH:
#   put PATH MODE LENGTH   LENGTH bytes of content follow on stdin, in argument order
#   text PATH MODE CONTENT the content itself (text without NUL), written by printf: no process
#   link PATH TARGET -     a symbolic link to TARGET (one line without tabs)
#   del PATH - -           PATH is removed
# Each put's bytes are read with dd, exactly LENGTH of them and nothing past them, into a
# temporary file beside PATH; a link is made beside PATH by ln -s, which takes only a free name,
# or, when nothing is at PATH, by the commit at PATH itself (the triple "ln PATH TARGET").
# The first failure removes every temporary and exits 1: no file changed. (Paths are one line
# without tabs: RemoteFile.Change checks it.)
# temp_beside (remote-file-temp.sh) comes before this text; it sets t and tb_chmod.
# shellcheck disable=SC2154
nl='
'
LC_ALL=C; export LC_ALL
temps=
drop_temps() { printf '%s' "$temps" | while IFS= read -r x; do rm -f -- "$x"; done; }
copy() { # $1 length, $2 file (empty): exactly $1 bytes of stdin into $2, as dd reports ("N+0 records in")
  big=$(($1 / 65536)) rest=$(($1 % 65536))
  if [ "$big" -gt 0 ]; then
    r=$(dd bs=65536 count="$big" iflag=fullblock of="$2" oflag=append conv=notrunc 2>&1) || return 1
    case $r in "$big+0 records in"*) ;; *) return 1;; esac
  fi
  if [ "$rest" -gt 0 ]; then
    r=$(dd bs="$rest" count=1 iflag=fullblock of="$2" oflag=append conv=notrunc 2>&1) || return 1
    case $r in "1+0 records in"*) ;; *) return 1;; esac
  fi
  return 0
}
# Each quadruple is taken off the front of "$@" and its triple put at the end, so that "$@" holds
# just the triples once every quadruple is done (no list to read back: the shell's read takes one
# byte per system call).
[ $(($# % 4)) = 0 ] || { echo "remote-file-stage-all: arguments come in fours, got $#" >&2; exit 2; }
q=$(($# / 4))
while [ "$q" -gt 0 ]; do
  q=$((q - 1))
  k=$1 p=$2 a=$3 n=$4
  shift 4
  if [ "$k" = del ]; then set -- "$@" del "$p" -; continue; fi
  fail='' t=''
  if [ -d "$p" ] && [ ! -L "$p" ]; then fail="$p is a directory"
  elif [ "$k" = link ]; then
    # ln -s makes the name only if nothing has it (it follows nothing): no file to reserve it first
    case $p in */*) ld=${p%/*};; *) ld=.;; esac
    [ -n "$ld" ] || ld=/
    fail="cannot make the link $p"
    if [ ! -e "$p" ] && [ ! -h "$p" ] && { [ -d "$ld" ] || mkdir -p -- "$ld"; }; then
      # nothing at PATH: the commit makes the link there itself (ln -s takes only a free name), so
      # it needs no temporary and no rename
      set -- "$@" ln "$p" "$a"
      continue
    fi
    if [ -d "$ld" ] || mkdir -p -- "$ld"; then
      for _ in 1 2 3 4 5; do # a name someone else holds: the next one
        tb_n=$((${tb_n:-0} + 1)); t="$p.rocectl.$$.$tb_n"
        [ -e "$t" ] || [ -h "$t" ] && continue
        ln -s -- "$a" "$t" && { fail=; temps="$temps$t$nl"; break; }
      done
    fi
  elif ! temp_beside "$p" "$a"; then fail="cannot make a temporary file beside $p"
  else
    temps="$temps$t$nl"
    if [ "$k" = text ]; then
      { printf '%s' "$n" > "$t" && { [ -z "$tb_chmod" ] || chmod "$tb_chmod" "$t"; }; } || fail="cannot write $p"
    else
      { copy "$n" "$t" && { [ -z "$tb_chmod" ] || chmod "$tb_chmod" "$t"; }; } || fail="cannot write $p"
    fi
  fi
  if [ -n "$fail" ]; then drop_temps; echo "$fail; no file changed" >&2; exit 1; fi
  set -- "$@" put "$p" "$t"
done
