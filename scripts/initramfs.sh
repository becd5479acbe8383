#!/usr/bin/env bash
# Build the guest initramfs: static busybox, the real ethtool, iperf3 and ip with their shared
# libraries, both drivers' modules (C e100 + mii, and e100_rs), and the guest test scripts.
#
#   scripts/initramfs.sh OUT.cpio.gz E100_RS_KO
set -euo pipefail
LOG_TAG=initramfs
. "$(dirname "$0")/common.sh"

out=${1:?output path}
rs_ko=${2:?e100_rs.ko path}
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,run,etc,mods,tests,lib64}
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

# Real tools, and every shared library they load.
for tool in /usr/sbin/ethtool /usr/bin/iperf3 /usr/sbin/ip; do
	cp "$tool" "$root$tool"
	ln -sf "$tool" "$root/bin/$(basename "$tool")"
	ldd "$tool" | awk '/=> \//{print $3} /^\s*\/lib/{print $1}' | while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done
cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"

# Modules: the reference C driver (and mii, which it needs) and ours.
cp "$KSRC/drivers/net/mii.ko" "$KSRC/drivers/net/ethernet/intel/e100.ko" "$root/mods/"
cp "$rs_ko" "$root/mods/e100_rs.ko"
# And installed the normal way: the tree's modules (e100, mii and the in-tree e100_rs, which
# the basic suite loads with modprobe) under /lib/modules/RELEASE, with depmod's indexes, and
# kmod's modprobe, modinfo and depmod (busybox's applets of those names are replaced).
# With E100_RS_PKGDIR (scripts/test-box.sh's output), the modules come out of its linux-image
# package instead, nothing from the build tree, with its modprobe.d snippet for
# tests/guest/testbox.sh.
if [ -n "${E100_RS_PKGDIR:-}" ]; then
	deb=$(ls "$E100_RS_PKGDIR"/linux-image-*.deb | grep -v -- '-dbg_' | head -1)
	[ -f "$deb" ] || die "no linux-image package in $E100_RS_PKGDIR"
	x=$(mktemp -d)
	dpkg-deb -x "$deb" "$x"
	mkdir -p "$root/lib/modules"
	for d in "$x"/lib/modules "$x"/usr/lib/modules; do
		[ ! -d "$d" ] || cp -a "$d"/. "$root/lib/modules/"
	done
	rm -rf "$x"
	cp "$E100_RS_PKGDIR/e100_rs.conf" "$root/tests/e100_rs.conf"
else
	"${KMAKE[@]}" -s INSTALL_MOD_PATH="$root" modules_install >/dev/null
	[ -f "$root/lib/modules/$("${KMAKE[@]}" -s kernelrelease)/kernel/drivers/net/ethernet/intel/e100_rs/e100_rs.ko" ] ||
		die "modules_install did not install the in-tree e100_rs (CONFIG_E100_RS=m?)"
fi
kmod=$(command -v kmod) || die "kmod is not installed"
cp "$kmod" "$root/bin/kmod"
for t in modprobe modinfo depmod; do
	ln -sf /bin/kmod "$root/sbin/$t"
	rm -f "$root/bin/$t"
done
ldd "$kmod" | awk '/=> \//{print $3}' | while read -r lib; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
# A test tool module, built against the same tree: printk from hard-IRQ context, for the
# netconsole test (tests/guest/irqprint).
tooldir=$(mktemp -d)
cp "$REPO/tests/guest/irqprint/irqprint.c" "$tooldir/"
echo "obj-m := irqprint.o" >"$tooldir/Kbuild"
if ! make -C "$KSRC" M="$tooldir" LLVM=1 modules >"$tooldir/build.log" 2>&1; then
	cat "$tooldir/build.log" >&2
	die "building tests/guest/irqprint failed"
fi
cp "$tooldir/irqprint.ko" "$root/mods/"
rm -rf "$tooldir"

cp "$REPO"/tests/guest/*.sh "$root/tests/"
# Synthetic CPUSaver microcode blobs of the real shape (134 little-endian words, then the timer,
# bundle and minimum-size word offsets), kept out of the firmware search path: the microcode
# tests copy one into /lib/firmware/e100 when they want it there. Word i is 0xE1000000 | i << 8
# | i, so a test can tell every word apart; the offsets are 17, 42 and 99. (The real blobs are
# not in our package sources.)
mkdir -p "$root/lib/firmware-test/e100" "$root/lib/firmware/e100"
for f in d101m d101s d102e; do
	python3 -c 'import struct, sys
sys.stdout.buffer.write(b"".join(struct.pack("<I", 0xE1000000 | i << 8 | i) for i in range(134)) + bytes([17, 42, 99]))' \
		>"$root/lib/firmware-test/e100/${f}_ucode.bin"
done
# Static helpers: an MII-ioctl tool (what mii-tool does), for testing ndo_eth_ioctl, a raw
# frame sender/counter for the receive-filter tests, and an AER error injector (aer.sh).
gcc -static -Os -Wall -Werror -o "$root/bin/miireg" "$REPO/tests/guest/miireg.c"
gcc -static -Os -Wall -Werror -o "$root/bin/rawpkt" "$REPO/tests/guest/rawpkt.c"
gcc -static -Os -Wall -Werror -o "$root/bin/aerinj" "$REPO/tests/guest/aerinj.c"
# The benchmark's guest side (scripts/bench.sh): fixed-count UDP workloads, the instruction
# counter's markers, and its suites.
gcc -static -O2 -Wall -Werror -o "$root/bin/udpb" "$REPO/scripts/bench/udpb.c"
gcc -static -O2 -Wall -Werror -o "$root/bin/mark" "$REPO/scripts/bench/mark.c"
for f in "$REPO"/scripts/bench/*.sh; do
	cp "$f" "$root/tests/bench-$(basename "$f")"
done
cp "$REPO/tests/guest/init" "$root/init"
chmod +x "$root/init" "$root"/tests/*.sh
echo "root:x:0:0:root:/:/bin/sh" >"$root/etc/passwd"
printf '127.0.0.1 localhost\n' >"$root/etc/hosts"

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$out"
log "$(du -h "$out" | cut -f1) -> $out"
