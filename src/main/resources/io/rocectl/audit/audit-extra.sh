# shellcheck shell=sh
# What rocectl audit reads besides the facts and the health sample (HostAudit), a fact snippet:
# "net IF KEY VALUE" for each netdev's device numa_node and PCIe link (current_link_speed,
# current_link_width), "ib DEV KEY VALUE" for each RDMA device's fw_ver and board_id, and
# "host memlock VALUE" (the shell's locked-memory soft limit, bytes or unlimited, from
# /proc/self/limits: ulimit -l is not POSIX), "host hugepages VALUE" (vm.nr_hugepages).
# Files are read with the shell's own read (no process per file); a missing file prints nothing.
for n in /sys/class/net/*; do [ -e "$n/device" ] || continue
 for f in numa_node current_link_speed current_link_width; do
  [ -r "$n/device/$f" ] || continue; v=; IFS= read -r v < "$n/device/$f" || [ -n "$v" ] || continue
  echo "net ${n##*/} $f $v"
 done
done
for d in /sys/class/infiniband/*; do [ -d "$d" ] || continue
 for f in fw_ver board_id; do
  [ -r "$d/$f" ] || continue; v=; IFS= read -r v < "$d/$f" || [ -n "$v" ] || continue
  echo "ib ${d##*/} $f $v"
 done
done
if [ -r /proc/self/limits ]; then
 while read -r a b c soft rest; do [ "$a $b $c" = "Max locked memory" ] && echo "host memlock $soft"; done < /proc/self/limits
fi
if [ -r /proc/sys/vm/nr_hugepages ]; then
 v=; IFS= read -r v < /proc/sys/vm/nr_hugepages || [ -n "$v" ] && echo "host hugepages $v"
fi
true
