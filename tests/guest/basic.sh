#!/bin/sh
# Foundation suite: the driver loads, binds the i82559er, registers eth%d with QEMU's MAC,
# reports link, answers ethtool, and survives repeated unload/reload; after the last unload,
# kmemleak finds nothing the driver left behind. (The host scans the console log for kernel
# splats after QEMU exits.)
. /tests/lib.sh
drv=$DRIVER

kmemleak_baseline

# The guest's clock (no driver involved): the harness marks every guest's TSC reliable and gives
# it the host's rate (scripts/qemu-run.sh: tsc=reliable, tsc_early_khz=), so the TSC is the
# clocksource. Without tsc=reliable a two-vCPU guest takes its TSCs for unsynchronized (AMD's
# qemu64 model, two packages) and runs on jiffies, every boot: no high-resolution timers,
# timestamps in whole ticks. The kernel moves from tsc-early to tsc shortly after init starts.
begin guest-clock-tsc
khz=$(arg tsc_early_khz)
csf=/sys/devices/system/clocksource/clocksource0/current_clocksource
wait_for 10 grep -qx tsc "$csf" || true
cs=$(cat "$csf")
# A host without a constant TSC gives no rate (the guest calibrates its own): the clocksource
# must be tsc all the same.
if [ "$cs" != tsc ]; then
	fail guest-clock-tsc "tsc=$(arg tsc) tsc_early_khz=${khz:-(none)} given, clocksource is $cs"
else
	pass guest-clock-tsc "clocksource tsc; the harness gave tsc=$(arg tsc) tsc_early_khz=${khz:-(none: calibrated)}"
fi

# The modules as a package installs them (scripts/initramfs.sh: make modules_install): depmod
# rebuilds the indexes here, modinfo shows what the module declares, and this suite loads the
# in-tree build by name with modprobe (every other suite insmods the out-of-tree one).
LOAD=modprobe
rel=$(uname -r)
mdir=/lib/modules/$rel
begin depmod
rm -f "$mdir"/modules.dep "$mdir"/modules.dep.bin "$mdir"/modules.alias "$mdir"/modules.alias.bin
nic_alias=$(cat "$(nic_pci)/modalias")
if ! out=$(depmod 2>&1); then
	fail depmod "depmod failed: $out"
elif ! dep=$(grep "/$drv.ko:" "$mdir/modules.dep"); then
	fail depmod "$drv.ko is not in modules.dep"
elif [ "$drv" = e100 ] && ! echo "$dep" | grep -q 'mii.ko'; then
	fail depmod "e100 does not depend on mii: $dep"
elif ! modprobe -R "$nic_alias" 2>/dev/null | grep -qx "$drv"; then
	fail depmod "the NIC's modalias $nic_alias resolves to '$(modprobe -R "$nic_alias" 2>&1 | tr '\n' ' ')'"
else
	pass depmod "$(modprobe --version | head -1): $dep; the NIC's modalias resolves to $(modprobe -R "$nic_alias" | tr '\n' ' ')"
fi

begin modinfo
mi=/tmp/modinfo.$drv
modinfo "$drv" >"$mi" 2>&1
bad=
f=$(modinfo -F filename "$drv" 2>&1)
[ "$f" = "$mdir/kernel/drivers/net/ethernet/intel/$([ "$drv" = e100_rs ] && echo e100_rs/)$drv.ko" ] || bad="$bad [filename $f]"
[ "$(modinfo -F intree "$drv")" = Y ] || bad="$bad [not intree]"
lic=$(modinfo -F license "$drv")
case "$drv $lic" in "e100_rs GPL" | "e100 GPL v2") ;; *) bad="$bad [license $lic]" ;; esac
na=$(modinfo -F alias "$drv" | grep -c '^pci:v00008086d0000....sv\*sd\*bc02sc00i\*$')
[ "$na" = 42 ] || bad="$bad [$na PCI aliases, want e100.c's 42]"
modinfo -F alias "$drv" | sed 's/^pci:v\(........\)d\(........\).*/\1 \2/' | grep -qix "00008086 0000$(sed 's/^0x//' "$(nic_pci)/device")" ||
	bad="$bad [no alias for the NIC's device ID]"
