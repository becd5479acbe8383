#!/bin/sh
# One wall-clock round of the benchmark (scripts/bench.sh): the guest's side. Every figure is a
# line "@@BENCH M <metric> <value>"; the host collects them per driver and round.
#
# Host services on 127.0.0.1, reached as 10.0.2.2: iperf3 -s on e100test.iperf, and
# scripts/bench/host.py on e100test.bport. e100test.bmode: "full" (the user-network round) or
# "wire" (on the harness QEMU with its wire timed at 100 Mb/s full duplex: TCP each way only).
# shellcheck disable=SC1091
. /tests/lib.sh

drv=$DRIVER
HOST=10.0.2.2
IPORT=$(arg e100test.iperf)
BPORT=$(arg e100test.bport)
MODE=$(arg e100test.bmode)
# e100test.bonly=sweep: only the UDP receive sweep and its overload (for a quick look by hand:
# scripts/qemu-run.sh --suite bench-wall ... --append "... e100test.bonly=sweep");
# e100test.bonly=tcp: only TCP each way; e100test.bonly=small: only small frames (UDP sent at
# 64 and 1472 bytes, ping RTT, TCP writes of 512 B and 1 KiB); e100test.bonly=overload: only the
# overload at a fixed rate, repeated (below).
ONLY=$(arg e100test.bonly)
T=5

load_driver "$drv" || { echo "@@BENCH ERROR insmod $drv failed"; exit 1; }
ifc=$(nic_if)
ip link set lo up
ip addr add 10.0.2.15/24 dev "$ifc"
ip link set "$ifc" up
# e100test.threaded=0|1: NAPI in softirq or in its own kernel thread (the driver's default
# otherwise).
THREADED=$(arg e100test.threaded)
[ -z "$THREADED" ] || echo "$THREADED" >"/sys/class/net/$ifc/threaded"
napi_mode=$(cat "/sys/class/net/$ifc/threaded")
# e100test.gro=off: the interface's GRO off (ethtool -K), for both drivers (e100.c hands frames
# to netif_receive_skb, past GRO, either way).
[ "$(arg e100test.gro)" != off ] || ethtool -K "$ifc" gro off
# e100test.rxring=N: N RFDs in the receive ring (ethtool -G), for both drivers (256 by default).
RXRING=$(arg e100test.rxring)
[ -z "$RXRING" ] || ethtool -G "$ifc" rx "$RXRING" || echo "@@BENCH ERROR ethtool -G rx $RXRING"
wait_for 15 grep -qx 1 "/sys/class/net/$ifc/carrier" && wait_for 10 ping -c 1 -W 1 "$HOST" >/dev/null ||
	{ echo "@@BENCH ERROR no link or no ping"; exit 1; }
sleep 1

m() { echo "@@BENCH M $1 $2"; }
st() { cat "/sys/class/net/$ifc/statistics/$1"; }
irqs() { awk -v i="$ifc" '$NF == i {s = 0; for (k = 2; k < NF; k++) if ($k ~ /^[0-9]+$/) s += $k; print s}' /proc/interrupts; }
busy() { awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8}' /proc/stat; } # user nice system irq softirq
HZ_MS=10 # USER_HZ is 100: one tick of /proc/stat is 10 ms
snap() { s_tx=$(st tx_packets) s_rx=$(st rx_packets) s_tb=$(st tx_bytes) s_rb=$(st rx_bytes) s_i=$(irqs) s_c=$(busy); }
# cost NAME: interrupts per packet and guest CPU milliseconds per megabit since the last snap.
cost() {
	p=$(($(st tx_packets) - s_tx + $(st rx_packets) - s_rx))
	b=$(($(st tx_bytes) - s_tb + $(st rx_bytes) - s_rb))
	i=$(($(irqs) - s_i))
	c=$(($(busy) - s_c))
	awk -v n="$1" -v p="$p" -v b="$b" -v i="$i" -v c="$c" -v hz="$HZ_MS" 'BEGIN {
		if (p > 0) printf "@@BENCH M %s-irq-per-packet %.4f\n", n, i / p
		if (b > 0) printf "@@BENCH M %s-cpu-ms-per-mbit %.4f\n", n, c * hz / (b * 8 / 1e6) }'
}
# tcp NAME ARGS...: one iperf3 run (guest is the client), its receiver rate and costs.
tcp() {
	n=$1
	shift
	snap
	out=$(iperf3 -c "$HOST" -p "$IPORT" -t "$T" -f m "$@" 2>&1)
	r=$(iperf_rate "$out")
	[ -n "$r" ] && m "$n-mbps" "$r" || echo "@@BENCH ERROR $n: $(echo "$out" | tail -2 | tr '\n' ' ')"
	cost "$n"
}

