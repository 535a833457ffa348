# shellcheck shell=sh
# Commit-confirmed rollback timers (CommitConfirm). $1 is the action:
#   apply SECONDS TOKEN UNDO [LOOKUPS]
#                        arms the timer (UNDO, lines for "ip -force -batch", is the marker's
#                        content), then makes the change in the same command: stdin is the batch
#                        for "ip -batch -"; prints "PID MARKER" and exits as ip does (nothing runs
#                        when arming fails). The sleeper's $0 is rocectl-rollback (for ps);
#                        kill_sleeper() checks that its argv holds the marker's path, which holds
#                        the run's token. LOOKUPS (lines for
#                        "ip -j -batch": the SSH session's flow, see CommitConfirm.flowLookups) are
#                        run right before the change and, when it worked, right after it, each
#                        answer between a line @@rocectl-flows-before@@ (or -after@@) and a line
#                        @@rocectl-flows-end@@.
#   disarm TOKEN MARKER [FILE TEXT]
#                        prints disarmed (marker was there), fired (the rollback ran or runs),
#                        gone (another run removed it); with FILE, once disarmed, writes TEXT to
#                        FILE (mode 0644, by an atomic rename; world-readable text, so it may
#                        travel as an argument)
#   older list|disarm    for every timer of this network namespace: "disarmed TOKEN" (marker
#                        removed, sleeper killed; list only prints), "waited TOKEN" (it was firing,
#                        waited until done, at most 10 s), "firing TOKEN" (still running after that)
# Timers live in /run/rocectl/rollback-netINODE (else /tmp/rocectl/...), INODE the network
# namespace's: the rules a timer undoes live there. temp_beside (remote-file-temp.sh) comes before
# this text (the disarm's write).
# shellcheck disable=SC2154 # t and tb_chmod are set by temp_beside

# Kills the sleeper of marker $1, PID $2 (as the timer recorded it in $1.pid), if that PID still
# is the sleeper. (The marker's path holds the run's random token: only that sleeper has it in its
# argv.)
kill_sleeper() {
  case $2 in ''|*[!0-9]*) return 0;; esac
  # its argv, read by the shell (which drops the NUL bytes between the arguments: the path
  # is still in there whole)
  a=; IFS= read -r a < "/proc/$2/cmdline" 2>/dev/null || :
  case $a in *"$1"*)
    kids=; read -r kids < "/proc/$2/task/$2/children" 2>/dev/null || :
    for c in $kids; do kill "$c" 2>/dev/null || true; done
    kill "$2" 2>/dev/null || true
  esac
}

# The sleeper's PID as the timer of marker $1 recorded it, in $p (empty when there is none).
sleeper_pid() {
  p=; read -r p < "$1.pid" 2>/dev/null || :
}

# The network namespace's inode, from "net:[INODE]", in $n (empty when unreadable).
netns() {
  n=$(readlink /proc/self/ns/net 2>/dev/null) || n=
  n=${n#*\[}; n=${n%\]*}
  case $n in *[!0-9]*) n=;; esac
}

