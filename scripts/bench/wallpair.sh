#!/bin/sh
# The benchmark's guest-to-guest rounds (scripts/bench.sh): two guests of the same driver on a
# QEMU dgram link. The server (e100test.role=server) serves two iperf3 runs; the client measures
# TCP to it and from it, "@@BENCH M pair-tx-mbps|pair-rx-mbps <value>".
# shellcheck disable=SC1091
. /tests/lib.sh

drv=$DRIVER
role=$(arg e100test.role)
SERVER=169.254.100.1
T=5
load_driver "$drv" || { echo "@@BENCH ERROR insmod $drv failed"; exit 1; }
ifc=$(nic_if)
ip link set lo up
if [ "$role" = server ]; then me=$SERVER; else me=169.254.100.2; fi
ip addr add "$me/16" dev "$ifc"
ip link set "$ifc" up
# e100test.threaded=0|1 (bench.sh --napi): NAPI in softirq or in its own thread.
threaded=$(arg e100test.threaded)
[ -z "$threaded" ] || echo "$threaded" >"/sys/class/net/$ifc/threaded"
# e100test.gro=off (bench.sh --gro off): the interface's GRO off.
[ "$(arg e100test.gro)" != off ] || ethtool -K "$ifc" gro off
wait_for 15 grep -qx 1 "/sys/class/net/$ifc/carrier" || { echo "@@BENCH ERROR no link"; exit 1; }

if [ "$role" = server ]; then
	# Two one-off servers, one per client run; bounded in time if the client never comes.
	for run in 1 2; do
		timeout 120 iperf3 -s -1 >/dev/null 2>&1
	done
	echo "@@BENCH DONE"
	exit 0
fi
wait_for 60 ping -c 1 -W 1 "$SERVER" >/dev/null || { echo "@@BENCH ERROR the server guest does not answer"; exit 1; }
# As the single-guest rounds report them (wall.sh): this guest's GRO and clocksource.
echo "@@BENCH M pair-gro $([ "$(gro_state "$ifc")" = on ] && echo 1 || echo 0)"
echo "@@BENCH M pair-clocksource-tsc $(clock_is_tsc)"
sleep 1
out=$(iperf3 -c "$SERVER" -t "$T" -f m 2>&1)
r=$(iperf_rate "$out")
[ -n "$r" ] && echo "@@BENCH M pair-tx-mbps $r" || echo "@@BENCH ERROR pair-tx: $(echo "$out" | tail -1)"
sleep 2
out=$(iperf3 -c "$SERVER" -t "$T" -f m -R 2>&1)
r=$(iperf_rate "$out")
[ -n "$r" ] && echo "@@BENCH M pair-rx-mbps $r" || echo "@@BENCH ERROR pair-rx: $(echo "$out" | tail -1)"
echo "@@BENCH DONE"
