# shellcheck shell=sh
# The RDMA NICs' PCI side (RdmaIrqModule), a fact snippet; $@ the NICs: per NIC "dev", "pci",
# "numa_node", "local_cpulist" and "msi_irqs" (its MSI-X vectors, space-separated).
for d in "$@"; do p=/sys/class/net/$d/device; [ -e "$p" ] || continue
  echo "dev $d"; echo "pci $(basename "$(readlink -f "$p")")"
  echo "numa_node $(cat "$p/numa_node")"; echo "local_cpulist $(cat "$p/local_cpulist")"
  m=; for i in "$p"/msi_irqs/*; do [ -e "$i" ] && m="$m${i##*/} "; done
  echo "msi_irqs $m"
done