# udp_send SIZE: a fixed count of datagrams sent to the host, the sender's rate and what share
# the host counted. "udpb sent N bytes B in T s host H".
udp_send() {
	udpb send "$HOST" "$BPORT" 20000 "$1" | awk -v s="$1" '{
		if ($7 > 0) printf "@@BENCH M udp-tx-%s-sender-pps %.0f\n", s, $3 / $7
		if ($10 >= 0 && $3 > 0) printf "@@BENCH M udp-tx-%s-host-received-pct %.2f\n", s, 100 * $10 / $3 }'
}
# ping_rtt: round-trip times of 200 pings 20 ms apart, p50 and p99.
ping_rtt() {
	ping -c 200 -i 0.02 "$HOST" | sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p' | sort -n |
		awk '{v[NR] = $1} END { if (NR) { printf "@@BENCH M ping-p50-ms %s\n@@BENCH M ping-p99-ms %s\n", v[int((NR + 1) / 2)], v[int(NR * 0.99 + 0.5)] } }'
}

# On the timed wire the metrics are named wire-*.
P=""
[ "$MODE" = wire ] && P=wire-
m "${P}napi-threaded" "$napi_mode"
m "${P}gro" "$([ "$(gro_state "$ifc")" = on ] && echo 1 || echo 0)"
m "${P}rx-ring" "$(ethtool -g "$ifc" | awk '/^Current/ {c = 1} c && $1 == "RX:" {print $2; exit}')"
# 1 when the guest's clock is its TSC: on jiffies (a failed calibration) timestamps come in whole
# ticks and there are no high-resolution timers (scripts/tsc-khz.c).
m "${P}clocksource-tsc" "$(clock_is_tsc)"
if [ "$ONLY" = small ]; then
	for size in 64 1472; do
		udp_send "$size"
		sleep 1
	done
	ping_rtt
	for l in 512 1K; do
		snap
		out=$(iperf3 -c "$HOST" -p "$IPORT" -t 3 -f m -l "$l" 2>&1)
		r=$(iperf_rate "$out")
		[ -n "$r" ] && m "tcp-tx-l$l-mbps" "$r"
		# Frames as the stack made them: bytes a sent frame, frames received (ACKs) a sent one.
		awk -v n="tcp-tx-l$l" -v t="$(($(st tx_packets) - s_tx))" -v b="$(($(st tx_bytes) - s_tb))" \
			-v r="$(($(st rx_packets) - s_rx))" 'BEGIN { if (t > 0) {
			printf "@@BENCH M %s-bytes-per-tx-frame %.0f\n", n, b / t
			printf "@@BENCH M %s-rx-frames-per-tx-frame %.3f\n", n, r / t } }'
		cost "tcp-tx-l$l"
		sleep 0.5
	done
	echo "@@BENCH DONE"
	exit 0
fi
if [ "$ONLY" != sweep ] && [ "$ONLY" != overload ]; then
tcp "${P}tcp-tx"
sleep 1
tcp "${P}tcp-rx" -R
if [ "$MODE" = wire ] || [ "$ONLY" = tcp ]; then
	echo "@@BENCH DONE"
	exit 0
