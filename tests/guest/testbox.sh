#!/bin/sh
# The test-box packages (scripts/test-box.sh --config harness), booted as a user would: the
# kernel from the linux-image package, its modules as the package installs them (nothing from
# the build tree; depmod run here, as the package's postinst does), and the modprobe.d snippet
# the script prints. With the snippet, the NIC's modalias (what udev asks modprobe for at boot)
# must load e100_rs and not e100, the link come up and ping the host; with no e100_rs.ko (a
# kernel without it) the snippet must still give the card to e100; and the way back the script
# prints must give the card to e100, now and at the next modalias load.
# shellcheck disable=SC1091
. /tests/lib.sh

HOST=10.0.2.2
rel=$(uname -r)
mdir=/lib/modules/$rel
nic=$(nic_pci)
bound() { basename "$(readlink "$nic/driver" 2>/dev/null)" 2>/dev/null; }

begin package-modules
if [ ! -f "$mdir/kernel/drivers/net/ethernet/intel/e100_rs/e100_rs.ko" ]; then
	fail package-modules "no e100_rs.ko under $mdir (release $rel): $(ls /lib/modules 2>&1 | tr '\n' ' ')"
	exit 1
elif ! out=$(depmod 2>&1) || ! grep -q '/e100_rs.ko:' "$mdir/modules.dep"; then
	fail package-modules "depmod: ${out:-e100_rs.ko not in modules.dep}"
	exit 1
else
	pass package-modules "kernel $rel, e100_rs and e100 under $mdir, depmod done"
fi

begin snippet-binds-e100_rs
mkdir -p /etc/modprobe.d
cp /tests/e100_rs.conf /etc/modprobe.d/e100_rs.conf
alias=$(cat "$nic/modalias")
modprobe "$alias"
drv=$(bound)
if [ "$drv" = e100_rs ] && [ ! -e /sys/module/e100 ]; then
	pass snippet-binds-e100_rs "modprobe $alias (as udev does) with the snippet: $(basename "$nic") -> e100_rs, e100 not loaded"
else
	fail snippet-binds-e100_rs "bound to '$drv'; loaded: $(cut -d' ' -f1 /proc/modules | tr '\n' ' ')"
fi

begin ping
ifc=$(nic_if)
if [ -n "$ifc" ] && ip link set "$ifc" up && ip addr add 10.0.2.15/24 dev "$ifc" &&
	wait_for 15 grep -qx 1 "/sys/class/net/$ifc/carrier" && ping -c 3 -W 2 "$HOST" >/dev/null; then
	pass ping "$ifc ($(ethtool -i "$ifc" | sed -n 's/^driver: //p')): 3 answered"
else
	fail ping "interface '$ifc': no link or no answer"
fi

# A kernel without e100_rs (a Debian one, booted as a fallback) keeps e100 with the snippet.
begin snippet-falls-back
ko=$mdir/kernel/drivers/net/ethernet/intel/e100_rs/e100_rs.ko
modprobe -r e100_rs
mv "$ko" /tmp/e100_rs.ko.away && depmod
modprobe "$alias"
drv=$(bound)
if [ "$drv" = e100 ] && [ ! -e /sys/module/e100_rs ]; then
	pass snippet-falls-back "no e100_rs.ko: modprobe $alias -> e100"
else
	fail snippet-falls-back "no e100_rs.ko: bound to '$drv'"
fi
modprobe -r e100
mv /tmp/e100_rs.ko.away "$ko" && depmod

# The way back, as the script prints it (update-initramfs aside), and the next boot's load.
begin way-back
modprobe "$alias"
echo 'blacklist e100_rs' >/etc/modprobe.d/e100_rs.conf
modprobe -r e100_rs && modprobe e100
drv=$(bound)
modprobe -r e100
modprobe "$alias"
drv2=$(bound)
if [ "$drv" = e100 ] && [ "$drv2" = e100 ] && [ ! -e /sys/module/e100_rs ]; then
	pass way-back "blacklist e100_rs, modprobe -r e100_rs, modprobe e100: $(basename "$nic") -> e100; then modprobe $alias -> e100"
else
	fail way-back "after the printed commands bound to '$drv', after a modalias load to '$drv2'"
fi
modprobe -r e100
