#!/bin/sh
# Data-path suite: ping, TCP/UDP throughput and bulk integrity against the host, receive-mode
# changes under traffic, MAC change, TX ring wrap, and counters. The host side (iperf3 server,
# bulk data server) listens on 127.0.0.1, reached from the guest as 10.0.2.2 through QEMU user
# networking.
. /tests/lib.sh
drv=$DRIVER
HOST=10.0.2.2

load_driver "$drv" || { fail traffic-setup "insmod $drv failed"; exit 1; }
ifc=$(nic_if)
ip link set lo up
ip link set "$ifc" up
ip addr add 10.0.2.15/24 dev "$ifc"
ip route add default via "$HOST"
wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier" || fail traffic-setup "no carrier"

# 200 pings, sizes 0..1472 spread over the range, 0% loss.
lost=0 sent=0
i=0
while [ $i -lt 200 ]; do
	size=$(( (i * 1472) / 199 ))
	if ! ping -c 1 -W 2 -s "$size" "$HOST" >/dev/null 2>&1; then lost=$((lost + 1)); fi
	sent=$((sent + 1))
	i=$((i + 1))
done
if [ "$lost" = 0 ]; then pass ping-200-sizes "$sent pings, sizes 0..1472, 0 lost"; else fail ping-200-sizes "$lost of $sent lost"; fi
