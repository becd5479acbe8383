#!/bin/sh
# The benchmark's instruction-count guest (scripts/bench.sh --count): fixed workloads, each
# bracketed by the insncount plugin's markers, with what the driver counted around them.
#
#   @@BENCH SYMS <module> <section> <address>   where a module's sections were loaded
#   @@BENCH KSYM <address> <type> <name> [<module>]   the module symbols (/proc/kallsyms)
#   @@BENCH PHASE <mark> <name> <packets> tx=<n> rx=<n> irq=<n> <what the tool said>
#   @@BENCH BAR <n> <start> <end> <flags>   the NIC's BARs 0 (memory: the CSR) and 1 (I/O),
#                                           from sysfs, for the plugin's register accesses
# shellcheck disable=SC1091
. /tests/lib.sh

drv=$DRIVER
HOST=10.0.2.2
PORT=$(arg e100test.bport)
N=$(arg e100test.bcount)
[ -n "$N" ] || N=4000
# Received datagrams come 2.5 ms apart: each is taken alone (one interrupt, one NAPI poll), so
# the counts do not depend on how the host's and the guest's timing happen to batch them.
GAP=2500

load_driver "$drv" || { echo "@@BENCH ERROR insmod $drv failed"; exit 1; }
ifc=$(nic_if)
ip link set lo up
ip addr add 10.0.2.15/24 dev "$ifc"
# What bringing the interface up takes from the system's memory (rings, receive buffers,
# coherent blocks): MemFree before and after, with the caches dropped each time.
memfree() { sync; echo 3 >/proc/sys/vm/drop_caches; awk '$1 == "MemFree:" {print $2}' /proc/meminfo; }
m0=$(memfree)
ip link set "$ifc" up
# e100test.threaded=0|1: NAPI in softirq or in its own kernel thread (the driver's default
# otherwise).
THREADED=$(arg e100test.threaded)
[ -z "$THREADED" ] || echo "$THREADED" >"/sys/class/net/$ifc/threaded"
echo "@@BENCH THREADED $(cat "/sys/class/net/$ifc/threaded")"
wait_for 15 grep -qx 1 "/sys/class/net/$ifc/carrier" && wait_for 10 ping -c 1 -W 1 "$HOST" >/dev/null ||
	{ echo "@@BENCH ERROR no link or no ping"; exit 1; }
echo "@@BENCH MEMUP $((m0 - $(memfree))) kB"
# The host's neighbour entry made permanent: left to itself it goes stale after a randomised
# reachable time, and a phase that meets it stale sends through neigh_resolve_output (and ARP
# probes) rather than the cached header, about 40 kernel instructions a TCP frame in one of two
# e100 runs made to check (2026-12-05).
hmac=$(ip neigh show "$HOST" dev "$ifc" | awk '{for (k = 1; k < NF; k++) if ($k == "lladdr") print $(k + 1)}')
if [ -z "$hmac" ]; then
	echo "@@BENCH ERROR no neighbour entry for $HOST to make permanent"
elif ! ip neigh replace "$HOST" lladdr "$hmac" nud permanent dev "$ifc"; then
	echo "@@BENCH ERROR ip neigh replace $HOST lladdr $hmac nud permanent failed"
fi
# No TCP early demux: whether a connection's ACKs find the socket's cached input route depends
# on timing. Its SYN-ACK, handled from the socket's backlog (it came while connect() still held
# the socket), leaves none cached, and every ACK after it, handled from the backlog as well
# while iperf3 writes, takes the full route lookup (fib_table_lookup, ip_route_input_rcu,
# fib_validate_source: about 200 kernel instructions a frame in tcp-512, in one of two e100
# runs). Without early demux every ACK takes that lookup: the same path in every run.
echo 0 >/proc/sys/net/ipv4/tcp_early_demux || echo "@@BENCH ERROR tcp_early_demux not turned off"

for m in e100_rs e100 mii; do
	[ -d "/sys/module/$m/sections" ] || continue
	for sec in .text .data .bss .rodata; do
		[ -r "/sys/module/$m/sections/$sec" ] && echo "@@BENCH SYMS $m $sec $(cat "/sys/module/$m/sections/$sec")"
	done
done
# Where the NIC's registers are: the plugin counts accesses per physical page, and
# scripts/bench/insns.py takes the ones in BAR 0 as the driver's register accesses.
pci=$(nic_pci) && awk '
	NR <= 2 { printf "@@BENCH BAR %d %s %s %s\n", NR - 1, $1, $2, $3 }' "$pci/resource" ||
	echo "@@BENCH ERROR no NIC in /sys/bus/pci/devices: its BAR is not known"
grep -E '\[(e100_rs|e100|mii)\]$' /proc/kallsyms | sed 's/^/@@BENCH KSYM /'
# The kernel's own symbols come from System.map on the host: check that they match.
echo "@@BENCH KBASE $(awk '$3 == "_stext" {print $1}' /proc/kallsyms)"

