# rocectl cheap probe: link, route, ARP and ping for many (nic src dst) pairs of ONE host.
# The wire protocol (arguments, stdin, stdout) is docs/probe-protocol.md; its golden files are
# src/test/resources/probe-protocol/ (read by the script's test and the parser's test).
# Arguments: $1 pings per try, $2 retries, $3 parallel jobs, $4 ping timeout (ms),
#            $5 fping interval (ms), $6 layers (comma list of link,route,arp,ip), $7 fping: auto|no,
#            $8 arpings per source NIC at most, $9 this host's index (shifts the arping sample),
#            $10 mtu: on|off (a don't-fragment ping at the source NIC's MTU to each answered target).
# Stdin, either the compact form: a rule line "R <pair set>" and the endpoint table, one line per
#        NIC of the cluster "E <host index> <nic> <ip> <mac|-> <group> <focus 0|1>"; this host is
#        the one whose index is $9 and derives its own pairs: each of its NICs to every NIC of the
#        same group on another host (on this host for the rule intra), when either host has focus 1;
#        or explicit pairs, one per line "NIC SRC_IP DST_IP" (validated by rocectl; read as data
#        only), or a line "NIC" alone: no pair, only that NIC's state in the H and S lines.
# Stdout: "H <arp_table_fulls> <nic>=<operstate>:<carrier>..."
#         "S <nic>=<effective arp_ignore>..."  (max of all and the NIC; only when ARP is probed)
#         "A <arpings run> <pairs whose ping failed>"  (only when ARP is probed)
#         then one line per pair:
#         "P <nic> <src> <dst> <operstate>:<carrier> <route_dev> <route_table> <arp_macs> <sent>/<recv> <neigh>"
#         ("-" = nothing answered, "na" = layer not probed or tool absent, "!" = command failed;
#          neigh = the kernel's neighbour entry for dst on nic after the ping: MAC@STATE, -@STATE, or -;
#          a last field SIZE:ok|SIZE:0/SENT = the don't-fragment pings of SIZE payload bytes: one
#          answered, or none of SENT (over both tries), or na).
#         In the compact form a P line is printed only for a pair that is not clean (a clean pair:
#         source link up, route via its NIC, every ping answered on the first try, the neighbour
#         entry absent or the destination's own MAC, arping (if run) one MAC, its own, MTU ping not
#         lost), and per source NIC one count line "C <nic> <pairs judged> <clean> <pings per clean
#         pair, -1 when ping is not probed>": output O(NICs + pairs that are not clean).
# Cost is a handful of processes per host, not per pair, however many pairs fail: one fping per
# source address, one `ip -batch` for every route lookup, one neighbour-table read, one awk
# join, and arping for a bounded sample only: at most $8 of each source NIC's failed pairs
# (windows shifted by the host's index $9 and the NIC's, so over all hosts every destination
# is sampled). Every other pair's ARP is judged from the kernel's neighbour entry its ping left
# and the peers' arp_ignore. Only when ping is not probed does every pair get an arping.
count=$1 retries=$2 par=$3 tmo=$4 ival=$5 layers=,$6, usefping=$7 arpcap=${8:-4} seed=${9:-0} mtu=${10:-off}
LC_ALL=C
export LC_ALL
tmp=$(mktemp -d 2>/dev/null) || { tmp=/tmp/rocectl-probe.$$; mkdir -m 700 "$tmp" || exit 3; }
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
has() { case $layers in *,$1,*) return 0 ;; esac; return 1; }
# one pass over stdin: the pairs, route lookups, the NIC list, the source addresses, each
# source's targets
# (pairs file: "NIC SRC DST DST_MAC SAME_HOST DST_INDEX"; the last three are "-" for explicit
# pairs; in the compact form DST_INDEX is the destination's line in the endpoint table, and
# $tmp/own holds "SRC ITS_INDEX THIS_HOSTS_NIC_COUNT TABLE_LINES" for the ARP sample)
awk -v d="$tmp" -v self="$seed" '
  function pair(nic, src, dst, mac, same, di) {
    print nic, src, dst, mac, same, di > (d "/pairs")
    print "route get " dst " from " src > (d "/rb")
    if (!(nic in n)) { n[nic] = 1; print nic > (d "/nics") }
    if (!(src in s)) { s[src] = 1; print src > (d "/srcs"); print src, ns++ > (d "/sj"); print nic > (d "/nic." src) }
    if (!((src " " dst) in t)) { t[src " " dst] = 1; print dst > (d "/t." src) }
  }
  NF == 2 && $1 == "R" { rule = $2; next }
  NF == 7 && $1 == "E" { en++; eh[en] = $2; enic[en] = $3; eip[en] = $4; emac[en] = $5; eg[en] = $6; ef[en] = $7
    if ($2 == self) { own[++on] = en; if ($7) me = 1 }
    next }
  NF == 1 && !($1 in n) { n[$1] = 1; print $1 > (d "/nics") }
  NF == 3 { pair($1, $2, $3, "-", "-", "-") }
  END {
    if (rule == "") exit
    print rule > (d "/mode")
    for (a = 1; a <= on; a++) {
      i = own[a]
      if (!(enic[i] in n)) { n[enic[i]] = 1; print enic[i] > (d "/nics") }
      print eip[i], i, on, en > (d "/own")
      for (j = 1; j <= en; j++) {
        if (eg[j] != eg[i] || j == i || !(me || ef[j])) continue
        same = eh[j] == self
        if ((rule == "intra") != same) continue
        pair(enic[i], eip[i], eip[j], emac[j], same, j)
      }
    }
  }'
