# shellcheck shell=sh
# RDMA port health sample (HealthSample): "epoch SECONDS", then per port "port DEV N", its
# state, phys_state, rate, netdevs and "counter counters/NAME VALUE" / "counter hw_counters/NAME VALUE".
exec 2>/dev/null; export LC_ALL=C
echo "epoch $(date +%s)"
for p in /sys/class/infiniband/*/ports/*; do
  [ -d "$p" ] || continue
  d=${p%/ports/*}; d=${d##*/}
  echo "port $d ${p##*/}"
  for f in state phys_state rate; do [ -r "$p/$f" ] && echo "$f $(cat "$p/$f")"; done
  for n in "/sys/class/infiniband/$d"/device/net/*; do [ -e "$n" ] && echo "netdev ${n##*/}"; done
  for c in "$p"/counters/* "$p"/hw_counters/*; do
    [ -f "$c" ] || continue; v=$(cat "$c") || continue
    g=${c%/*}; echo "counter ${g##*/}/${c##*/} $v"
  done
done
true
