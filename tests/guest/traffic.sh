#!/bin/sh
# Data-path suite, run on both drivers: ping, iperf3 TCP and UDP both ways, 64 MiB each way with
# SHA-256 checked at both ends, receive-mode changes under traffic, MAC change, netpoll through
# ndo_poll_controller, and the driver unloaded after all of it with nothing leaked. Host
# services listen on 127.0.0.1 and are reached as 10.0.2.2 through QEMU user networking; their
# ports come on the kernel command line.
#
# Throughput is asserted against floors, not against the other driver: under TCG a single run
# varies by +-25% and a slower machine of the same kind runs everything slower, so the floors
# sit several times below what a working driver does (TCP 37-95 Mbit/s for both drivers on the
# test kernel with kmemleak; 36-71 without it on the slowest machine measured) and far above
# what a broken one does (a driver that sends a frame per watchdog tick; e100_rs slowed by a
# 1.5 ms delay in start_xmit sent 6.5 Mbit/s). Driver-versus-driver comparisons belong to the
# benchmark.
. /tests/lib.sh
drv=$DRIVER
HOST=10.0.2.2
IPERF_PORT=$(arg e100test.iperf)
HTTP_PORT=$(arg e100test.http)
SINK_PORT=$(arg e100test.sink)
UDP_PORT=$(arg e100test.udp)

# TCP floor, Mbit/s, for every TCP transfer of this suite.
TCP_FLOOR=10
# UDP: a rate the guest's stack absorbs on a slow machine (both drivers were lossless at 10-20
# Mbit/s there); the loss bound, %; the NIC must lose nothing.
UDP_RATE=5M
UDP_LOSS_MAX=5
# netconsole messages sent while TCP transmits, to drive netpoll into ndo_poll_controller.
NC_MESSAGES=300
# Lines each CPU prints from its timer interrupt in the netconsole-from-irq test (100 a second).
IRQ_LINES=300

kmemleak_baseline
begin setup
if ! load_driver "$drv"; then
	fail setup "insmod $drv failed"
	exit 1
fi
ifc=$(nic_if)
ip link set lo up
ip link set "$ifc" up
ip addr add 10.0.2.15/24 dev "$ifc"
ip route add default via "$HOST"
if wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier"; then
	pass setup "$ifc up, 10.0.2.15/24 via $HOST"
else
	fail setup "no carrier on $ifc"
	exit 1
fi

rx0=$(ethstat "$ifc" rx_packets) tx0=$(ethstat "$ifc" tx_packets)

# 200 pings, sizes spread over 0..1472 (the largest unfragmented), 0% loss.
begin ping-200-sizes
lost=0 i=0
while [ $i -lt 200 ]; do
	size=$(( (i * 1472) / 199 ))
	ping -c 1 -W 2 -s "$size" "$HOST" >/dev/null 2>&1 || lost=$((lost + 1))
	i=$((i + 1))
done
if [ "$lost" = 0 ]; then pass ping-200-sizes "200 pings, sizes 0..1472, 0 lost"; else fail ping-200-sizes "$lost of 200 lost"; fi

begin ethtool-S-counters-move
rx1=$(ethstat "$ifc" rx_packets) tx1=$(ethstat "$ifc" tx_packets)
if [ "$((rx1 - rx0))" -ge 200 ] && [ "$((tx1 - tx0))" -ge 200 ]; then
	pass ethtool-S-counters-move "rx_packets +$((rx1 - rx0)), tx_packets +$((tx1 - tx0)) over 200 pings"
else
	fail ethtool-S-counters-move "rx_packets $rx0->$rx1, tx_packets $tx0->$tx1"
fi

# iperf_tcp NAME ARGS...: 10 s of TCP; the receiver's rate must reach TCP_FLOOR.
iperf_tcp() {
	name=$1
	shift
	begin "$name"
	out=$(iperf3 -c "$HOST" -p "$IPERF_PORT" -t 10 -f m "$@" 2>&1)
	rate=$(iperf_rate "$out")
	if [ -z "$rate" ]; then
		fail "$name" "no result: $(echo "$out" | tail -3 | tr '\n' ' ')"
		return
	fi
	echo "@@METRIC $name.mbps $rate $(iperf_intervals "$out")"
	if at_least "$rate" "$TCP_FLOOR"; then
		pass "$name" "$rate Mbit/s (floor $TCP_FLOOR)"
	else
		fail "$name" "$rate Mbit/s, below the floor of $TCP_FLOOR"
	fi
}
iperf_tcp iperf-tcp-guest-to-host
iperf_tcp iperf-tcp-host-to-guest -R

