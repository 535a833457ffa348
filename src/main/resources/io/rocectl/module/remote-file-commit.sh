# shellcheck shell=sh
# Commits staged changes of RemoteFile.replaceAll, all or nothing: triples KIND PATH TEMP
# (KIND put or del, TEMP "-" for del; or "ln PATH TARGET": a new link made at PATH, which fails
# when something is there by now). Keeps a copy of each replaced file until all are in place; on
# the first failure puts every file back as it was and removes the temporaries.
tab='	'; nl='
'; done_=; temps=; fail=; olds=
i=0
while [ $# -ge 3 ]; do
  k=$1; p=$2; t=$3; shift 3; i=$((i + 1)); b=
  if [ "$k" = ln ]; then
    [ -z "$fail" ] || continue
    if ln -s -- "$t" "$p"; then done_="${done_}put$tab$p$tab$nl"; else fail="cannot make the link $p"; fi
    continue
  fi
  [ "$t" = - ] || temps="$temps$t$nl"
  [ -z "$fail" ] || continue
  if [ -e "$p" ] || [ -L "$p" ]; then
    b="$p.rocectl-old.$$.$i"
    if [ "$k" = del ]; then mv -f -- "$p" "$b" || { fail="cannot remove $p"; continue; }
    else ln -P -- "$p" "$b" 2>/dev/null || cp -pP -- "$p" "$b" || { fail="cannot keep a copy of $p"; continue; }
    fi
  fi
  if [ "$k" = put ]; then
    if [ -L "$p" ] && [ -d "$p" ]; then rm -f -- "$p"; fi
    if ! mv -f -- "$t" "$p"; then [ -z "$b" ] || rm -f -- "$b"; fail="cannot replace $p"; continue; fi
  fi
  done_="$done_$k$tab$p$tab$b$nl"
  [ -z "$b" ] || olds="$olds$b$nl"
done
if [ -n "$fail" ]; then
  printf '%s' "$done_" | while IFS="$tab" read -r k p b; do
    if [ -n "$b" ]; then mv -f -- "$b" "$p"; elif [ "$k" = put ]; then rm -f -- "$p"; fi
  done
  printf '%s' "$temps" | while IFS= read -r t; do rm -f -- "$t"; done
  echo "$fail: every file is back as it was" >&2
  exit 1
fi
# the copies kept of the files replaced, with one rm (names are one line each: no globbing, split
# at newlines only)
if [ -n "$olds" ]; then
  set -f; ifs=$IFS; IFS=$nl
  # shellcheck disable=SC2086 # split on purpose
  rm -f -- $olds
  IFS=$ifs; set +f
fi
