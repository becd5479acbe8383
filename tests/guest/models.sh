#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every 8255x model QEMU 7.2 has, in one guest, each NIC on a user-networking backend of its own
# (scripts/qemu-run.sh --extra-nic; scripts/test.sh's `models` reads the table below for the
# models and their MACs), on the system's QEMU: one driver bound to 13 devices, which share the
# machine's four INTx lines. Per model: the probe (PCI identity and the driver's probe line),
# traffic both ways (ping, and a TCP transfer each way checked by SHA-256 at both ends, through
# that NIC's own counters), the microcode its revision takes, wake-on-LAN support, automatic
# MDI/MDI-X, the 82557's VLAN limit; and on the i82801, e100.c's ICH paths.
#
# What is expected follows the PCI revision, not the model's name, as e100.c maps it:
# nic->mac = revision (82557 A/B/C = 0-2, 82558 A4/B0 = 4/5, 82559 D101M/D101S = 8/9,
# 82550 = 12/13, 82551 E/F/10 = 14/15/16), except that an ICH part (driver_data != 0 in
# e100.c's ID table, as 0x2449) is taken as the 82559 D101M whatever its revision. The
# revisions 3, 6 and 7 have no name in e100.c; its ordered comparisons treat 3 as an 82557
# (below 82558 A4) and 6, 7 as 82558s (at least A4, below D101M); e100_rs names them so.
# Revisions and device IDs: QEMU 7.2's hw/net/eepro100.c, e100_devices[] (the model names
# i82559c, i82550 and i82562 do not match what their revisions say; i82550 and i82562 are the
# same PCI function, told apart here by MAC).
#
# Columns: QEMU model, PCI device, PCI revision, e100.c's MAC type (nic->mac), the generation
# e100_rs's probe line names, microcode (none, optional:BLOB or required:BLOB: e100.c's
# e100_request_firmware: 8 d101m and 9 d101s optional, 15/16 d102e required, none for ICH
# parts), "Supports Wake-on" (g from the 82558 A4 on, where the PCI PM capability lets the
# device wake; QEMU gives the 82557s none; e100_rs says d for revision 9, the 82559ER, which
# cannot wake on a magic packet: hw.rs's wol_capable), vlan-challenged (below the 82558 A4),
# ICH, MAC. Automatic MDI/MDI-X (NCONFIG 0x1c = 0x80 written at bring-up) follows e100.c's
# rule: from the 82550 (mac 12) on, or an ICH part whose PHY says it can (TPISTATUS bit 15),
# which QEMU's PHY never does (it answers registers 0-6 only): so the i82801 gets none.
# The first row is the guest's first NIC (n0), the others --extra-nic n1..n12, in this order.
MODELS='
i82557a  0x1229 0x01  1 82557 none           d on  0 52:54:00:e1:00:01
i82557b  0x1229 0x02  2 82557 none           d on  0 52:54:00:e1:00:02
i82557c  0x1229 0x03  3 82557 none           d on  0 52:54:00:e1:00:03
i82558a  0x1229 0x04  4 82558 none           g off 0 52:54:00:e1:00:04
i82558b  0x1229 0x05  5 82558 none           g off 0 52:54:00:e1:00:05
i82559a  0x1229 0x06  6 82558 none           g off 0 52:54:00:e1:00:06
i82559b  0x1229 0x07  7 82558 none           g off 0 52:54:00:e1:00:07
i82559c  0x1229 0x0c 12 82550 none           g off 0 52:54:00:e1:00:08
i82559er 0x1209 0x09  9 82559 optional:d101s g off 0 52:54:00:e1:00:09
i82550   0x1209 0x0e 14 82551 none           g off 0 52:54:00:e1:00:0a
i82551   0x1209 0x0f 15 82551 required:d102e g off 0 52:54:00:e1:00:0b
i82562   0x1209 0x0e 14 82551 none           g off 0 52:54:00:e1:00:0c
i82801   0x2449 0x03  8 82559 none           g off 1 52:54:00:e1:00:0d
'
# shellcheck disable=SC1091
. /tests/lib.sh
drv=$DRIVER
HOST=10.0.2.2
HTTP_PORT=$(arg e100test.http)
SINK_PORT=$(arg e100test.sink)
# MiB moved each way per NIC (lib.sh's down_start/up_start).
MIB=1
NMODELS=$(echo "$MODELS" | grep -c '^i8')