fw=$(modinfo -F firmware "$drv" | sort | tr '\n' ' ')
[ "$fw" = "e100/d101m_ucode.bin e100/d101s_ucode.bin e100/d102e_ucode.bin " ] || bad="$bad [firmware: $fw]"
# Every parameter has a description; each integer one of ours states its range (e100.c's
# use_io and eeprom_bad_csum_allow do not).
np=$(modinfo -F parm "$drv" | wc -l)
[ "$np" -ge 3 ] || bad="$bad [$np parameters]"
modinfo -F parm "$drv" | while IFS= read -r p; do
	desc=${p#*:}
	case "$drv $p" in
	"e100_rs "*"(int)" | "e100_rs "*"(uint)") echo "$desc" | grep -qE '[0-9]+ *(-|=|\.\.\.)' || echo "[$p: no range]" ;;
	esac
	[ -n "${desc% (*)}" ] || echo "[$p: no description]"
done >/tmp/parm.bad
bad="$bad$(tr '\n' ' ' </tmp/parm.bad)"
if [ "$drv" = e100_rs ]; then
	[ -n "$(modinfo -F version "$drv")" ] || bad="$bad [no version]"
	# The same devices and firmware as the reference.
	[ "$(modinfo -F alias e100_rs | sort)" = "$(modinfo -F alias e100 | sort)" ] || bad="$bad [aliases differ from e100's]"
	[ "$(modinfo -F firmware e100_rs | sort)" = "$(modinfo -F firmware e100 | sort)" ] || bad="$bad [firmware differs from e100's]"
fi
if [ -z "$bad" ]; then
	pass modinfo "$na PCI aliases, firmware $fw, $np parameters, license $lic, intree$([ "$drv" = e100_rs ] && echo ", version $(modinfo -F version "$drv"), as e100's aliases and firmware")"
else
	cat "$mi"
	fail modinfo "$bad"
fi

check module-loads load_driver "$drv"
begin module-in-tree
t=$(cat "/sys/module/$drv/taint" 2>&1)
if [ -e "/sys/module/$drv" ] && [ -z "$t" ]; then
	pass module-in-tree "loaded by modprobe from $mdir, no taint (an out-of-tree module would be O)"
else
	fail module-in-tree "taint '$t' (O: the out-of-tree build was loaded)"
fi

begin device-bound
d=$(nic_pci)
bound=$(basename "$(readlink "$d/driver" 2>/dev/null)" 2>/dev/null)
if [ "$bound" = "$drv" ]; then pass device-bound "$(basename "$d") -> $bound"; else fail device-bound "$(basename "$d") bound to '$bound'"; fi

begin netdev-registered
ifc=$(nic_if)
if [ -n "$ifc" ]; then pass netdev-registered "$ifc"; else fail netdev-registered "no interface under $d/net"; fi
begin netdev-named-eth
case "$ifc" in eth[0-9]*) pass netdev-named-eth "$ifc" ;; *) fail netdev-named-eth "'$ifc'" ;; esac

begin mac-matches-qemu
addr=$(cat "/sys/class/net/$ifc/address" 2>/dev/null)
if [ "$addr" = "$MAC" ]; then pass mac-matches-qemu "$addr"; else fail mac-matches-qemu "got '$addr', QEMU mac=$MAC"; fi

begin link-up
ip link set "$ifc" up
if wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier"; then
	pass link-up "carrier=1 operstate=$(cat /sys/class/net/$ifc/operstate)"
else
	fail link-up "carrier=$(cat /sys/class/net/$ifc/carrier 2>&1) after 10 s"
