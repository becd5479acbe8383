#!/bin/sh
# An 82551 (QEMU's i82551: PCI revision 0x0f, e100.c's mac_82551_F), on the harness QEMU: the
# part whose D102E microcode carries receive fixes, so that neither driver opens it without
# e100/d102e_ucode.bin. Without the blob `ip link set up` fails and the message names the file
# (and, for e100_rs, the package that ships it); with it (the initramfs's synthetic blob, see
# scripts/initramfs.sh) the interface comes up and the model received the patched words.
# scripts/test.sh boots it as a real board (QEMU's -smbios: the DMI vendor is not QEMU, so
# e100_rs takes the chip's path) with the model's ucode-idles-cu: after the load the CU is idle
# whatever the CB said, and only a CU Start moves it (e100.c's and fxp's "must restart cuc");
# a driver that resumed the CU after the load sends nothing more, and the model counts the
# Resumes it ignored. Then traffic both ways, whose capture shows what each driver's TCBs put
# on the wire when the model reads them as a chip does.
# shellcheck disable=SC1091
. /tests/lib.sh

drv=$DRIVER
HOST=10.0.2.2
HTTP_PORT=$(arg e100test.http)
SINK_PORT=$(arg e100test.sink)
MIB=2
UC=/lib/firmware/e100/d102e_ucode.bin
UCT=/lib/firmware-test/e100/d102e_ucode.bin
kmemleak_baseline
lp_open || echo "@@INFO no control line to the model"

begin probe
rm -f "$UC"
if ! load_driver "$drv" || [ -z "$(nic_if)" ]; then
	fail probe "no interface: $(dmesg | tail -3 | tr '\n' ' ')"
	exit 1
fi
ifc=$(nic_if)
path=$(dmesg | grep -m1 -oE '(chip path|QEMU.s model \(DMI\))' || true)
if [ "$drv" = e100_rs ] && [ "$path" != "chip path" ]; then
	fail probe "$ifc bound, but the probe line says '${path:-nothing}' (want 'chip path': booted as a real board)"
else
	pass probe "$ifc bound (revision $(cat "$(nic_pci)/revision"))${path:+; $path}"
fi
ip addr add 10.0.2.15/24 dev "$ifc"

begin ucode-required-missing
dmesg -c >/dev/null
if ip link set "$ifc" up 2>/tmp/up.err; then
	fail ucode-required-missing "opened without $UC"
	ip link set "$ifc" down
else
	# The driver's own message (not the firmware loader's).
	said=$(dmesg | grep 'd102e_ucode.bin' | grep -v -m1 -E 'firmware: failed|Direct firmware')
	pkg=ok
	[ "$drv" = e100_rs ] && ! echo "$said" | grep -q 'firmware-misc-nonfree' && pkg="the package is not named"
	if [ -n "$said" ] && [ "$pkg" = ok ]; then
		pass ucode-required-missing "ip link set up refused ($(tr -d '\n' </tmp/up.err)); the kernel log says: $said"
	else
		fail ucode-required-missing "refused, but the log says '${said:-nothing about d102e_ucode.bin}'${pkg:+; $pkg}"
	fi
fi

# od: the synthetic blob's words, as the model prints them; the low halves of words 17, 42
# and 99 patched (delay 1536 = 0x600, bundle 6, 0xffff).
begin ucode-required-loaded
cp "$UCT" "$UC"
want=$(od -An -v -tx4 -N 536 "$UCT" | tr -s ' ' '\n' | grep . | awk '
	{ w = $1; i = NR - 1
	  if (i == 17) w = substr(w, 1, 4) "0600"
	  if (i == 42) w = substr(w, 1, 4) "0006"
	  if (i == 99) w = substr(w, 1, 4) "ffff"
	  printf "%s%s", (i ? " " : ""), w }')
if ip link set "$ifc" up && wait_for 15 grep -qx 1 "/sys/class/net/$ifc/carrier" &&
	wait_for 10 ping -c 1 -W 1 "$HOST"; then
	got=$(lpctl get ucode | cut -d' ' -f2-)
	ign=$(lpctl get cu | sed -n 's/.*resumes_after_ucode_ignored=\([0-9]*\).*/\1/p')
	if [ "$got" = "$want" ] && [ "$ign" = 0 ]; then
		pass ucode-required-loaded "with $UC: up, link, ping; the model received the patched words; no CU Resume after the load"
	elif [ "$got" = "$want" ]; then
		fail ucode-required-loaded "the model ignored '${ign:-?}' CU Resume(s) after the load (want 0: the CU is started afresh)"
	else
		fail ucode-required-loaded "up, but the model's last load is '$(echo "$got" | cut -c1-60)...'"
	fi
else
	fail ucode-required-loaded "no link or ping with $UC ($(lpctl get cu | tr '\n' ' ')): $(dmesg | tail -2 | tr '\n' ' ')"
fi

# The chip's path on the wire, with the microcode loaded: extended TCBs, which the model reads as
# the manual says (ext-tcb-manual: the TBD count honoured), and short frames padded by the chip
# (tx-pad, Configure's padding bit). MIB MiB each way; scripts/test.sh judges the capture of
# every frame sent (pcap-no-junk, pcap-no-runts) for both drivers alike.
begin chip-traffic
if intact && [ "$res" = ok ]; then
	pass chip-traffic "$MIB MiB each way over TCP, SHA-256 equal at both ends (the capture is judged on the host)"
else
	fail chip-traffic "$res"
fi
rm -f "$UC"
ip link set "$ifc" down
unload_driver "$drv"
kmemleak_check kmemleak-after-unload