action=$1
shift
case $action in
apply)
  set -e
  case $2 in ''|*[!0-9a-f]*) echo "bad token '$2'" >&2; exit 2;; esac
  netns
  # /run/rocectl/rollback-netINODE when this user may write there (root: only root can make it
  # in /run; made here, both directories are mode 0700, and no program runs when it is there
  # already), else /tmp/rocectl/..., where anyone may have made /tmp/rocectl first: its chmod
  # fails unless it is this user's, and arming with it
  d=/run/rocectl
  if { [ -d "$d/rollback-net$n" ] && [ -w "$d/rollback-net$n" ]; } || (umask 077 && mkdir -p -- "$d/rollback-net$n") 2>/dev/null; then :
  else
    d=/tmp/rocectl
    # shellcheck disable=SC2174 # both directories are operands, so each one made gets the mode
    mkdir -p -m 700 -- "$d" "$d/rollback-net$n"; chmod 700 "$d"
  fi
  d="$d/rollback-net$n"
  f="$d/rollback.$2"
  # the undo is the marker's content; a marker that is there already is not this run's
  set -C
  printf '%s\n' "$3" > "$f"
  set +C
  ipbin=$(command -v ip)
  # A session of its own keeps the sleeper out of a terminal's process group (a terminal's signals;
  # sudo's use_pty, which ends the command's process group with it). The command of an SSH session
  # without a terminal, not under sudo, is in a session sshd made for it, which no terminal and no
  # process group signal reaches: there the sleeper needs no setsid (one program less).
  s=
  if [ -z "${SSH_CONNECTION:-}" ] || [ -n "${SUDO_COMMAND:-}" ] || (: </dev/tty) 2>/dev/null; then
    command -v setsid >/dev/null 2>&1 && s=setsid
  fi
  # The sleeper carries neither this command's kill tag (RemoteKill's ROCECTL_CMD) nor the shared
  # shell's (ROCECTL_SHELL): when the change times out, its processes and that shell are killed by
  # them, and the timer must live on to undo the change.
  # It ignores SIGHUP, and so do the programs it starts. It does not keep descriptor 9, where the
  # shared shell holds the host lock (HostLock): the lock ends with the change, not the timer.
  # shellcheck disable=SC2016 # $1.. of the sleeper's own sh
  (unset ROCECTL_CMD ROCECTL_SHELL; trap "" HUP; exec $s sh -c 'sleep "$1"; if mv "$2" "$2.firing" 2>/dev/null; then "$3" -force -batch "$2.firing" > "$2.log" 2>&1; mv -f "$2.firing" "$2.done"; fi; rm -f "$2.pid"' rocectl-rollback "$1" "$f" "$ipbin" 9<&-) </dev/null >/dev/null 2>&1 &
  echo "$!" > "$f.pid"
  echo "$! $f"
  # the lookups go to ip as a here-document (the shell writes it: no process for a pipe)
  if [ -n "${4:-}" ]; then
    echo @@rocectl-flows-before@@
    "$ipbin" -j -force -batch - 2>/dev/null <<EOF || :
$4
EOF
    printf '\n%s\n' @@rocectl-flows-end@@
  fi
  rc=0
  "$ipbin" -batch - || rc=$?
  if [ -n "${4:-}" ] && [ "$rc" = 0 ]; then
    echo @@rocectl-flows-after@@
    "$ipbin" -j -force -batch - 2>/dev/null <<EOF || :
$4
EOF
    printf '\n%s\n' @@rocectl-flows-end@@
  fi
  exit "$rc"
  ;;
disarm)
  case $1 in ''|*[!0-9a-f]*) echo "bad token '$1'" >&2; exit 2;; esac
  [ "${2##*/}" = "rollback.$1" ] || { echo "$2 is not the marker of token $1" >&2; exit 2; }
  # One rm for the marker and its PID file. It fails when the marker is not there (the timer
  # fired, or another run took it); the PID file goes all the same, as a timer that fires removes
  # it itself. (An armed timer has both: apply writes the PID file before it reports the timer.)
  sleeper_pid "$2"
  if rm -- "$2" "$2.pid" 2>/dev/null; then echo disarmed; kill_sleeper "$2" "$p"
  elif [ -e "$2.firing" ] || [ -e "$2.done" ]; then echo fired; exit 0
  else echo gone; exit 0; fi
  [ -n "${3:-}" ] || exit 0
  temp_beside "$3" 0644 || { echo "cannot write $3" >&2; exit 1; }
  if printf '%s' "${4:-}" > "$t" && { [ -z "$tb_chmod" ] || chmod "$tb_chmod" "$t"; } && mv -f -- "$t" "$3"; then :
  else rm -f -- "$t"; echo "cannot write $3" >&2; exit 1; fi
  ;;
older)
  netns
  for d in "/run/rocectl/rollback-net$n" "/tmp/rocectl/rollback-net$n"; do
    [ -d "$d" ] || continue
    for m in "$d"/rollback.*; do
      b=${m##*/}
      case $b in rollback.*.*|'rollback.*') continue;; esac
      if [ "$1" = list ]; then echo "disarmed ${b#rollback.}"
      else
        sleeper_pid "$m"
        if rm -- "$m" 2>/dev/null; then echo "disarmed ${b#rollback.}"; kill_sleeper "$m" "$p"; rm -f -- "$m.pid"; fi
      fi
    done
    for m in "$d"/rollback.*.firing; do
      [ -e "$m" ] || continue
      t=${m##*/}; t=${t#rollback.}; t=${t%.firing}
      [ "$1" = list ] && { echo "firing $t"; continue; }
      i=0; while [ -e "$m" ] && [ $i -lt 100 ]; do sleep 0.1 2>/dev/null || sleep 1; i=$((i + 1)); done
      if [ -e "$m" ]; then echo "firing $t"; else echo "waited $t"; fi
    done
  done
  true
  ;;
*)
  echo "unknown action '$action'" >&2
  exit 2
  ;;
esac