fi
napi_mode "$ifc"
begin ethtool-link-detected
if ethtool "$ifc" | grep -q 'Link detected: yes'; then pass ethtool-link-detected; else fail ethtool-link-detected "$(ethtool "$ifc" 2>&1 | tail -3 | tr '\n' ' ')"; fi

begin ethtool-i-driver
info=$(ethtool -i "$ifc" 2>&1)
if echo "$info" | grep -qx "driver: $drv"; then pass ethtool-i-driver "$(echo "$info" | head -1)"; else fail ethtool-i-driver "$(echo "$info" | tr '\n' ' ')"; fi
begin ethtool-i-bus-info
bus=$(echo "$info" | sed -n 's/^bus-info: //p')
if [ "$bus" = "$(basename "$d")" ]; then pass ethtool-i-bus-info "$bus"; else fail ethtool-i-bus-info "'$bus'"; fi

# MII ioctls (as mii-tool uses): the PHY's ID and status through SIOCGMIIPHY/SIOCGMIIREG.
begin mii-ioctl
id1=$(/bin/miireg "$ifc" 2 2>&1) id2=$(/bin/miireg "$ifc" 3 2>&1) bmsr=$(/bin/miireg "$ifc" 1 2>&1)
if [ "$id1" = "phy=1 reg=2 val=0x02a8" ] && [ "$id2" = "phy=1 reg=3 val=0x0154" ] && echo "$bmsr" | grep -q 'val=0x782d'; then
	pass mii-ioctl "PHY 1: ID 0x02a8:0x0154, BMSR 0x782d"
else
	fail mii-ioctl "$id1 / $id2 / $bmsr"
fi

# The EEPROM as ethtool dumps it: 64 words on QEMU, summing to 0xBABA, MAC in words 0-2.
begin ethtool-e-eeprom
ee=/tmp/eeprom.bin
if ethtool -e "$ifc" raw on >"$ee" 2>/tmp/ee.err; then
	len=$(wc -c <"$ee")
	sum=$(od -An -tu2 -v "$ee" | tr -s ' ' '\n' | awk 'NF{s=(s+$1)%65536} END{printf "0x%04x", s}')
	mac=$(od -An -tx1 -N6 -v "$ee" | tr -s ' ' | sed 's/^ //; s/ /:/g')
	if [ "$len" = 128 ] && [ "$sum" = 0xbaba ] && [ "$mac" = "$MAC" ]; then
		pass ethtool-e-eeprom "$len bytes, sum $sum, MAC $mac"
	else
		fail ethtool-e-eeprom "$len bytes, sum $sum, MAC $mac"
	fi
else
	fail ethtool-e-eeprom "$(cat /tmp/ee.err)"
fi

# Ten unload/reload cycles, each with the interface up.
begin reload-cycles
ok=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	unload_driver "$drv" || { fail reload-cycles "rmmod failed on cycle $i"; break; }
	[ -z "$(nic_if)" ] || { fail reload-cycles "interface still present after rmmod $i"; break; }
	load_driver "$drv" || { fail reload-cycles "insmod failed on cycle $i"; break; }
	ifc=$(nic_if)
	[ -n "$ifc" ] || { fail reload-cycles "no interface after insmod $i"; break; }
	ip link set "$ifc" up
	wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier" || { fail reload-cycles "no carrier on cycle $i"; break; }
	ok=$i
done
[ "$ok" = 10 ] && pass reload-cycles "10 rmmod/insmod cycles"

# The last unload, then nothing the driver allocated may be left unreferenced.
begin final-unload
ip link set "$ifc" down
if unload_driver "$drv" && [ -z "$(nic_if)" ] && [ ! -e "$d/driver" ]; then
	pass final-unload "$drv removed, $(basename "$d") unbound"
else
	fail final-unload "driver still bound: $(readlink "$d/driver")"
fi
kmemleak_check kmemleak-after-unload
