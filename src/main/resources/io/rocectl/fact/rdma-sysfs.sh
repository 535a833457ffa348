# shellcheck shell=sh
# RDMA devices from sysfs (RdmaSysfs), a fact snippet: "net DEV NETDEV", "port DEV P LINKLAYER STATE",
# "gid DEV P IDX GID NDEV TYPE" lines.
for d in /sys/class/infiniband/*; do [ -d "$d" ] || continue; dev=${d##*/}
 for n in "$d"/device/net/*; do [ -e "$n" ] && echo "net $dev ${n##*/}"; done
 for p in "$d"/ports/*; do [ -d "$p" ] || continue; port=${p##*/}
  echo "port $dev $port $(cat "$p/link_layer" 2>/dev/null || echo -) $(cat "$p/state" 2>/dev/null)"
  for g in "$p"/gids/*; do [ -e "$g" ] || continue; i=${g##*/}; gid=$(cat "$g" 2>/dev/null) || continue
   case $gid in ''|0000:0000:0000:0000:0000:0000:0000:0000|fe80:0000:0000:0000:0000:0000:0000:0000) continue;; esac
   t=$(cat "$p/gid_attrs/types/$i" 2>/dev/null); nd=$(cat "$p/gid_attrs/ndevs/$i" 2>/dev/null)
   echo "gid $dev $port $i $gid ${nd:--} ${t:-unknown}"
  done
 done
done