# Microcode: the required D102E blob is at hand (the initramfs's synthetic one, which QEMU
# accepts: it completes the load command without looking), the optional D101S and D101M are
# not, so the i82559er shows the optional path (CPUSaver off, the interface works) and the
# i82551 the required one (loaded).
FW=/lib/firmware/e100
mkdir -p "$FW"
rm -f "$FW"/*
cp /lib/firmware-test/e100/d102e_ucode.bin "$FW/"

kmemleak_baseline

# Every firmware request, with the file and the device asking (dev_name: the name of the
# struct device's kobject, its first member): e100.c asks with request_firmware, e100_rs with
# request_firmware for a required blob and firmware_request_nowarn for an optional one.
fwtrace=ok
for f in request_firmware firmware_request_nowarn; do
	kprobe_add_kernel "fw_$f" "$f name=+0(%si):string dev=+0(+0(%dx)):string" 2>/tmp/kp.err ||
		fwtrace="no kprobe on $f: $(cat /tmp/kp.err)"
done
fw_clear() { : >"$TRACING/trace"; }
# fw_requests BDF: the files BDF asked for since fw_clear, one a line.
fw_requests() {
	sed -n 's/.* fw_[a-z_]*: .*name="\([^"]*\)" dev="\([^"]*\)".*/\2 \1/p' "$TRACING/trace" |
		awk -v d="$1" '$1 == d {print $2}'
}

# The interface with MAC (none if no interface has it).
if_of() {
	for a in /sys/class/net/*/address; do
		[ "$(cat "$a")" = "$1" ] && basename "$(dirname "$a")" && return 0
	done
	return 1
}

begin all-bound
dmesg -c >/tmp/boot.dmesg
if ! load_driver "$drv"; then
	fail all-bound "loading $drv failed: $(dmesg | tail -3 | tr '\n' ' ')"
	exit 1
fi
# Every MDI write, with its register and value (the driver's one MDI transaction function:
# e100.c's mdio_ctrl_hw(nic, addr, dir, reg, data), e100_rs's mdi_transact(io, dir, addr, reg,
# data); dir 0x04000000 is a write), for the MDI-X check at each open.
if [ "$drv" = e100 ]; then
	mdiprobe=$(kprobe_add mdi e100 '^mdio_ctrl_hw$' 'dir=%dx:x32 reg=%cx:x32 data=%r8:x16' 2>&1)
else
	mdiprobe=$(kprobe_add mdi e100_rs 'mdi_transact$' 'dir=%si:x32 reg=%cx:x8 data=%r8:x16' 2>&1)
fi
[ -d "$TRACING/events/e100test/mdi" ] && mdiprobe=ok
# mdix_writes: the values written to NCONFIG (0x1c) since fw_clear, one a line.
mdix_writes() { sed -n 's/.* mdi: .* dir=0x4000000 reg=0x1c data=\(0x[0-9a-f]*\).*/\1/p' "$TRACING/trace"; }
# Every SCB command the driver issues (e100.c's e100_exec_cmd(nic, cmd, dma_addr), e100_rs's
# rings::exec_cmd(io, cmd, ptr)): the CU NOPs (command 0) of the ICH's 10/half workaround, which
# neither issues otherwise.
if [ "$drv" = e100 ]; then
	cmdprobe=$(kprobe_add cucmd e100 '^e100_exec_cmd$' 'cmd=%si:x8' 2>&1)
else
	cmdprobe=$(kprobe_add cucmd e100_rs 'rings8exec_cmd$' 'cmd=%si:x8' 2>&1)
fi
[ -d "$TRACING/events/e100test/cucmd" ] && cmdprobe=ok
# Probes run in the module load; give stragglers a moment.
wait_for 10 sh -c "[ \$(ls -d /sys/bus/pci/drivers/$drv/0000:* 2>/dev/null | wc -l) -ge $NMODELS ]" || true
dmesg -c >/tmp/probe.dmesg
nics=0 bound=0 others=""
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x8086 ] || continue
	case "$(cat "$d/device")" in 0x1229 | 0x1209 | 0x2449) ;; *) continue ;; esac
	nics=$((nics + 1))
	b=$(basename "$(readlink "$d/driver" 2>/dev/null)" 2>/dev/null)
	if [ "$b" = "$drv" ]; then bound=$((bound + 1)); else others="$others $(basename "$d")->${b:-none}"; fi