fi
sleep 1

# Both ways at once: each direction's receiver rate.
out=$(iperf3 -c "$HOST" -p "$IPORT" -t "$T" -f m --bidir 2>&1)
tx=$(echo "$out" | grep -E '\[TX-C\].* receiver$' | tail -1 | awk '{for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") print $(i-1)}')
rx=$(echo "$out" | grep -E '\[RX-C\].* receiver$' | tail -1 | awk '{for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") print $(i-1)}')
[ -n "$tx" ] && m bidir-tx-mbps "$tx"
[ -n "$rx" ] && m bidir-rx-mbps "$rx"
[ -n "$tx$rx" ] || echo "@@BENCH ERROR bidir: $(echo "$out" | tail -2 | tr '\n' ' ')"
sleep 1

# UDP packets per second, a fixed count each way at 64 and 1472 bytes of payload.
for size in 64 1472; do
	udp_send "$size"
	sleep 1
	# "udpb received N bytes B in T s sent S in U s". Offered 50 us apart (20,000 a second,
	# more than either driver takes here): a burst with no gap at all is lost in QEMU's user
	# network before it reaches the NIC.
	out=$(udpb fetch "$HOST" "$BPORT" 20000 "$size" 50 1000)
	echo "$out" | awk -v s="$size" '{ if ($7 > 0) printf "@@BENCH M udp-rx-%s-receiver-pps %.0f\n", s, $3 / $7
		if ($12 > 0) printf "@@BENCH M udp-rx-%s-sender-pps %.0f\n", s, $10 / $12
		if ($10 > 0) printf "@@BENCH M udp-rx-%s-received-pct %.2f\n", s, 100 * $3 / $10 }'
	sleep 1
done

ping_rtt
fi