# Frames the NIC or the driver lost: on receive, no RFD free (rx_missed_errors), FIFO overrun,
# or no buffer to refill with (rx_dropped); on transmit, frames dropped or failed (tx_dropped,
# tx_errors, tx_fifo_errors, tx_aborted_errors). On QEMU e100.c's hardware counters never
# update (its statistics dump is read at the wrong offset, see the README), so for it only the
# software counters (rx_dropped, tx_dropped, tx_errors) can move.
nic_loss() { # nic_loss rx|tx
	if [ "$1" = rx ]; then set -- rx_missed_errors rx_fifo_errors rx_dropped; else set -- tx_dropped tx_errors tx_fifo_errors tx_aborted_errors; fi
	n=0
	for c in "$@"; do n=$((n + $(ethstat "$ifc" "$c"))); done
	echo "$n"
}
udp_errors() { # RcvbufErrors of the guest's UDP stack
	awk '/^Udp:/ {if (!h) {for (i = 1; i <= NF; i++) n[i] = $i; h = 1} else for (i = 1; i <= NF; i++) if (n[i] == "RcvbufErrors") print $i}' /proc/net/snmp
}

# iperf_udp NAME rx|tx ARGS...: 10 s of UDP at UDP_RATE; loss under UDP_LOSS_MAX and no loss
# in the NIC or driver on the guest's side of the transfer (tx: it sends, rx: it receives).
iperf_udp() {
	name=$1 side=$2
	shift 2
	begin "$name"
	nic0=$(nic_loss "$side") buf0=$(udp_errors)
	out=$(iperf3 -c "$HOST" -p "$IPERF_PORT" -u -b "$UDP_RATE" -t 10 -f m "$@" 2>&1)
	line=$(echo "$out" | grep ' receiver$' | tail -1)
	rate=$(iperf_rate "$out")
	loss=$(echo "$line" | sed -n 's/.*(\([0-9.e+-]*\)%).*/\1/p')
	# The hardware counters arrive with the next statistics dump (every 2 s).
	sleep 3
	nic=$(($(nic_loss "$side") - nic0)) buf=$(($(udp_errors) - buf0))
	if [ -z "$rate" ] || [ -z "$loss" ]; then
		fail "$name" "no result: $(echo "$out" | tail -3 | tr '\n' ' ')"
		return
	fi
	echo "@@METRIC $name.mbps $rate $(iperf_intervals "$out")"
	echo "@@METRIC $name.loss_pct $loss"
	echo "@@INFO $name: guest UDP RcvbufErrors +$buf, NIC/driver $side losses +$nic"
	if ! awk -v l="$loss" -v m="$UDP_LOSS_MAX" 'BEGIN{exit !(l < m)}'; then
		fail "$name" "$rate Mbit/s, loss $loss% (bound $UDP_LOSS_MAX%); guest socket buffer drops +$buf, NIC/driver $side +$nic"
	elif [ "$nic" -ne 0 ]; then
		fail "$name" "$rate Mbit/s, loss $loss%, but the NIC or driver lost $nic frames on $side"
	else
		pass "$name" "$rate Mbit/s at $UDP_RATE offered, loss $loss% (bound $UDP_LOSS_MAX%), NIC/driver $side losses 0"
	fi
}
iperf_udp iperf-udp-guest-to-host tx
iperf_udp iperf-udp-host-to-guest rx -R

# Which way received frames go up, counted by kprobes on the two ways while iperf3 sends to the
# guest for 2 s (rx_packets counts the frames): e100.c hands every frame to netif_receive_skb
# ("direct"), and so does e100_rs (kernel::net::napi::Receiver::receive). A way is taken when at
# least 90% of the frames went by it and at most 10% by the other.
rxp_tcp=direct rxp_udp=direct
rxp_ok=0
if kprobe_add_kernel rxgro napi_gro_receive && kprobe_add_kernel rxdirect netif_receive_skb; then
	rxp_ok=1
