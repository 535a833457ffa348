# shellcheck shell=sh
# RDMA port health sample (HealthSample): "epoch SECONDS", then per port "port DEV N", its
# state, phys_state, rate, PCI function, netdevs and "counter counters/NAME VALUE" /
# "counter hw_counters/NAME VALUE" / "counter ethtool/NAME VALUE" (pause counters and the mlx5
# discard/buffer counters, when ethtool is installed), then "kmsg LINE" for the RDMA drivers' kernel messages newer than $1 (the previous
# sample's epoch, 0 for none), at most $2 of them ("roce" only as a word start: "processor" is not
# RoCE). Files are read with the shell's own read (a
# ConnectX port has ~60 counter files: no process per file). Then "ssh SSH_CONNECTION" and
# "addr IP_JSON" for the RoCE NIC selection.
exec 2>/dev/null; export LC_ALL=C
now=$(date +%s); echo "epoch $now"
et=$(command -v ethtool || { [ -x /usr/sbin/ethtool ] && echo /usr/sbin/ethtool; } || { [ -x /sbin/ethtool ] && echo /sbin/ethtool; })
for p in /sys/class/infiniband/*/ports/*; do
  [ -d "$p" ] || continue
  d=${p%/ports/*}; d=${d##*/}
  echo "port $d ${p##*/}"
  for f in state phys_state rate; do
    [ -r "$p/$f" ] || continue; v=; IFS= read -r v < "$p/$f"; echo "$f $v"
  done
  pci=$(readlink -f "/sys/class/infiniband/$d/device") && echo "pci ${pci##*/}"
  nd=
  for n in "/sys/class/infiniband/$d"/device/net/*; do [ -e "$n" ] && echo "netdev ${n##*/}" && nd=${nd:-${n##*/}}; done
  for c in "$p"/counters/* "$p"/hw_counters/*; do
    [ -f "$c" ] || continue; v=; IFS= read -r v < "$c" || [ -n "$v" ] || continue
    g=${c%/*}; echo "counter ${g##*/}/${c##*/} $v"
  done
  if [ -n "$et" ] && [ -n "$nd" ]; then
    "$et" -S "$nd" | while read -r k v; do
      case $k in
        *pause*:|rx_discards_phy:|tx_discards_phy:|rx_out_of_buffer:|rx_prio[0-7]_discards:|rx_buffer_passed_thres_phy:)
          echo "counter ethtool/${k%:} $v";;
      esac
    done
  fi
done
# which NIC is the management one and which are RoCE (HealthSelection): the SSH session's local
# address and every interface's addresses (ip -j prints one line; a newline would end the record)
echo "ssh ${SSH_CONNECTION:-}"
a=$(ip -j addr show) && printf 'addr %s\n' "$a" | tr -d '\n' && echo
up=$(cut -d' ' -f1 /proc/uptime) && boot=$((now - ${up%.*})) &&
dmesg | awk -v since="$1" -v boot="$boot" 'tolower($0) ~ /mlx5|mlx4|ib_core|infiniband|rdma|(^|[^a-z])roce|ib_uverbs|irdma|bnxt_re/ { if (match($0, /^\[ *[0-9]+\.[0-9]+\]/)) { t = substr($0, 2, RLENGTH - 2) + 0; if (boot + t <= since) next } print "kmsg " $0 }' | tail -n "$2"
true