# overload NAME RATE: 1400-byte datagrams offered at RATE Mbit/s for 3 s, and where they went:
# reached the driver (the rest was lost on the host, in QEMU's user network or in the NIC model
# without a free RFD), dropped by UDP (InErrors: receive buffer full, no memory), delivered;
# and how the guest's CPU time was shared (/proc/stat: user, system, softirq, hard interrupts,
# idle; with a NAPI thread its polls count as system). The benchmark kernel measures
# interrupt-context time at entry and exit and idle time at its start and end
# (IRQ_TIME_ACCOUNTING, NO_HZ_IDLE); user, system and ksoftirqd's softirq time are still what
# the tick found running. The window includes the receiver's wait for the host's trailer.
# Where the softirq time went, tick-sampled as /proc/stat's: ksoftirqd's share (the rest ran at
# interrupt exits and where bottom halves were enabled again, in whatever task that was) and the
# reader's (udpb, this shell's reaped children); how often net_rx_action ran out of budget or
# time with work left (softnet_stat's time_squeeze) and how many NET_RX softirqs ran; and the
# NIC's interrupts per thousand frames taken in.
overload() {
	gap=$(awk -v r="$2" 'BEGIN{printf "%.3f", 1400 * 8 / r}')
	count=$(($2 * 1000000 * 3 / (1400 * 8)))
	r0=$(st rx_packets) d0=$(udp InErrors) c0=$(cpu) x0=$(softirq_diag) i0=$(irqs)
	out=$(udpb fetch "$HOST" "$BPORT" "$count" 1400 "$gap" 1000)
	r1=$(st rx_packets) d1=$(udp InErrors) c1=$(cpu) x1=$(softirq_diag) i1=$(irqs)
	echo "$out" | awk -v n="$1" -v r="$((r1 - r0))" -v d="$((d1 - d0))" -v c0="$c0" -v c1="$c1" \
		-v x0="$x0" -v x1="$x1" -v cnt="$count" -v irq="$([ -n "$i0" ] && [ -n "$i1" ] && echo $((i1 - i0)))" '{
		# Nothing (or one datagram: no interval to measure) delivered counts as 0, not as
		# no sample.
		if ($7 > 0) printf "@@BENCH M %s-delivered-mbps %.2f\n", n, $5 * 8 / $7 / 1e6
		else if ($3 < 2) printf "@@BENCH M %s-delivered-mbps 0\n", n
		if ($12 > 0) printf "@@BENCH M %s-offered-mbps %.2f\n", n, $10 * 1400 * 8 / $12 / 1e6
		# Against what the host sent, from its trailer; without the trailer (dropped with the
		# rest, or receive died) against what was asked for, which the host sends in full.
		sent = ($10 > 0) ? $10 : cnt
		if (sent > 0) {
			printf "@@BENCH M %s-reached-driver-pct %.2f\n", n, 100 * r / sent
			printf "@@BENCH M %s-udp-dropped-pct %.2f\n", n, 100 * d / sent
			printf "@@BENCH M %s-app-got-pct %.2f\n", n, 100 * $3 / sent
		}
		# Interrupts of the NIC (any cause, and any other handler on its line) a thousand
		# frames passed up: in this receive-only overload, how often NAPI completed and the
		# interrupt came back (the rest of the frames were taken in by polls in a row).
		if (r > 0 && irq != "") printf "@@BENCH M %s-irqs-per-kframe %.1f\n", n, 1000 * irq / r
		split(c0, a, " "); split(c1, b, " ")
		if (b[3] > a[3]) {
			printf "@@BENCH M %s-user-cpu-pct %.1f\n", n, 100 * (b[1] - a[1]) / (b[3] - a[3])
			printf "@@BENCH M %s-system-cpu-pct %.1f\n", n, 100 * (b[4] - a[4]) / (b[3] - a[3])
			printf "@@BENCH M %s-softirq-cpu-pct %.1f\n", n, 100 * (b[2] - a[2]) / (b[3] - a[3])
			printf "@@BENCH M %s-hardirq-cpu-pct %.1f\n", n, 100 * (b[6] - a[6]) / (b[3] - a[3])
			printf "@@BENCH M %s-idle-cpu-pct %.1f\n", n, 100 * (b[5] - a[5]) / (b[3] - a[3])
			split(x0, p, " "); split(x1, q, " ")
			if (p[1] >= 0 && q[1] >= 0)
				printf "@@BENCH M %s-ksoftirqd-cpu-pct %.1f\n", n, 100 * (q[1] - p[1]) / (b[3] - a[3])
			printf "@@BENCH M %s-reader-cpu-pct %.1f\n", n, 100 * (q[2] - p[2]) / (b[3] - a[3])
			printf "@@BENCH M %s-time-squeeze %d\n", n, q[3] - p[3]
			printf "@@BENCH M %s-net-rx-softirqs %d\n", n, q[4] - p[4]
		} }'
}
KSOFTIRQD=$(for d in /proc/[0-9]*; do [ "$(cat "$d/comm" 2>/dev/null)" = ksoftirqd/0 ] && echo "${d#/proc/}"; done)
# softirq_diag: ksoftirqd/0's CPU ticks (-1: not found), this shell's reaped children's, CPU 0's time_squeeze
# (softnet_stat, hexadecimal) and NET_RX softirqs run.
softirq_diag() {
	ks=-1
	[ -z "$KSOFTIRQD" ] || ks=$(awk '{print $14 + $15}' "/proc/$KSOFTIRQD/stat")
	me=$(awk '{print $16 + $17}' /proc/$$/stat)
	sq=$(awk 'NR == 1 {print $3}' /proc/net/softnet_stat)
	nr=$(awk '$1 == "NET_RX:" {print $2}' /proc/softirqs)
	echo "$ks $me $((0x$sq)) $nr"
}
udp() { awk -v f="$1" '$1 == "Udp:" { if (!h) { for (i = 2; i <= NF; i++) c[$i] = i; h = 1 } else print $c[f] }' /proc/net/snmp; }
cpu() { awk '$1 == "cpu" {print $2 + $3, $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9, $4, $5, $7}' /proc/stat; }
# e100test.bonly=overload: only the overload, at the fixed rate e100test.orate (Mbit/s), repeated
# e100test.oreps times in this boot (each repeat is a line of its own under the same names): how
# often a driver collapses, which one sweep's single 4x step cannot tell.
if [ "$ONLY" = overload ]; then
	dumped=""
	for _ in $(seq "$(arg e100test.oreps)"); do
		overload udp-overload-fixed "$(arg e100test.orate)"
		# A trial that received nothing: the driver's state, once (a stalled receive unit, a
		# driver that died), for the log.
		if [ "$(echo "$out" | awk '{print ($3 < 2) ? 1 : 0}')" = 1 ] && [ -z "$dumped" ]; then
			echo "@@BENCH ERROR nothing received: $out"
			ethtool -S "$ifc"
			ethtool -d "$ifc" raw off 2>&1 | head -40
			grep -E "$ifc|NET_RX" /proc/interrupts /proc/softirqs
			cat /proc/net/softnet_stat
			dumped=1
		fi
		sleep 1
	done
	echo "@@BENCH DONE"
	exit 0