fi
rx_path() { # rx_path NAME WANT(gro|direct) IPERF3-ARGS...
	name=$1 want=$2
	shift 2
	begin "$name"
	if [ "$rxp_ok" != 1 ]; then
		fail "$name" "no kprobes on napi_gro_receive and netif_receive_skb"
		return
	fi
	g0=$(kprobe_hits rxgro) d0=$(kprobe_hits rxdirect) f0=$(cat "/sys/class/net/$ifc/statistics/rx_packets")
	out=$(iperf3 -c "$HOST" -p "$IPERF_PORT" -R -t 2 -f m "$@" 2>&1)
	g=$(($(kprobe_hits rxgro) - g0)) d=$(($(kprobe_hits rxdirect) - d0))
	f=$(($(cat "/sys/class/net/$ifc/statistics/rx_packets") - f0))
	if [ "$want" = gro ]; then by=$g other=$d; else by=$d other=$g; fi
	what="$f frames received: napi_gro_receive $g, netif_receive_skb $d"
	if [ "$f" -lt 100 ]; then
		fail "$name" "too few frames to judge ($what): $(echo "$out" | tail -2 | tr '\n' ' ')"
	elif [ $((by * 10)) -ge $((f * 9)) ] && [ $((other * 10)) -le "$f" ]; then
		pass "$name" "by $want: $what"
	else
		fail "$name" "want most by $want: $what"
	fi
}
rx_path rx-path-tcp "$rxp_tcp"
rx_path rx-path-udp "$rxp_udp" -u -b "$UDP_RATE" -l 1400
for p in rxgro rxdirect; do
	[ ! -d "$TRACING/events/e100test/$p" ] || kprobe_del "$p"
done

# 64 MiB each way, SHA-256 computed at both ends.
begin bulk-64MiB-host-to-guest
N=$((64 * 1024 * 1024))
got=$(wget -q -O - "http://$HOST:$HTTP_PORT/blob/$N" | tee /tmp/down.bin | sha256sum | cut -d' ' -f1)
sent=$(wget -q -O - "http://$HOST:$HTTP_PORT/sha/last")
len=$(wc -c </tmp/down.bin)
rm -f /tmp/down.bin
if [ "$len" = "$N" ] && [ -n "$got" ] && [ "$got" = "$sent" ]; then pass bulk-64MiB-host-to-guest "sha256 $got"; else fail bulk-64MiB-host-to-guest "got $len bytes sha $got, host sent sha $sent"; fi
begin bulk-64MiB-guest-to-host
dd if=/dev/urandom of=/tmp/up.bin bs=1M count=64 2>/dev/null
mine=$(sha256sum /tmp/up.bin | cut -d' ' -f1)
reply=$(nc "$HOST" "$SINK_PORT" </tmp/up.bin)
rm -f /tmp/up.bin
if [ "$reply" = "$mine $N" ]; then pass bulk-64MiB-guest-to-host "sha256 $mine"; else fail bulk-64MiB-guest-to-host "guest sha $mine, host got '$reply'"; fi

# NAPI in a kernel thread (sysfs threaded=1, which users switch at run time; both drivers
# poll in softirq context by default): from softirq context (threaded 0, no thread), 16 MiB
# each way, checked end to end, must pass through polls that run in the thread (its context
# switches rise), then softirq context again: with threaded back to 0 the thread stays (6.12
# keeps it until the NAPI context is deleted, at rmmod) but must not poll a ping's frames
# (one wake-up allowed, for a poll still in flight).
begin napi-threaded-bulk-both-ways
N=$((16 * 1024 * 1024))
thr0=$(cat "/sys/class/net/$ifc/threaded") kt0=$(napi_threads "$ifc")
echo 1 >"/sys/class/net/$ifc/threaded"
thr1=$(cat "/sys/class/net/$ifc/threaded")
tpid=$(napi_threads "$ifc" | cut -d' ' -f1)
csw() { awk '/ctxt_switches/ {s += $2} END {print s + 0}' "/proc/$tpid/status" 2>/dev/null; }
c0=$(csw)
got=$(wget -q -O - "http://$HOST:$HTTP_PORT/blob/$N" | sha256sum | cut -d' ' -f1)
sent=$(wget -q -O - "http://$HOST:$HTTP_PORT/sha/last")
dd if=/dev/urandom of=/tmp/up.bin bs=1M count=16 2>/dev/null
mine=$(sha256sum /tmp/up.bin | cut -d' ' -f1)
reply=$(nc "$HOST" "$SINK_PORT" </tmp/up.bin)
rm -f /tmp/up.bin
c1=$(csw)
echo 0 >"/sys/class/net/$ifc/threaded"
thr2=$(cat "/sys/class/net/$ifc/threaded")
sleep 0.2
c2=$(csw)
ping -c 5 -i 0.1 -W 2 "$HOST" >/dev/null 2>&1 && pinged=1 || pinged=0
c3=$(csw)
if [ "$thr0" != 0 ] || [ -n "$kt0" ]; then
	fail napi-threaded-bulk-both-ways "not in softirq context at the start: threaded=$thr0, NAPI threads: '$kt0'"
