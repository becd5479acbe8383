#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An ICH4/ICH5 board with ASF management and the 82552 PHY, on the harness QEMU's i82801 with
# pci-device-id=0x1050 (an 82562 on ICH5), eeprom-asf=on (EEPROM word 0x0D: ASF on, GCL off)
# and phy-id=0xd061004d (the 82552). Checks what e100.c does on such a board: every MDIO
# write, an SIOCSMIIREG one included, goes through the 82552's BMCR hook (an autonegotiation
# restart also carries the best advertised speed and duplex), and the ASF board keeps wake-up
# armed at a power-off (e100_rs says so at the reboot that ends this suite: scripts/test.sh).
# shellcheck disable=SC1091
. /tests/lib.sh

drv=$DRIVER
HOST=10.0.2.2
mii() { /bin/miireg "$ifc" "$@" | sed -n 's/.*val=//p'; }

begin probe
dmesg -c >/dev/null
if ! load_driver "$drv" || ! ifc=$(nic_if) || [ -z "$ifc" ]; then
	fail probe "no interface: $(dmesg | grep -iE 'phy|e100' | tail -3 | tr '\n' ' ')"
	exit 1
fi
dev=$(cat "$(nic_pci)/device")
id="$(mii 2):$(mii 3)"
said=$(dmesg | grep -E 'e100_rs .* rev ' | head -1)
if [ "$dev" != 0x1050 ] || [ "$id" != 0x004d:0xd061 ]; then
	fail probe "device $dev, PHY ID $id (want 0x1050, 0x004d:0xd061: the model's properties)"
elif [ "$drv" = e100_rs ] && ! echo "$said" | grep -q ', ASF;'; then
	fail probe "$ifc bound, but the probe line does not say ASF: ${said#*] }"
else
	pass probe "$ifc bound to 8086:$dev, PHY ID $id (82552)${said:+; ${said#*] }}"
fi

ip link set "$ifc" up
ip addr add 10.0.2.15/24 dev "$ifc"
wait_for 8 sh -c "ethtool $ifc 2>/dev/null | grep -q 'Link detected: yes'"

begin mii-write-82552-hook
# ADVERTISE has 100/full (0x05e1): a BMCR write of ANENABLE|ANRESTART through SIOCSMIIREG must
# reach the PHY with SPEED100|FULLDPLX added (BMCR bits 13 and 8); restart clears itself.
adv=$(mii 4)
/bin/miireg "$ifc" 0 0x1200 >/dev/null
bmcr=$(mii 0)
if [ -n "$bmcr" ] && [ $((bmcr & 0x2100)) -eq $((0x2100)) ] && [ $((bmcr & 0x1000)) -ne 0 ]; then
	pass mii-write-82552-hook "ADVERTISE $adv; BMCR written 0x1200, reads $bmcr: 100/full added by the hook"
else
	fail mii-write-82552-hook "ADVERTISE $adv; BMCR written 0x1200, reads '$bmcr' (want bits 0x3100)"
fi

begin slow-scb-bring-up
# A chip slow to take SCB commands (the model's scb-delay-us: 50 ms each, within e100.c's
# E100_WAIT_SCB_TIMEOUT of 100 ms): the bring-up must wait for it, not fail.
lp_open || echo "@@INFO no control line to the model"
ip link set "$ifc" down
prev=$(lpctl get scb-delay-us)
lpctl set scb-delay-us 50000 >/dev/null
t0=$(uptime_cs)
ip link set "$ifc" up 2>/tmp/up.err
rc=$?
t1=$(uptime_cs)
lpctl set scb-delay-us "${prev:-0}" >/dev/null
if [ "$rc" = 0 ] && wait_for 10 sh -c "ethtool $ifc 2>/dev/null | grep -q 'Link detected: yes'" &&
	wait_for 10 ping -c 1 -W 1 "$HOST" >/dev/null; then
	pass slow-scb-bring-up "ip link set up with each SCB command taken 50 ms late: up in $((t1 - t0))0 ms, link and ping after"
else
	fail slow-scb-bring-up "ip link set up: exit $rc ($(tr -d '\n' </tmp/up.err)); $(dmesg | grep -iE 'e100' | tail -2 | tr '\n' ' ')"
fi

begin ping
wait_for 8 sh -c "ethtool $ifc 2>/dev/null | grep -q 'Link detected: yes'"
got=$(ping -c 3 -i 0.2 -W 2 "$HOST" | sed -n 's/.*, \([0-9]*\) packets received.*/\1/p')
if [ "$got" = 3 ]; then
	pass ping "3 of 3 pings to the host answered"
else
	fail ping "${got:-0} of 3 pings answered"
fi

# Wake-on-LAN off: what the shutdown hook says of wake-up is ASF's alone.
ethtool -s "$ifc" wol d 2>/dev/null
ethtool -s "$ifc" msglvl wol on 2>/dev/null
echo "@@SHUTDOWN expected driver=$drv asf=on"
