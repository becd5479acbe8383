#!/bin/sh
# A board without an MII PHY (an 82503 serial interface or a Seeq 80C24 AutoDUPLEX adapter),
# on the harness QEMU with `-device i82559er,no-mii=on`: no address answers on the MDI bus and
# QEMU's EEPROM says "no such PHY" (word 6, type 0). e100.c then emulates the PHY registers
# instead of failing the probe, and configures the MAC for the 82503 serial interface; so must
# e100_rs. The link is reported up at 10 Mb/s, half duplex (nothing negotiated: the duplex is
# the adapter's, on its FDX# pin), and traffic flows.
# shellcheck disable=SC1091
. /tests/lib.sh

drv=$DRIVER
HOST=10.0.2.2

begin probe
dmesg -c >/dev/null
if ! load_driver "$drv" || ! ifc=$(nic_if) || [ -z "$ifc" ]; then
	fail probe "no interface: $(dmesg | grep -iE 'phy|e100' | tail -3 | tr '\n' ' ')"
	exit 1
fi
case "$drv" in
e100) want="found MII-less i82503 or 80c24 or other PHY" ;;
e100_rs) want="No MII PHY (no PHY per the EEPROM): 82503 serial interface" ;;
esac
said=$(dmesg | grep -F "$want" | head -1)
if [ -n "$said" ]; then
	pass probe "$ifc bound; ${said#*] }"
else
	fail probe "$ifc bound, but no '$want' in: $(dmesg | grep -iE 'phy|e100' | tail -3 | tr '\n' ' ')"
fi

begin link
lp_open || echo "@@INFO no control line to the model"
ip link set "$ifc" up
ip addr add 10.0.2.15/24 dev "$ifc"
wait_for 8 sh -c "ethtool $ifc 2>/dev/null | grep -q 'Link detected: yes'"
e=$(ethtool "$ifc" 2>&1)
speed=$(echo "$e" | sed -n 's/^[[:space:]]*Speed: //p')
duplex=$(echo "$e" | sed -n 's/^[[:space:]]*Duplex: //p')
det=$(echo "$e" | sed -n 's/^[[:space:]]*Link detected: //p')
# Configure byte 8 bit 0: 1 for an MII PHY, 0 for the 82503 serial interface.
b8=$(lpctl get mac-config | cut -d' ' -f9)
if [ "$speed" = 10Mb/s ] && [ "$duplex" = Half ] && [ "$det" = yes ] &&
	[ "$(cat "/sys/class/net/$ifc/carrier")" = 1 ] && [ "$b8" = 00 ]; then
	pass link "ethtool: $speed $duplex, link detected $det, carrier 1; Configure byte 8 = $b8 (82503 mode)"
else
	fail link "ethtool: speed '$speed' duplex '$duplex' link '$det', carrier $(cat "/sys/class/net/$ifc/carrier"); Configure byte 8 '$b8' (want 00)"
fi

begin ping
got=$(ping -c 3 -i 0.2 -W 2 "$HOST" | sed -n 's/.*, \([0-9]*\) packets received.*/\1/p')
if [ "$got" = 3 ]; then
	pass ping "3 of 3 pings to the host answered"
else
	fail ping "${got:-0} of 3 pings answered"
fi

if [ "$drv" = e100_rs ]; then
	# Nothing to set on the adapter's link: forcing a mode is refused and changes nothing.
	begin forced-100-refused
	err=$(ethtool -s "$ifc" speed 100 duplex full autoneg off 2>&1)
	rc=$?
	after=$(ethtool "$ifc" | sed -n 's/^[[:space:]]*Speed: //p')
	if [ "$rc" -ne 0 ] && [ "$after" = 10Mb/s ]; then
		pass forced-100-refused "ethtool -s speed 100 refused ($(echo "$err" | tr '\n' ' ')), still $after"
	else
		fail forced-100-refused "ethtool -s speed 100: exit $rc '$err', speed now '$after'"
	fi
fi

ip link set "$ifc" down
unload_driver "$drv"