for f in pairs rb nics srcs sj own route neigh mode res.none arp.none arps.none mtu.none; do [ -f "$tmp/$f" ] || : > "$tmp/$f"; done
compact=
[ -s "$tmp/mode" ] && compact=1

# few processes per host, not per pair: values are read with the read builtin
rd() { # $1 file, $2 default: sets v to the file's first line
  v=
  { read -r v || :; } 2>/dev/null < "$1"
  [ -n "$v" ] || v=$2
}

# ping phase first (it takes longest), in the background: fping per source address retrying
# the silent targets, or bounded parallel ping per pair; results "src dst sent recv" in $tmp/res.*
pingmode=na
if has ip; then
  pingmode=ping
  if [ "$usefping" = auto ] && command -v fping >/dev/null 2>&1; then pingmode=fping; fi
fi
fping_src() { # $1 source address; targets in $tmp/t.$1
  : > "$tmp/res.$1"
  try=0
  while [ -s "$tmp/t.$1" ] && [ "$try" -le "$retries" ]; do
    try=$((try + 1))
    fping -q -S "$1" -c "$count" -p 200 -i "$ival" -t "$tmo" < "$tmp/t.$1" 2> "$tmp/o.$1" > /dev/null
    # answered targets are final; silent ones are retried, and final after the last try; with
    # MTU on, the answered ones are also the MTU pings' targets: those of the first try in
    # m.SRC.a, those first answered by a retry in m.SRC.b
    last=0
    [ "$try" -gt "$retries" ] && last=1
    mf=
    if [ "$mtu" = on ]; then
      if [ "$try" -eq 1 ]; then mf=$tmp/m.$1.a; else mf=$tmp/m.$1.b; fi
      [ -f "$mf" ] || : > "$mf"
    fi
    awk -v s="$1" -v last="$last" -v t="$tmp/t.$1" -v r="$tmp/res.$1" -v m="$mf" '
      BEGIN { printf "" > t }
      / xmt\/rcv\/%loss = / { split($5, x, "/"); sub(/,$/, "", x[2])
        if (x[2] + 0 > 0) { print s, $1, x[1] + 0, x[2] + 0 >> r; if (m != "") print $1 >> m }
        else if (last + 0) print s, $1, x[1] + 0, x[2] + 0 >> r
        else print $1 > t }' "$tmp/o.$1"
    # after the first try, while the silent targets are retried: the MTU pings of the answered
    # ones and the bounded arping sample of the silent ones run beside the retries
    if [ "$try" -eq 1 ]; then
      [ "$mtu" = on ] && { mtu_src "$1" a & }
      [ "$arpf" != none ] && arp_sample "$1"
    fi
  done
  # targets first answered by a retry get their MTU ping now
  [ "$mtu" = on ] && [ -s "$tmp/m.$1.b" ] && mtu_src "$1" b
  wait
}
ping_pair() { # $1 src $2 dst $3 result file
  try=0 sent=0 recv=0
  while [ "$recv" -eq 0 ] && [ "$try" -le "$retries" ]; do
    o=$(ping -n -q -I "$1" -c "$count" -W $(( (tmo + 999) / 1000 )) "$2" 2>/dev/null)
    s=$(printf '%s\n' "$o" | sed -n 's/^\([0-9]*\) packets transmitted, \([0-9]*\) .*/\1/p')
    g=$(printf '%s\n' "$o" | sed -n 's/^\([0-9]*\) packets transmitted, \([0-9]*\) .*/\2/p')
    sent=$((sent + ${s:-0})); recv=$((recv + ${g:-0})); try=$((try + 1))
  done
  printf '%s %s %s %s\n' "$1" "$2" "$sent" "$recv" > "$3"
}
# MTU (fping only): one don't-fragment fping per source address at its NIC's MTU to the targets
# that answered the ordinary ping ($tmp/m.$1.$2, one per line, written by fping_src), one echo
# each, the silent ones tried once more with three (one lost echo is no verdict: rocectl wants
# several); "src dst size recv sent" lines in $tmp/mtu.$1.$2, sent counted over both tries
mtu_src() { # $1 source address, $2 tag (a: answered the first try, b: a retry)
  rd "$tmp/nic.$1" ""; nic=$v
  rd "/sys/class/net/$nic/mtu" 0; size=$((v - 28))
  [ "$size" -gt 0 ] || return 0
  : > "$tmp/mtu.$1.$2"
  : > "$tmp/ms.$1.$2.0"
  mtry=0
  while [ -s "$tmp/m.$1.$2" ] && [ "$mtry" -le 1 ]; do
    mtry=$((mtry + 1))
    fping -q -M -b "$size" -S "$1" -c $((mtry * 2 - 1)) -p 200 -i "$ival" -t "$tmo" < "$tmp/m.$1.$2" 2> "$tmp/mo.$1.$2" > /dev/null
    awk -v s="$1" -v z="$size" -v last="$((mtry > 1))" -v m="$tmp/m.$1.$2" -v r="$tmp/mtu.$1.$2" \
        -v p="$tmp/ms.$1.$2.$((mtry - 1))" -v q="$tmp/ms.$1.$2.$mtry" '
      BEGIN { printf "" > m }
      FILENAME == p { before[$1] = $2; next }
      / xmt\/rcv\/%loss = / { split($5, x, "/"); sub(/,$/, "", x[2]); n = x[1] + before[$1]
        if (x[2] + 0 > 0 || last + 0) print s, $1, z, x[2] + 0, n >> r; else { print $1 > m; print $1, n > q } }' \
        "$tmp/ms.$1.$2.$((mtry - 1))" "$tmp/mo.$1.$2"
  done
}
# The ARP sample's window over one source's n failed pairs (awk; ix[0..n-1] their DST_INDEX
# fields): arpcap of them from the returned position on (cyclic). In the compact form, the first
# one at or after the source's own table line + this host's NIC count (from, cyclic): NIC j of
# host h takes NIC j of the next host, and the next ones, so over a cluster whose every pair failed
# each destination NIC is sampled arpcap times. For explicit pairs (from empty, DST_INDEX "-"),
# position ((seed * sources + j) * arpcap) mod n, j = the source's index.
# shellcheck disable=SC2016 # awk text
awin='function window(n, ix, from, j, sources,  i) {
    if (from != "" && ix[0] != "-") { for (i = 0; i < n; i++) if (ix[i] + 0 >= from) return i; return 0 }
    return ((seed * sources + j) * cap) % n
  }
  function from_of(idx, own, lines,  f) { f = idx + own; return f > lines ? f - lines : f }'
