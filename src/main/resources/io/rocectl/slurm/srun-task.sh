# rocectl srun task: runs ONE script on every node of one srun step, each node with its own
# arguments and stdin, and frames its output so that rocectl can demultiplex it per node.
# $1 is the script to run (sh -c "$1" sh ARGS...). The node is $SLURMD_NODENAME.
# Stdin (the same for every task; srun broadcasts it), lines in this order:
#   "@@rocectl-arg@@ NODE VALUE"   one line per argument of NODE, in order
#   "@@rocectl-in@@ NODE" or "@@rocectl-in@@ *"   then the stdin lines of NODE (or of every node)
#   up to the next "@@rocectl-" line. Values and lines are data: read, never evaluated.
# Stdout: "@@rocectl-node@@ NODE" first, then every line of the script's output as chunks of at
#   most 512 bytes ("+CHUNK" when more of the line follows, "=CHUNK" for its last chunk: srun
#   cuts longer lines), then "@@rocectl-exit@@ RC" when the script has exited.
unset SSH_CONNECTION SSH_CLIENT SSH_TTY
LC_ALL=C
export LC_ALL
script=$1
printf '@@rocectl-node@@ %s\n' "${SLURMD_NODENAME:-}"
exec 4>&1
rc=$( { { awk '
BEGIN { p = "@@rocectl-"; me = ENVIRON["SLURMD_NODENAME"]; arg = p "arg@@ " me " "; done = 0; on = 0 }
index($0, p) == 1 {
  if (!done && index($0, arg) == 1) { print substr($0, length(arg) + 1); next }
  if ($0 == p "in@@ " me || $0 == p "in@@ *") { if (!done) { print p "end@@"; done = 1 }; on = 1; next }
  on = 0; next
}
on { print }
END { if (!done) print p "end@@" }' | {
    set --
    while IFS= read -r a; do
      [ "$a" = "@@rocectl-end@@" ] && break
      set -- "$@" "$a"
    done
    sh -c "$script" sh "$@"
  }; echo $? >&3; } | awk '
{ s = $0; while (length(s) > 512) { print "+" substr(s, 1, 512); s = substr(s, 513) }; print "=" s }' >&4; } 3>&1 )
printf '@@rocectl-exit@@ %s\n' "$rc"