done
found=0 missing=""
for mac in $(echo "$MODELS" | awk '/^i8/ {print $10}'); do
	if [ -n "$(if_of "$mac")" ]; then found=$((found + 1)); else missing="$missing $mac"; fi
done
irqs=$(for d in /sys/bus/pci/drivers/"$drv"/0000:*; do cat "$d/irq"; done 2>/dev/null | sort -un | tr '\n' ' ')
if [ "$nics" = "$NMODELS" ] && [ "$bound" = "$NMODELS" ] && [ "$found" = "$NMODELS" ]; then
	pass all-bound "$NMODELS 8255x functions bound to $drv, an interface for each MAC of the table; IRQs shared: $irqs"
else
	fail all-bound "$nics 8255x functions (want $NMODELS), $bound bound to $drv${others:+ (others:$others)}, $found of $NMODELS MACs have an interface${missing:+ (missing:$missing)}"
fi

# The part of a log that is about interface IFC of PCI function BDF.
about() { grep -F -e " $2 $1: " -e " $2: " "$3"; }

# traffic NAME NOPS: ping, then MIB MiB each way over TCP, through $ifc's own byte counters (the
# interface of the model under test); NOPS "none": no CU NOP issued meanwhile, "each": one at
# least for each frame sent (the ICH's 10/half workaround).
traffic() {
	begin "$1"
	st=/sys/class/net/$ifc/statistics
	rx0=$(cat "$st/rx_bytes") tx0=$(cat "$st/tx_bytes") p0=$(cat "$st/tx_packets")
	: >"$TRACING/trace"
	if ! ping -c 5 -i 0.2 -W 3 "$HOST" >/tmp/ping.out 2>&1 ||
		! grep -q ' 5 packets received' /tmp/ping.out; then
		fail "$1" "ping $HOST: $(tail -2 /tmp/ping.out | tr '\n' ' ')"
		return
	fi
	down_start "$MIB"
	down_check
	d=$res
	up_start "$MIB"
	up_check
	u=$res
	rxd=$(($(cat "$st/rx_bytes") - rx0)) txd=$(($(cat "$st/tx_bytes") - tx0))
	pd=$(($(cat "$st/tx_packets") - p0))
	nops=$(grep -c ' cucmd: .* cmd=0x0$' "$TRACING/trace")
	# The probe fires: the transmits' CU Start/Resume commands at least.
	cmds=$(grep -c ' cucmd: ' "$TRACING/trace")
	n=$((MIB * 1048576))
	case "$2" in
	none) [ "$nops" = 0 ] && nopbad="" || nopbad="$nops CU NOPs issued at a rate without the workaround" ;;
	each) [ "$nops" -ge "$pd" ] && nopbad="" || nopbad="$nops CU NOPs for $pd frames sent (want one a frame)" ;;
	esac
	[ "$cmds" -gt 0 ] || nopbad="the probe saw no SCB command"
	[ "$cmdprobe" = ok ] || nopbad="no probe on the SCB commands: $cmdprobe"
	case "$d $u" in
	"ok "*" ok "*)
		if [ -n "$nopbad" ]; then
			fail "$1" "transfers intact, but $nopbad"
		elif [ "$rxd" -ge "$n" ] && [ "$txd" -ge "$n" ]; then
			pass "$1" "$ifc: 5/5 pings; $MIB MiB each way over TCP, SHA-256 equal at both ends; rx_bytes +$rxd, tx_bytes +$txd; $nops CU NOPs for $pd frames sent ($cmds SCB commands)"
		else
			fail "$1" "transfers intact, but $ifc counted rx_bytes +$rxd, tx_bytes +$txd (want >= $n each)"
		fi
		;;
	*) fail "$1" "$ifc: download: $d; upload: $u" ;;
	esac
}