# ARP sample with fping, after its first try (the arpings run in the background of the caller,
# which waits for them): at most arpcap of the source's silent targets, the window above
arp_sample() { # $1 source address
  awk -v s="$1" -v cap="$arpcap" -v seed="$seed" -v nn="$nsrc" -v q="$tmp/arps.$1" "$awin"'
    FILENAME ~ /\/sj$/ { if ($1 == s) j = $2; next }
    FILENAME ~ /\/own$/ { if ($1 == s) from = from_of($2, $3, $4); next }
    FILENAME ~ /\/res\./ { if ($4 > 0) ok[$2] = 1; next }
    $2 == s && !($3 in ok) { ix[n + 0] = $6; l[n++] = $0 }
    END {
      if (n <= cap) { for (i = 0; i < n; i++) print l[i] > q; exit }
      off = window(n, ix, from, j, nn)
      for (i = 0; i < cap; i++) print l[(off + i) % n] > q
    }' "$tmp/sj" "$tmp/own" "$tmp/res.$1" "$tmp/pairs"
  [ -f "$tmp/arps.$1" ] || return 0
  k=0
  while read -r nic src dst _; do
    k=$((k + 1)); arp_pair "$nic" "$src" "$dst" "$tmp/arp.$1.$k" &
  done < "$tmp/arps.$1"
}
ping_all() {
  case $pingmode in
    fping)
      while read -r s; do fping_src "$s" & done < "$tmp/srcs"
      wait ;;
    ping)
      i=0 running=0
      while read -r nic src dst _; do
        i=$((i + 1)); ping_pair "$src" "$dst" "$tmp/res.p$i" &
        running=$((running + 1))
        if [ "$running" -ge "$par" ]; then wait; running=0; fi
      done < "$tmp/pairs"
      wait ;;
  esac
}
# arping flavour (iputils or Thomas Habets'), once per host
arpf=none
if has arp && command -v arping >/dev/null 2>&1; then
  case $(arping -V 2>&1) in *iputils*) arpf=iputils ;; *) arpf=habets ;; esac