elif [ "$thr1" != 1 ] || [ -z "$tpid" ]; then
	fail napi-threaded-bulk-both-ways "after echo 1: threaded=$thr1, NAPI threads: '$(napi_threads "$ifc")'"
elif [ -z "$got" ] || [ "$got" != "$sent" ] || [ "$reply" != "$mine $N" ]; then
	fail napi-threaded-bulk-both-ways "in: sha $got, host sent $sent; out: guest $mine, host got '$reply'"
elif [ "$((c1 - c0))" -lt 100 ]; then
	fail napi-threaded-bulk-both-ways "the NAPI thread switched context $((c1 - c0)) times over 32 MiB"
elif [ "$thr2" != 0 ] || [ "$pinged" != 1 ] || [ "$((c3 - c2))" -gt 1 ]; then
	fail napi-threaded-bulk-both-ways "back to softirq: threaded=$thr2, ping ok=$pinged, the thread woke $((c3 - c2)) times over 5 pings"
else
	pass napi-threaded-bulk-both-ways "16 MiB each way intact, NAPI thread $tpid: $((c1 - c0)) context switches; threaded 0 again: 5 pings, the thread woke $((c3 - c2)) times"
fi

# Receive-mode changes while receiving: every toggle makes the driver reconfigure the receive
# filter under load; the transfer must keep its pace and the flags must end cleared. (That
# the filter really changes is the pair suite's business: frames to foreign addresses and
# groups are only seen there.)
begin rx-mode-toggles-keep-traffic-flowing
iperf3 -c "$HOST" -p "$IPERF_PORT" -t 12 -R -f m >/tmp/bg.txt 2>&1 &
bg=$!
sleep 1
t=0
while [ $t -lt 10 ]; do
	ip link set "$ifc" promisc on; sleep 0.2
	ip link set "$ifc" allmulticast on; sleep 0.2
	ip link set "$ifc" promisc off; sleep 0.2
	ip link set "$ifc" allmulticast off; sleep 0.2
	t=$((t + 1))
done
wait $bg
rate=$(iperf_rate "$(cat /tmp/bg.txt)")
flags=$(ip link show "$ifc" | head -1)
if ! at_least "$rate" "$TCP_FLOOR"; then
	fail rx-mode-toggles-keep-traffic-flowing "rate '$rate' Mbit/s during 40 toggles (floor $TCP_FLOOR): $(tail -2 /tmp/bg.txt | tr '\n' ' ')"
elif echo "$flags" | grep -qE 'PROMISC|ALLMULTI'; then
	fail rx-mode-toggles-keep-traffic-flowing "flags left set: $flags"
elif ! ping -c 3 -W 2 "$HOST" >/dev/null 2>&1; then
	fail rx-mode-toggles-keep-traffic-flowing "no ping after the toggles"
else
	pass rx-mode-toggles-keep-traffic-flowing "$rate Mbit/s received during 40 promisc/allmulti toggles; ping after"
fi

# MAC change, then ping (the host side learns the new address by ARP).
begin mac-change-then-ping
new=52:54:00:aa:bb:cc
ip link set "$ifc" down
ip link set "$ifc" address "$new"
ip link set "$ifc" up
ip route add default via "$HOST" 2>/dev/null
wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier"
if ping -c 3 -W 2 "$HOST" >/dev/null 2>&1 && [ "$(cat /sys/class/net/$ifc/address)" = "$new" ]; then
	pass mac-change-then-ping "$new"
else
	fail mac-change-then-ping "address $(cat /sys/class/net/$ifc/address), ping failed"
fi
ip link set "$ifc" down
ip link set "$ifc" address "$MAC"
ip link set "$ifc" up
ip route add default via "$HOST" 2>/dev/null
wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier"
ping -c 1 -W 2 "$HOST" >/dev/null 2>&1

