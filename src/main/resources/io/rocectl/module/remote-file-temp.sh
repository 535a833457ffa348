# shellcheck shell=sh
# temp_beside PATH MODE: makes PATH's directory when missing and an empty temporary file beside
# PATH, named in $t. In a directory without the sticky bit it is created by the shell with
# noclobber and then checked to be a new regular file; in a sticky one (/tmp: others may have
# made that name already) and whenever that fails, by mktemp. A MODE [0]UGO with U 2 or 6 (the
# owner may write the content in) and G, O each 0, 2, 4 or 6 is given to the file by the umask as
# it is created (tb_chmod empty: no chmod needed); any other MODE starts at 0600
# and tb_chmod is that MODE, for the caller's chmod once the content is in. Returns 1 on failure.
# No process in the usual case: only a missing directory (mkdir) or a name taken (mktemp) start one.
# Leaves the umask at 077. tb_chmod is for the caller.
# shellcheck disable=SC2034
temp_beside() {
  case $1 in */*) tb_d=${1%/*};; *) tb_d=.;; esac
  [ -n "$tb_d" ] || tb_d=/
  [ -d "$tb_d" ] || mkdir -p -- "$tb_d" || return 1
  tb_chmod=$2
  case $2 in
    [26][0246][0246]|0[26][0246][0246])
      tb_m=${2#0}; tb_u=${tb_m%??}; tb_g=${tb_m#?}; tb_g=${tb_g%?}; tb_o=${tb_m#??}
      umask "0$((6 - tb_u))$((6 - tb_g))$((6 - tb_o))"; tb_chmod= ;;
    *) umask 077 ;;
  esac
  tb_n=$((${tb_n:-0} + 1))
  t="$1.rocectl.$$.$tb_n"
  tb_ok=
  if [ ! -k "$tb_d" ] && [ ! -e "$t" ] && [ ! -h "$t" ]; then
    set -C
    # true, not ":": a failed redirection of a special builtin would end the shell
    if true > "$t" 2>/dev/null && [ -f "$t" ] && [ ! -h "$t" ]; then tb_ok=1; fi
    set +C
  fi
  umask 077
  [ -n "$tb_ok" ] && return 0
  tb_chmod=$2
  t=$(mktemp "$1.rocectl.XXXXXX")
}
