# shellcheck shell=sh
# RDMA devices from sysfs (RdmaSysfs), a fact snippet: "net DEV NETDEV", "port DEV P LINKLAYER STATE",
# "gid DEV P IDX GID NDEV TYPE" lines. Files are read with the shell's own read (a real port has
# up to 256 GID files: no process per file).
for d in /sys/class/infiniband/*; do [ -d "$d" ] || continue; dev=${d##*/}
 for n in "$d"/device/net/*; do [ -e "$n" ] && echo "net $dev ${n##*/}"; done
 for p in "$d"/ports/*; do [ -d "$p" ] || continue; port=${p##*/}
  ll=; st=; IFS= read -r ll 2>/dev/null < "$p/link_layer"; IFS= read -r st 2>/dev/null < "$p/state"
  echo "port $dev $port ${ll:--} $st"
  for g in "$p"/gids/*; do [ -e "$g" ] || continue; i=${g##*/}; gid=; IFS= read -r gid 2>/dev/null < "$g"
   case $gid in ''|0000:0000:0000:0000:0000:0000:0000:0000|fe80:0000:0000:0000:0000:0000:0000:0000) continue;; esac
   t=; nd=; IFS= read -r t 2>/dev/null < "$p/gid_attrs/types/$i"; IFS= read -r nd 2>/dev/null < "$p/gid_attrs/ndevs/$i"
   echo "gid $dev $port $i $gid ${nd:--} ${t:-unknown}"
  done
 done
done