fi

# The UDP receive sweep: 1400-byte datagrams offered at rising rates (Mbit/s) for 3 s each; the
# highest rate delivered without loss (at most 0.1% missing) that the host's sender really
# offered (at least 95% of it), then what is delivered at 4 times it (as offered: the host's
# sender may not reach it, its rate is reported too). Gaps in fractions of a microsecond.
best=0 peak=0
for rate in 10 20 40 60 80 120 160 240 320 480 640 960; do
	gap=$(awk -v r="$rate" 'BEGIN{printf "%.3f", 1400 * 8 / r}')
	count=$((rate * 1000000 * 3 / (1400 * 8)))
	out=$(udpb fetch "$HOST" "$BPORT" "$count" 1400 "$gap" 1000)
	got=$(echo "$out" | awk '{print $3}')
	m "udp-sweep-$rate-delivered-pct" "$(awk -v g="$got" -v c="$count" 'BEGIN{printf "%.2f", 100 * g / c}')"
	offered=$(echo "$out" | awk '{ if ($12 > 0) printf "%.0f", $10 * 1400 * 8 / $12 / 1e6; else print 0 }')
	m "udp-sweep-$rate-offered-mbps" "$offered"
	# Delivered to the application, Mbit/s (from the first datagram to the last).
	mb=$(echo "$out" | awk '{ if ($7 > 0) printf "%.2f", $5 * 8 / $7 / 1e6; else print 0 }')
	peak=$(awk -v a="$peak" -v b="$mb" 'BEGIN{print (b > a ? b : a)}')
	if [ "$((got * 1000))" -ge "$((count * 999))" ] && [ "$((offered * 100))" -ge "$((rate * 95))" ]; then
		best=$rate
	fi
	sleep 1
done
m udp-lossless-mbps "$best"
m udp-peak-delivered-mbps "$peak"
if [ "$best" -gt 0 ]; then
	# At 4 times the lossless rate.
	overload udp-overload-4x "$((best * 4))"
fi

# Write sizes: TCP guest to host with iperf3 -l from 512 bytes to 64 KiB, 3 s each.
[ "$ONLY" = sweep ] && l_sizes="" || l_sizes="512 1K 2K 4K 8K 16K 32K 64K"
for l in $l_sizes; do
	out=$(iperf3 -c "$HOST" -p "$IPORT" -t 3 -f m -l "$l" 2>&1)
	r=$(iperf_rate "$out")
	[ -n "$r" ] && m "tcp-tx-l$l-mbps" "$r"
	sleep 0.5
done
echo "@@BENCH DONE"