echo "$MODELS" | grep '^i8' >/tmp/models.tab
while read -r model dev rev mac gen ucode wol vlan ich macaddr <&3; do
	ifc=$(if_of "$macaddr")
	# --- probe: PCI identity, bound, the driver's probe line ---
	begin "$model-probe"
	if [ -z "$ifc" ]; then
		fail "$model-probe" "no interface has $macaddr"
		for t in traffic microcode wol mdix vlan; do begin "$model-$t"; fail "$model-$t" "no interface"; done
		[ "$ich" = 0 ] || { begin "$model-ich-10half"; fail "$model-ich-10half" "no interface"; }
		continue
	fi
	pd=$(readlink -f "/sys/class/net/$ifc/device")
	bdf=$(basename "$pd")
	gdev=$(cat "$pd/device") grev=$(cat "$pd/revision")
	gdrv=$(basename "$(readlink "$pd/driver")")
	if [ "$drv" = e100 ]; then
		# e100.c names no generation: its line gives the BAR, the IRQ and the MAC.
		line=$(about "$ifc" "$bdf" /tmp/probe.dmesg | grep -m1 -E ": addr 0x[0-9a-f]+, irq [0-9]+, MAC addr $macaddr\$")
	else
		# On stock QEMU (DMI says so) the line ends in the workarounds being on.
		line=$(about "$ifc" "$bdf" /tmp/probe.dmesg | grep -m1 -E ": $gen rev $mac, [0-9]+ EEPROM words, PHY .*, MAC addr $macaddr; QEMU's model \(DMI\): its workarounds on\$")
	fi
	if [ "$gdev" != "$dev" ] || [ "$grev" != "$rev" ]; then
		fail "$model-probe" "$bdf is $gdev rev $grev, the table says $dev rev $rev"
	elif [ "$gdrv" != "$drv" ]; then
		fail "$model-probe" "$bdf ($ifc) bound to '$gdrv'"
	elif [ -z "$line" ]; then
		fail "$model-probe" "$bdf $dev rev $rev: no probe line naming $([ "$drv" = e100_rs ] && echo "$gen rev $mac, QEMU's workarounds and ")$macaddr; the log says: $(about "$ifc" "$bdf" /tmp/probe.dmesg | head -2 | tr '\n' '|')"
	else
		pass "$model-probe" "$bdf $dev rev $rev -> $ifc: ${line#*"$ifc: "}"
	fi

	# --- open: the microcode it takes, and what the driver says of it ---
	dmesg -c >/dev/null
	fw_clear
	ip link set "$ifc" up 2>/tmp/up.err
	wait_for 15 grep -qx 1 "/sys/class/net/$ifc/carrier"
	carrier=$(cat "/sys/class/net/$ifc/carrier" 2>/dev/null)
	dmesg -c >/tmp/open.dmesg
	reqs=$(fw_requests "$bdf" | sort -u | tr '\n' ' ')
	nconfig=$(mdix_writes | sort -u | tr '\n' ' ')
	# The probe fires: the bring-up writes BMCR at least (the PHY's selection, both drivers).
	mdiw=$(grep -c ' mdi: .* dir=0x4000000 ' "$TRACING/trace")
	said=$(about "$ifc" "$bdf" /tmp/open.dmesg | grep -iE 'ucode|microcode|firmware|CPUSaver' | head -2 | tr '\n' '|')
	begin "$model-microcode"
	blob=e100/${ucode#*:}_ucode.bin
	if [ "$fwtrace" != ok ]; then
		fail "$model-microcode" "$fwtrace"
	elif [ "$carrier" != 1 ]; then
		fail "$model-microcode" "no carrier after ip link set up ($(cat /tmp/up.err)); requests: ${reqs:-none}; log: $said"
	else
		case "$ucode" in
		none)
			if [ -z "$reqs" ] && [ -z "$said" ]; then
				pass "$model-microcode" "revision $rev (mac $mac$([ "$ich" = 1 ] && echo ", an ICH part: no microcode although D101M")): no firmware asked for, nothing said"
			else
				fail "$model-microcode" "revision $rev takes no microcode; asked for: ${reqs:-nothing}; said: ${said:-nothing}"
			fi
			;;
		optional:*)
			# Not at hand: the driver says CPUSaver is off and opens all the same.
			if [ "$drv" = e100 ]; then want="CPUSaver disabled. Needs \"$blob\": -2"; else want="CPUSaver disabled: no \"$blob\""; fi
			if [ "$reqs" != "$blob " ]; then
				fail "$model-microcode" "revision $rev takes the optional $blob; asked for: ${reqs:-nothing}"
			elif ! about "$ifc" "$bdf" /tmp/open.dmesg | grep -qF "$ifc: $want"; then
				fail "$model-microcode" "asked for $blob (absent), but the log does not say '$want': ${said:-nothing}"
			else
				pass "$model-microcode" "asked for the optional $blob, absent; up with carrier; the log says: $(about "$ifc" "$bdf" /tmp/open.dmesg | grep -m1 -F "$want" | sed "s/.*$ifc: //")"
			fi
			;;
		required:*)
			# At hand: loaded. e100.c says nothing when it loads one, only when it fails.
			if [ "$drv" = e100 ]; then want=""; else want="CPUSaver microcode \"$blob\": interrupt delay 1536, bundle max 6"; fi
			bad=$(about "$ifc" "$bdf" /tmp/open.dmesg | grep -m1 -iE 'Failed to load|wrong size|ucode cmd failed|not loaded|malformed|needs microcode')
			if [ "$reqs" != "$blob " ]; then
				fail "$model-microcode" "revision $rev requires $blob; asked for: ${reqs:-nothing}"
			elif [ -n "$bad" ]; then
				fail "$model-microcode" "asked for $blob: $bad"
			elif [ -n "$want" ] && ! about "$ifc" "$bdf" /tmp/open.dmesg | grep -qF "$ifc: $want"; then
				fail "$model-microcode" "asked for $blob, but the log does not say '$want': ${said:-nothing}"
			else
				pass "$model-microcode" "asked for the required $blob, loaded, up with carrier${want:+; the log says: $want}"
			fi
			;;
		esac
	fi

	# --- wake-on-LAN support, the 82557's VLAN limit ---
	begin "$model-wol"
	w=$(ethtool "$ifc" 2>&1 | sed -n 's/^[[:space:]]*Supports Wake-on: //p')
	[ "$drv" != e100_rs ] || [ "$rev" != 0x09 ] || wol=d
	if [ "$w" = "$wol" ]; then
		pass "$model-wol" "Supports Wake-on: $w (mac $mac)"
	else
		fail "$model-wol" "Supports Wake-on: '${w:-not shown}', want $wol for mac $mac"
	fi
	begin "$model-mdix"
	if [ "$mac" -ge 12 ]; then want="0x80 "; else want=""; fi
	if [ "$mdiprobe" != ok ]; then
		fail "$model-mdix" "no probe on the MDI transactions: $mdiprobe"
	elif [ "$mdiw" = 0 ]; then
		fail "$model-mdix" "the probe saw no MDI write at bring-up"
	elif [ "$nconfig" = "$want" ]; then
		pass "$model-mdix" "mac $mac: $([ -n "$want" ] && echo "automatic MDI/MDI-X on at bring-up (NCONFIG 0x1c = 0x80)" || echo "no MDI-X set-up (nothing written to NCONFIG 0x1c)"), of $mdiw MDI writes"
	else
		fail "$model-mdix" "mac $mac: written to NCONFIG 0x1c at bring-up: '${nconfig:-nothing}', want '${want:-nothing}'"
	fi
	begin "$model-vlan"
	k=$(ethtool -k "$ifc" | grep '^vlan-challenged:')
	if [ "$k" = "vlan-challenged: $vlan [fixed]" ]; then
		pass "$model-vlan" "$k (mac $mac)"
	else
		fail "$model-vlan" "ethtool -k says '${k:-nothing}', want 'vlan-challenged: $vlan [fixed]' for mac $mac"
	fi

	# --- traffic: this interface alone holds 10.0.2.15/24 (each NIC's slirp has the same
	# subnet; the others stay up, unaddressed) ---
	ip addr add 10.0.2.15/24 dev "$ifc"
	ip route add default via "$HOST" dev "$ifc"
	traffic "$model-traffic" none

	# --- the ICH paths: e100.c's 10 Mb/s half-duplex transmit workaround (a CU NOP and 1 us
	# before each transmit, counted by the SCB command probe) engages when the watchdog sees an
	# ICH part at 10/half. QEMU's PHY keeps the forced BMCR (it has no speed model: frames flow
	# as before). ---
	if [ "$ich" = 1 ]; then
		ethtool -s "$ifc" speed 10 duplex half autoneg off
		wait_for 10 sh -c "ethtool $ifc | grep -q 'Speed: 10Mb/s' && ethtool $ifc | grep -q 'Duplex: Half'"
		ws=$(ethtool "$ifc" | grep -E 'Speed:|Duplex:' | tr -s ' \t\n' ' ')
		# Two watchdog periods (2 s each) for the driver to see it; carrier may have dropped.
		sleep 4.5
		wait_for 15 grep -qx 1 "/sys/class/net/$ifc/carrier"
		if echo "$ws" | grep -q 'Speed: 10Mb/s Duplex: Half'; then
			traffic "$model-ich-10half" each
		else
			begin "$model-ich-10half"
			fail "$model-ich-10half" "forced 10/half, ethtool says '$ws'"
		fi
		ethtool -s "$ifc" autoneg on
	fi
	ip route del default dev "$ifc" 2>/dev/null
	ip addr flush dev "$ifc"
	ip neigh flush dev "$ifc" 2>/dev/null
done 3</tmp/models.tab
grep -E '^ *[0-9]+:.*(eth|e100)' /proc/interrupts | sed 's/^/@@INFO /'

kprobe_del mdi 2>/dev/null
kprobe_del cucmd 2>/dev/null

# One unload takes all of them down.
begin final-unload
for n in /sys/class/net/*; do [ "$(basename "$n")" = lo ] || ip link set "$(basename "$n")" down; done
left=""
if unload_driver "$drv"; then
	for mac in $(awk '{print $10}' /tmp/models.tab); do
		i=$(if_of "$mac") && left="$left $i"
	done
	n=$(ls -d /sys/bus/pci/drivers/"$drv"/0000:* 2>/dev/null | wc -l)
	if [ -z "$left" ] && [ "$n" = 0 ]; then
		pass final-unload "$drv removed: $NMODELS devices unbound, their interfaces gone"
	else
		fail final-unload "after rmmod: interfaces left:${left:- none}; $n devices still bound"
	fi
else
	fail final-unload "rmmod $drv failed"
fi
for f in request_firmware firmware_request_nowarn; do kprobe_del "fw_$f" 2>/dev/null; done
kmemleak_check kmemleak-after-unload