fi
nsrc=0
while read -r _ _; do nsrc=$((nsrc + 1)); done < "$tmp/sj"
arp_pair() { # $1 nic $2 src $3 dst $4 result file: a "Q" line, then arping's raw output (one
  # process per try; the MACs are read in the join); a try with no answer is repeated, every
  # answer within the wait counts (flux answers come within microseconds)
  printf 'Q %s %s %s\n' "$1" "$2" "$3" > "$4"
  atry=0
  while [ "$atry" -le "$retries" ]; do
    atry=$((atry + 1))
    case $arpf in
      iputils) arping -c 2 -w 1 -I "$1" -s "$2" "$3" >> "$4" 2>/dev/null && return 0 ;;
      habets) arping -c 1 -W 0.5 -w 1 -i "$1" -S "$2" "$3" >> "$4" 2>/dev/null && return 0 ;;
    esac
  done
  return 0
}
ping_all &

tf=$(awk 'function h(x,  i,v){v=0;x=tolower(x);for(i=1;i<=length(x);i++)v=v*16+index("0123456789abcdef",substr(x,i,1))-1;return v}
  NR==1{for(i=1;i<=NF;i++)if($i=="table_fulls")c=i;next} c{s+=h($c)} END{printf "%d", s+0}' /proc/net/stat/arp_cache 2>/dev/null)
[ -n "$tf" ] || tf=-1
hl="H $tf" sl=S
rd /proc/sys/net/ipv4/conf/all/arp_ignore -1; all=$v
: > "$tmp/links"
while read -r n; do
  rd "/sys/class/net/$n/operstate" missing; o=$v
  rd "/sys/class/net/$n/carrier" -
  hl="$hl $n=$o:$v"
  printf '%s %s:%s\n' "$n" "$o" "$v" >> "$tmp/links"
  rd "/proc/sys/net/ipv4/conf/$n/arp_ignore" -1
  [ "$v" -ge 0 ] && [ "$all" -gt "$v" ] && v=$all
  sl="$sl $n=$v"
done < "$tmp/nics"
printf '%s\n' "$hl"
has arp && printf '%s\n' "$sl"

# route phase: every lookup in one ip -batch, in the background while the pings run
if has route; then
  ip -o -force -batch "$tmp/rb" > "$tmp/route" 2>/dev/null &
fi
wait

# ARP phase: the kernel's neighbour entries (what traffic really uses); with fping the bounded
# arping sample already ran beside the retries (arp_sample); otherwise arping now for a bounded
# sample of the pairs whose ping failed (every pair when ping is not probed): per source NIC j
# (in order of first appearance), arpcap of its failed pairs in the window above
if has arp; then
  ip -4 neigh show > "$tmp/neigh" 2>/dev/null
  awk -v pm="$pingmode" -v cap="$arpcap" -v seed="$seed" -v cnt="$tmp/arpn" "$awin"'
    FILENAME ~ /\/own$/ { from[$1] = from_of($2, $3, $4); next }
    FILENAME ~ /\/arps\./ { nq++; next }
    FILENAME ~ /\/res\./ { ok[$1 " " $2] = ($4 > 0); next }
    pm == "na" { print; nq++; nf++; next }
    !ok[$2 " " $3] { nf++; if (pm == "fping") next
      if (!($1 in len)) { ord[nn++] = $1; len[$1] = 0; src[$1] = $2 } q[$1, len[$1]] = $0; qi[$1, len[$1]++] = $6 }
    END {
      for (j = 0; j < nn; j++) {
        n = ord[j]; l = len[n]
        if (l <= cap) { for (i = 0; i < l; i++) { print q[n, i]; nq++ } ; continue }
        split("", ix); for (i = 0; i < l; i++) ix[i] = qi[n, i]
        off = window(l, ix, from[src[n]], j, nn)
        for (i = 0; i < cap; i++) { print q[n, (off + i) % l]; nq++ }
      }
      print nq + 0, nf + 0 > cnt
    }' "$tmp/own" "$tmp"/arps.* "$tmp"/res.* "$tmp/pairs" > "$tmp/arpq"
  an=0 nf=0
  { read -r an nf || :; } 2>/dev/null < "$tmp/arpn"
  [ "$arpf" = none ] && an=0
  printf 'A %s %s\n' "${an:-0}" "${nf:-0}"
fi
if [ "$arpf" != none ] && [ -s "$tmp/arpq" ]; then
  i=0 running=0
  while read -r nic src dst _; do
    i=$((i + 1)); arp_pair "$nic" "$src" "$dst" "$tmp/arp.$i" &
    running=$((running + 1))
    if [ "$running" -ge "$par" ]; then wait; running=0; fi
  done < "$tmp/arpq"
  wait
fi

# join: one P line per pair (files told apart by name; the empty .none files keep globs valid)
awk -v hl="$(has link && echo 1)" -v hr="$(has route && echo 1)" -v ha="$(has arp && echo 1)" \
    -v pm="$pingmode" -v af="$arpf" -v cm="$compact" -v cnt="$count" '
  BEGIN { h = "[0-9A-Fa-f][0-9A-Fa-f]"; mre = h ":" h ":" h ":" h ":" h ":" h }
  FILENAME ~ /\/links$/ { lk[$1] = $2; next }
  FILENAME ~ /\/res\.[^\/]*$/ { png[$1 " " $2] = $3 "/" $4; next }
  FILENAME ~ /\/route$/ {
    f = 0; dev = "-"; tbl = "main"
    for (i = 1; i < NF; i++) {
      if ($i == "from" && !f) f = i
      else if ($i == "dev" && dev == "-") dev = $(i + 1)
      else if ($i == "table") tbl = $(i + 1)
    }
    if (f > 1) { rd[$(f + 1) " " $(f - 1)] = dev; rt[$(f + 1) " " $(f - 1)] = tbl }
    next
  }
  FILENAME ~ /\/neigh$/ {
    mac = "-"; st = $NF
    for (i = 2; i < NF; i++) { if ($i == "dev") d = $(i + 1); if ($i == "lladdr") mac = tolower($(i + 1)) }
    ng[$1 " " d] = mac "@" st
    next
  }
  FILENAME ~ /\/arp\.[^\/]*$/ {
    if (FNR == 1 && $1 == "Q") { ak = $2 " " $3 " " $4; if (!(ak in am)) am[ak] = ""; next }
    x = $0
    while (match(x, mre)) {
      m = tolower(substr(x, RSTART, RLENGTH)); x = substr(x, RSTART + RLENGTH)
      if (!((ak, m) in sm)) { sm[ak, m] = 1; am[ak] = addsorted(am[ak], m) }
    }
    next
  }
  FILENAME ~ /\/mtu\.[^\/]*$/ { mt[$1 " " $2] = $3 ":" ($4 > 0 ? "ok" : "0/" ($5 + 0)); next }
  {
    l = hl ? (($1 in lk) ? lk[$1] : "missing:-") : "na"
    k = $2 " " $3
    dev = "na"; tbl = "na"
    if (hr) { if (k in rd) { dev = rd[k]; tbl = rt[k] } else { dev = "!"; tbl = "!" } }
    macs = "na"
    if (af != "none" && ($1 " " k) in am) macs = (am[$1 " " k] == "" ? "-" : am[$1 " " k])
    res = "na"
    if (pm != "na") res = (k in png) ? png[k] : "0/0"
    nb = "na"
    if (ha) nb = (($3 " " $1) in ng) ? ng[$3 " " $1] : "-"
    mf = (k in mt) ? mt[k] : "na"
    if (cm) {
      jd[$1]++
      if (clean(l, dev, macs, res, nb, mf)) { cl[$1]++; next }
    }
    print "P", $1, $2, $3, l, dev, tbl, macs, res, nb, mf
  }
  function addsorted(list, m,  a, k, i, out, put) { # comma list in byte order, m inserted
    if (list == "") return m
    k = split(list, a, ","); out = ""; put = 0
    for (i = 1; i <= k; i++) {
      if (!put && m < a[i]) { out = out (out == "" ? "" : ",") m; put = 1 }
      out = out (out == "" ? "" : ",") a[i]
    }
    if (!put) out = out "," m
    return out
  }
  function clean(l, dev, macs, res, nb, mf,  x) {
    if (l != "na") { split(l, x, ":"); if (x[1] != "up" && x[1] != "unknown" || x[2] == "0") return 0 }
    if (dev != "na" && dev != $1 && !(dev == "lo" && $5 == 1)) return 0
    if (macs != "na" && (macs == "-" || index(macs, ",") || $4 != "-" && macs != $4)) return 0
    if (res != "na") { split(res, x, "/"); if (x[1] != cnt || x[2] != cnt) return 0 }
    if (nb != "na" && $5 != 1 && $4 != "-") { split(nb, x, "@"); if (x[1] != "-" && x[1] != $4) return 0 }
    if (mf != "na" && mf !~ /:ok$/) return 0
    return 1
  }
  END { if (cm) for (k in jd) print "C", k, jd[k], cl[k] + 0, (pm != "na" ? cnt : -1) }' "$tmp/links" "$tmp"/res.* "$tmp/route" "$tmp/neigh" "$tmp"/arp.* "$tmp"/mtu.* "$tmp/pairs"
