#!/bin/sh
# An 82557 (QEMU's i82557b: PCI revision 2, e100.c's mac_82557_D100_C), on the harness QEMU:
# what that generation lacks and needs. It cannot receive a frame longer than 1518 bytes, so
# the interface is VLAN-challenged (as e100.c makes it); and e100.c re-issues the multicast
# list every watchdog period there, to work around the chip's multicast lock-up, which e100_rs
# must do too (the model counts the Multicast Setup commands the CU runs).
# shellcheck disable=SC1091
. /tests/lib.sh

drv=$DRIVER
HOST=10.0.2.2
kmemleak_baseline
begin probe
if ! load_driver "$drv" || [ -z "$(nic_if)" ]; then
	fail probe "no interface: $(dmesg | tail -3 | tr '\n' ' ')"
	exit 1
fi
ifc=$(nic_if)
said=$(dmesg | grep -E "^$drv .*$ifc: " | grep -m1 -E '82557|Intel')
[ "$drv" = e100 ] && said=$(dmesg | grep -m1 -E '^e100 .*(PCI|Intel|82557)' || true)
pass probe "$ifc: ${said:-bound}"
ip link set "$ifc" up
ip addr add 10.0.2.15/24 dev "$ifc"
lp_open && lp_partner autoneg:0x05e1 >/dev/null || echo "@@INFO no control line to the model"
wait_for 15 grep -qx 1 "/sys/class/net/$ifc/carrier"

begin vlan-challenged
k=$(ethtool -k "$ifc" | grep '^vlan-challenged:')
if [ "$k" = "vlan-challenged: on [fixed]" ]; then
	pass vlan-challenged "$k"
else
	fail vlan-challenged "ethtool -k says '${k:-nothing}'"
fi

begin ping
if ping -c 3 -W 2 "$HOST" >/dev/null; then pass ping "3 answered"; else fail ping "no answer"; fi

# No receive-mode change in between: every Multicast Setup the CU runs is the workaround's.
begin multicast-lockup-workaround
cu_field() { echo "$2" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
m0=$(cu_field mc_setups "$(lpctl get cu)")
sleep 6.5
m1=$(cu_field mc_setups "$(lpctl get cu)")
n=$((m1 - m0))
if [ "$n" -ge 2 ]; then
	pass multicast-lockup-workaround "$n Multicast Setup commands in 6.5 s with no receive-mode change (one a watchdog period)"
else
	fail multicast-lockup-workaround "$n Multicast Setup commands in 6.5 s ($m0 -> $m1): the list is not re-issued every period"
fi

ip link set "$ifc" down
unload_driver "$drv"
kmemleak_check kmemleak-after-unload