# Hardware statistics: the dump-and-reset completes on this part, so the IEEE MAC counters
# (from the chip, not the driver) track the frames the driver counted.
if [ "$drv" = e100_rs ]; then
	begin hw-stats-dump-completes
	sleep 3 # one watchdog period, for a fresh dump
	hw_tx=$(ethtool -S "$ifc" --groups eth-mac 2>&1 | awk '/MacTransmittedOK|FramesTransmittedOK/ {print $NF; exit}')
	sw_tx=$(ethstat "$ifc" tx_packets)
	if [ -n "$hw_tx" ] && [ "$hw_tx" -gt 20000 ] && awk -v h="$hw_tx" -v s="$sw_tx" 'BEGIN{d = s - h; exit !(d >= 0 && d < 1000)}'; then
		pass hw-stats-dump-completes "chip counted $hw_tx frames sent, driver $sw_tx"
	else
		fail hw-stats-dump-completes "eth-mac FramesTransmittedOK '$hw_tx', driver tx_packets $sw_tx: $(ethtool -S "$ifc" --groups eth-mac 2>&1 | head -3 | tr '\n' ' ')"
	fi
fi

# Software transmit timestamps (SO_TIMESTAMPING): only the driver's skb_tx_timestamp() makes
# them, as the frame goes to the device; ethtool -T advertises them.
begin tx-timestamps
caps=$(ethtool -T "$ifc" 2>&1)
n=$(/bin/rawpkt txstamp "$HOST" "$UDP_PORT" 20)
if echo "$caps" | grep -q software-transmit && [ "$n" = 20 ]; then
	pass tx-timestamps "ethtool -T lists software-transmit; 20 of 20 datagrams got their transmit timestamp"
else
	fail tx-timestamps "$n of 20 datagrams got a transmit timestamp; ethtool -T: $(echo "$caps" | tr '\n' ' ' | cut -c1-200)"
fi

# netpoll: netconsole sends kernel messages to a UDP listener on the host's 127.0.0.1 while a
# UDP flood transmits from the other CPU. netpoll calls ndo_poll_controller only when its
# transmit does not go through at once (the other CPU holds the queue's lock, or the queue is
# stopped), so the flood, pinned to CPU 1 while the messages come from CPU 0, makes that
# happen (without the pinning it almost never does); a kprobe counts the calls. The host
# checks that every message arrived (netconsole-delivered).
begin netpoll-poll-controller
case "$drv" in
e100) probe_mod=e100 probe_pat='^e100_netpoll$' ;;
*) probe_mod=e100_rs probe_pat='poll_controller_callback' ;;
esac
mkdir -p /sys/kernel/config
mount -t configfs none /sys/kernel/config 2>/dev/null
ping -c 1 -W 2 "$HOST" >/dev/null 2>&1
gw_mac=$(ip neigh show "$HOST" | awk '{for (i = 1; i < NF; i++) if ($i == "lladdr") print $(i+1)}')
nc_dir=/sys/kernel/config/netconsole/e100test
# nc_enable: point the netconsole target (mkdir'ed) at the host's UDP listener and enable it.
nc_enable() {
	echo "$ifc" >"$nc_dir/dev_name"
	echo 10.0.2.15 >"$nc_dir/local_ip"
	echo "$HOST" >"$nc_dir/remote_ip"
	echo "$UDP_PORT" >"$nc_dir/remote_port"
	[ -n "$gw_mac" ] && echo "$gw_mac" >"$nc_dir/remote_mac"
	echo 1 >"$nc_dir/enabled"
}
if [ "$(nproc)" -lt 2 ]; then
	fail netpoll-poll-controller "the guest has $(nproc) CPU: the test needs two"
elif ! sym=$(kprobe_add netpoll "$probe_mod" "$probe_pat"); then
	fail netpoll-poll-controller "no kprobe on $probe_mod's poll_controller: $sym"
elif ! mkdir "$nc_dir"; then
	fail netpoll-poll-controller "no configfs netconsole"
else
	if nc_enable; then
		taskset 2 iperf3 -c "$HOST" -p "$IPERF_PORT" -u -b 0 -l 1400 -t 6 -f m >/tmp/nc-iperf.txt 2>&1 &
		bg=$!
		sleep 1
		taskset -p 1 $$ >/dev/null
		i=1
		while [ $i -le "$NC_MESSAGES" ]; do
			echo "<4>e100test-nc drv=$drv seq=$i end" >/dev/kmsg
			i=$((i + 1))
		done
		taskset -p 3 $$ >/dev/null
		wait $bg
		echo 0 >"$nc_dir/enabled"
		hits=$(kprobe_hits netpoll)
		rate=$(iperf_rate "$(cat /tmp/nc-iperf.txt)")
		if [ "${hits:-0}" -gt 0 ]; then
			pass netpoll-poll-controller "$NC_MESSAGES messages to $HOST:$UDP_PORT from CPU 0 while CPU 1 sent UDP at ${rate:-?} Mbit/s; ndo_poll_controller ran $hits times"
		else
			fail netpoll-poll-controller "ndo_poll_controller ($sym) never ran during $NC_MESSAGES netconsole messages (UDP flood ${rate:-failed} Mbit/s)"
		fi
	else
		fail netpoll-poll-controller "enabling the target failed: $(dmesg | grep -i netconsole | tail -2 | tr '\n' ' ')"
	fi
	rmdir "$nc_dir"
	kprobe_del netpoll
