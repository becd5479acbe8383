#!/bin/sh
# Two guests joined by a QEMU dgram link on 127.0.0.1 (no user networking): the "server" guest
# runs iperf3 -s, the "client" guest measures TCP both ways against it. Addresses are IPv4
# link-local, which exist only on that emulated wire.
. /tests/lib.sh
drv=$DRIVER
role=$(arg e100test.role)
load_driver "$drv" || { fail pair-setup "insmod $drv failed"; exit 1; }
ifc=$(nic_if)
ip link set lo up
ip link set "$ifc" up
wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier" || fail pair-setup "no carrier"
if [ "$role" = server ]; then
	ip addr add 169.254.100.1/24 dev "$ifc"
	# Two client runs (one each way), then exit; bounded by the host's QEMU timeout.
	if iperf3 -s -1 >/tmp/s1.txt 2>&1 && iperf3 -s -1 >/tmp/s2.txt 2>&1; then
		pass pair-server-done "served two iperf3 runs"
	else
		fail pair-server-done "$(tail -2 /tmp/s1.txt /tmp/s2.txt 2>&1 | tr '\n' ' ')"
	fi
else
	ip addr add 169.254.100.2/24 dev "$ifc"
	if ! wait_for 60 ping -c 1 -W 1 169.254.100.1; then
		fail pair-reach "no reply from the server guest in 60 s"
		exit 1
	fi
	pass pair-reach "server guest answers ping"
	for dir in "" -R; do
		# The server needs a moment to listen again after the first run.
		out=""
		for try in 1 2 3 4 5; do
			out=$(iperf3 -c 169.254.100.1 -t 10 -f m $dir 2>&1) && break
			sleep 1
		done
		rate=$(echo "$out" | grep ' receiver$' | tail -1 | awk '{for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") print $(i-1)}')
		name=iperf-tcp-guest-to-guest${dir:+-reverse}
		if [ -n "$rate" ]; then
			echo "@@METRIC $name.mbps $rate $(iperf_intervals "$out")"
			pass "$name" "$rate Mbit/s"
		else
			fail "$name" "$(echo "$out" | tail -2 | tr '\n' ' ')"
		fi
	done
fi
splats=$(kernel_splats)
if [ -z "$splats" ]; then pass no-kernel-splats "dmesg clean"; else fail no-kernel-splats "$(echo "$splats" | head -5 | tr '\n' '|')"; fi