st() { cat "/sys/class/net/$ifc/statistics/$1"; }
irqs() { awk -v i="$ifc:" '$NF == i || $NF == substr(i, 1, length(i) - 1) {s = 0; for (k = 2; k < NF; k++) if ($k ~ /^[0-9]+$/) s += $k; print s}' /proc/interrupts; }
# phase MARK NAME COMMAND...: run COMMAND (which places markers 0 and MARK itself, or is
# bracketed here), and report the driver's packet and interrupt counts around it.
phase() {
	m=$1 name=$2
	shift 2
	t0=$(st tx_packets) r0=$(st rx_packets) i0=$(irqs)
	# Into a file, not a pipe: a `tail` started beside the command would fault its pages in
	# while the command counts (as much as 60 kernel instructions a packet, more or less
	# depending on how the two processes' starts fell).
	"$@" >/tmp/phase.out 2>&1
	t1=$(st tx_packets) r1=$(st rx_packets) i1=$(irqs)
	out=$(tail -1 /tmp/phase.out)
	echo "@@BENCH PHASE $m $name tx=$((t1 - t0)) rx=$((r1 - r0)) irq=$((i1 - i0)) $out"
	paced "$name" $((t1 - t0)) $((r1 - r0)) $((i1 - i0))
}
# paced NAME TX RX IRQ: a paced receive phase's counts are the path of a frame taken alone (an
# interrupt and a poll each; a ping's request and reply share one) only if every frame came
# alone. On a clean run the interrupts are the frames and a few more (the watchdog's, ARP); a
# guest slowed by a loaded host, or a QEMU that delivered two datagrams together, takes two to a
# poll and counts fewer instructions a frame (e100's rx-1400: 335 in all against 383, with
# 3,176 interrupts for 4,004 frames, beside a CI run), so fewer interrupts than frames is an
# error (bench.sh makes the boot again). Transmit phases are not paced (udpb sends as fast as
# it can): how their completions fall is the driver's and is counted as it is.
paced() {
	case $1 in
	rx-1400 | rx-64) want=$3 ;;
	ping) want=$((($2 + $3) / 2)) ;;
	*) return 0 ;;
	esac
	[ "$4" -ge "$want" ] ||
		echo "@@BENCH ERROR $1: $4 interrupts for $want frames meant to come alone: the guest fell behind (a loaded host?) or frames came together; its counts are not the paced path's"
}
marked() { # marked MARK COMMAND...: markers around COMMAND, from this shell
	m=$1
	shift
	mark 0
	"$@"
	mark "$m"
}

# The kernel's per-CPU statistics are folded every second by default (vmstat_update): work the
# clock drives, not the packets, so a phase that runs longer counts more of it. Folded once an
# hour here; counters that cross their thresholds are still folded as they go.
echo 3600 >/proc/sys/vm/stat_interval
sleep 1
phase 1 tx-1400 env UDPB_MARK=1 udpb send "$HOST" "$PORT" "$N" 1400
phase 2 tx-64 env UDPB_MARK=2 udpb send "$HOST" "$PORT" "$N" 64
phase 3 rx-1400 env UDPB_MARK=3 udpb fetch "$HOST" "$PORT" "$N" 1400 "$GAP"
phase 4 rx-64 env UDPB_MARK=4 udpb fetch "$HOST" "$PORT" "$N" 64 "$GAP"
phase 5 ping marked 5 ping -q -c $((N / 10)) -i 0.01 "$HOST"
phase 6 idle-10s marked 6 sleep 10
# TCP writes of 512 bytes to the host's iperf3 (e100test.iperf) with Nagle off (-N): each a
# segment of its own, answered by an ACK; counted per frame, both ways, iperf3's start and
# control connection included. A failed iperf3 says so on the console (the phase line keeps
# only the tool's last line).
tcp512() {
	iperf3 -c "$HOST" -p "$IPORT" -N -l 512 -n $((N * 256)) >/tmp/tcp512.out 2>&1 ||
		echo "@@BENCH ERROR tcp-512: iperf3 failed: $(tail -1 /tmp/tcp512.out)" >/dev/console
	tail -1 /tmp/tcp512.out
}
# A flood: 5N datagrams of 1400 bytes offered 4 us apart (2.8 Gbit/s), far more than the
# guest takes, counted per frame the driver passed up. The receiver reads nothing for 500 ms
# (UDPB_HOLD_MS; the burst takes about 80 ms), so past its receive buffer (about 190
# datagrams) every frame is a socket drop, whatever share of the CPU the reader would have
# got; then it reads what was kept (300 ms of silence ends it: the trailer is dropped too).
# With GRO on, then off: GRO verifies every UDP datagram's checksum in software (csum_partial)
# before the socket can drop it; without it (and in e100.c, which bypasses GRO) a datagram the
# socket drops is never summed. How many frames get in depends on timing (which the plugin
# slows): these two phases do not repeat as the paced ones do.
# Whether the hold covered the burst is not assumed from the host's speed: host.py's trailer
# comes last, so with the buffer overflowed it is dropped too; a reader that gets it was
# reading before the burst ended (udpb then reports what was sent: "sent S", S not -1).
flood() { # flood MARK
	out=$(env UDPB_MARK="$1" UDPB_HOLD_MS=500 udpb fetch "$HOST" "$PORT" $((N * 5)) 1400 4 300)
	case "$out" in
	*" sent -1 "*) ;;
	*) echo "@@BENCH ERROR flood (mark $1): the reader got the trailer, so it read during the burst (or nothing overflowed): $out" >/dev/console ;;
	esac
	echo "$out"
}
gro_now=$(gro_state "$ifc")
phase 8 rx-flood flood 8
ethtool -K "$ifc" gro off || echo "@@BENCH ERROR rx-flood-gro-off: ethtool -K $ifc gro off failed"
sleep 1
phase 9 rx-flood-gro-off flood 9
ethtool -K "$ifc" gro "$gro_now" || echo "@@BENCH ERROR ethtool -K $ifc gro $gro_now failed"
sleep 1
IPORT=$(arg e100test.iperf)
[ -z "$IPORT" ] || phase 7 tcp-512 marked 7 tcp512
echo "@@BENCH DONE"