fi

# netpoll from hard-interrupt context: a timer interrupt on each CPU prints (tests/guest/irqprint)
# while TCP transmits from CPU 1 and `ethtool -S` loops on CPU 0, so netconsole's transmit (and
# poll) interrupt the driver's own transmit, poll and statistics paths, on the CPU that holds
# their locks. A lock taken there without interrupts disabled deadlocks the CPU; lockdep
# reports the lock's inconsistent use (the host fails the run on either). The host checks that
# every line arrived (netconsole-from-irq-delivered).
if [ "$drv" = e100 ]; then
	# e100.c takes cb_lock with a plain spin_lock in its transmit clean (softirq, interrupts on)
	# and netpoll's transmit takes it from the timer interrupt: lockdep reports "possible irq
	# lock inversion dependency" on &nic->cb_lock (console_owner -> target_list_lock ->
	# cb_lock), which would fail this boot's log check. A fault of the reference, not run.
	echo "@@INFO netconsole-from-irq: not run on e100 (lockdep reports its cb_lock as taken in hard-IRQ context by netpoll and with interrupts on in e100_tx_clean)"
elif ! begin netconsole-from-irq || ! mkdir "$nc_dir"; then
	fail netconsole-from-irq "no configfs netconsole"
else
	if nc_enable; then
		secs=$((IRQ_LINES / 100 + 4))
		taskset 2 iperf3 -c "$HOST" -p "$IPERF_PORT" -t "$secs" -f m >/tmp/irq-iperf.txt 2>&1 &
		bg=$!
		(
			n=0
			end=$(($(date +%s) + secs - 1))
			while [ "$(date +%s)" -lt "$end" ]; do ethtool -S "$ifc" >/dev/null && n=$((n + 1)); done
			echo "$n" >/tmp/irq-ethtool.txt
		) &
		loop=$!
		taskset -p 1 $loop >/dev/null
		sleep 1
		insmod /mods/irqprint.ko count="$IRQ_LINES" period_us=10000 tag="$drv"
		wait $bg
		wait $loop
		rmmod irqprint
		echo 0 >"$nc_dir/enabled"
		rate=$(iperf_rate "$(cat /tmp/irq-iperf.txt)")
		printed=$(dmesg | grep -c "e100test-irq tag=$drv cpu=[0-9]* seq=[0-9]* end")
		want=$((IRQ_LINES * $(nproc)))
		loops=$(cat /tmp/irq-ethtool.txt 2>/dev/null)
		if grep -q 'iperf Done' /tmp/irq-iperf.txt && [ "$printed" = "$want" ] && [ "${loops:-0}" -gt 0 ]; then
			pass netconsole-from-irq "$printed lines from timer interrupts on $(nproc) CPUs over netconsole while TCP sent ${rate:-?} Mbit/s and ethtool -S ran $loops times"
		else
			fail netconsole-from-irq "printed $printed of $want lines; iperf3: $(tail -2 /tmp/irq-iperf.txt | tr '\n' ' '); ethtool -S ran ${loops:-?} times"
		fi
		echo "@@IRQLINES $want"
	else
		fail netconsole-from-irq "enabling the target failed: $(dmesg | grep -i netconsole | tail -2 | tr '\n' ' ')"
	fi
	rmdir "$nc_dir"
fi

echo "@@ETHTOOL_S_BEGIN"
ethtool -S "$ifc"
echo "@@ETHTOOL_S_END"

# The driver goes away after all this traffic: down, unload, and nothing left behind (DMA-API
# debugging reports mappings still pending at release in the console log; kmemleak reports
# socket buffers or rings that were never freed).
begin down-and-rmmod-after-traffic
d=$(nic_pci)
ip link set "$ifc" down
if unload_driver "$drv" && [ -z "$(nic_if)" ] && [ ! -e "$d/driver" ]; then
	pass down-and-rmmod-after-traffic "$drv unloaded, $(basename "$d") unbound"
else
	fail down-and-rmmod-after-traffic "still bound: $(readlink "$d/driver")"
fi
kmemleak_check kmemleak-after-traffic
