# rocectl cheap probe: link, route, ARP and ping for many (nic src dst) pairs of ONE host.
# Arguments: $1 pings per try, $2 retries, $3 parallel jobs, $4 ping timeout (ms),
#            $5 fping interval (ms), $6 layers (comma list of link,route,arp,ip), $7 fping: auto|no.
# Stdin: one pair per line "NIC SRC_IP DST_IP" (validated by rocectl; read as data only).
# Stdout: "H <arp_table_fulls> <nic>=<operstate>:<carrier>..." then one line per pair:
#         "P <nic> <src> <dst> <operstate>:<carrier> <route_dev> <route_table> <arp_macs> <sent>/<recv>"
#         ("-" = nothing answered, "na" = layer not probed or tool absent, "!" = command failed).
count=$1 retries=$2 par=$3 tmo=$4 ival=$5 layers=,$6, usefping=$7
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d 2>/dev/null) || { tmp=/tmp/rocectl-probe.$$; mkdir -m 700 "$tmp" || exit 3; }
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
has() { case $layers in *,$1,*) return 0 ;; esac; return 1; }
while read -r nic src dst; do
  [ -n "$dst" ] && printf '%s %s %s\n' "$nic" "$src" "$dst"
done > "$tmp/pairs"

link() {
  o=$(cat "/sys/class/net/$1/operstate" 2>/dev/null) || o=missing
  c=$(cat "/sys/class/net/$1/carrier" 2>/dev/null) || c=-
  printf '%s:%s' "$o" "$c"
}

tf=$(awk 'function h(x,  i,v){v=0;x=tolower(x);for(i=1;i<=length(x);i++)v=v*16+index("0123456789abcdef",substr(x,i,1))-1;return v}
  NR==1{for(i=1;i<=NF;i++)if($i=="table_fulls")c=i;next} c{s+=h($c)} END{printf "%d", s+0}' /proc/net/stat/arp_cache 2>/dev/null)
[ -n "$tf" ] || tf=-1
hl="H $tf"
for n in $(awk '{print $1}' "$tmp/pairs" | sort -u); do hl="$hl $n=$(link "$n")"; done
printf '%s\n' "$hl"

arpf=none
if has arp && command -v arping >/dev/null 2>&1; then
  if arping -V 2>&1 | grep -q iputils; then arpf=iputils; else arpf=habets; fi
fi
arp_once() {
  case $arpf in
    iputils) arping -c 2 -w 2 -I "$1" -s "$2" "$3" 2>/dev/null ;;
    habets) arping -c 2 -w 2 -i "$1" -S "$2" "$3" 2>/dev/null ;;
  esac | grep -oiE '([0-9a-f]{2}:){5}[0-9a-f]{2}' | tr 'A-F' 'a-f' | sort -u | paste -sd, -
}

# ping phase: fping batched per source address (with retries of the silent targets)
pingmode=na
if has ip; then
  pingmode=ping
  if [ "$usefping" = auto ] && command -v fping >/dev/null 2>&1; then pingmode=fping; fi
fi
fping_src() { # $1 source address: results "dst sent recv" to $tmp/f.$1
  awk -v s="$1" '$2==s{print $3}' "$tmp/pairs" | sort -u > "$tmp/t.$1"
  : > "$tmp/f.$1"
  try=0
  while [ -s "$tmp/t.$1" ] && [ "$try" -le "$retries" ]; do
    xargs fping -q -S "$1" -c "$count" -p 200 -i "$ival" -t "$tmo" < "$tmp/t.$1" 2> "$tmp/o.$1" > /dev/null
    sed -n 's|^\([0-9.]*\) *: xmt/rcv/%loss = \([0-9]*\)/\([0-9]*\)/.*|\1 \2 \3|p' "$tmp/o.$1" > "$tmp/r.$1"
    awk '$3>0' "$tmp/r.$1" >> "$tmp/f.$1"
    awk '$3==0{print $1}' "$tmp/r.$1" > "$tmp/t.$1"
    try=$((try + 1))
  done
  awk '$3==0' "$tmp/r.$1" >> "$tmp/f.$1" 2>/dev/null
}
if [ "$pingmode" = fping ]; then
  for s in $(awk '{print $2}' "$tmp/pairs" | sort -u); do fping_src "$s" & done
  wait
fi

probe() { # $1 nic $2 src $3 dst: prints the pair line
  l=na; dev=na; tbl=na; macs=na; res=na
  has link && l=$(link "$1")
  if has route; then
    r=$(ip route get "$3" from "$2" 2>/dev/null | head -n 1)
    if [ -n "$r" ]; then
      dev=$(printf '%s\n' "$r" | sed -n 's/.* dev \([^ ]*\).*/\1/p')
      tbl=$(printf '%s\n' "$r" | sed -n 's/.* table \([^ ]*\).*/\1/p')
      [ -n "$dev" ] || dev=-
      [ -n "$tbl" ] || tbl=main
    else
      dev='!'; tbl='!'
    fi
  fi
  if [ "$arpf" != none ]; then
    try=0; macs=
    while [ -z "$macs" ] && [ "$try" -le "$retries" ]; do macs=$(arp_once "$1" "$2" "$3"); try=$((try + 1)); done
    [ -n "$macs" ] || macs=-
  fi
  case $pingmode in
    fping) res=$(awk -v d="$3" '$1==d{print $2 "/" $3; exit}' "$tmp/f.$2") ; [ -n "$res" ] || res=0/0 ;;
    ping)
      try=0; sent=0; recv=0
      while [ "$recv" -eq 0 ] && [ "$try" -le "$retries" ]; do
        o=$(ping -n -q -I "$2" -c "$count" -W $(( (tmo + 999) / 1000 )) "$3" 2>/dev/null)
        s=$(printf '%s\n' "$o" | sed -n 's/^\([0-9]*\) packets transmitted, \([0-9]*\) .*/\1/p')
        g=$(printf '%s\n' "$o" | sed -n 's/^\([0-9]*\) packets transmitted, \([0-9]*\) .*/\2/p')
        sent=$((sent + ${s:-0})); recv=$((recv + ${g:-0})); try=$((try + 1))
      done
      res=$sent/$recv ;;
  esac
  printf 'P %s %s %s %s %s %s %s %s\n' "$1" "$2" "$3" "$l" "$dev" "$tbl" "$macs" "$res"
}

running=0
while read -r nic src dst; do
  probe "$nic" "$src" "$dst" &
  running=$((running + 1))
  if [ "$running" -ge "$par" ]; then wait; running=0; fi
done < "$tmp/pairs"
wait
