#!/usr/bin/env bash
# Build the harness QEMU: Debian's own qemu source package (the version of the installed
# qemu-system-x86), with patches/qemu/*.patch applied, x86_64 system emulator only.
#
#   scripts/build-qemu.sh          prints the path of the harness qemu-system-x86_64
#
# The source comes from the configured Debian archive through `apt-get source` (scripts/deps.sh
# adds the deb-src twin of the machine's own Debian sources it needs: same archive, same suites,
# no other host). The build lives in $CACHE/qemu and is redone only when the patches, the source
# version or the configure options change; a patch change rebuilds incrementally (seconds).
# The stock qemu-system-x86_64 on PATH stays what every other suite, and every user, runs.
set -euo pipefail
LOG_TAG=qemu-build
. "$(dirname "$0")/common.sh"
# stdout carries only the binary's path.
log() { printf '[%s] %s\n' "$LOG_TAG" "$*" >&2; }

QDIR=$CACHE/qemu
CONFIGURE=(
	--target-list=x86_64-softmmu --disable-install-blobs --with-git-submodules=ignore
	--enable-slirp --enable-plugins --disable-docs --disable-werror
	--disable-gtk --disable-sdl --disable-vnc --disable-opengl --disable-spice --disable-curses
	--disable-libusb --disable-usb-redir --disable-tools --disable-guest-agent
)

# The source version (a binNMU such as +b3 has the same source).
version=$(dpkg-query -W -f='${source:Version}' qemu-system-x86) || die "qemu-system-x86 is not installed"
upstream=${version#*:}
upstream=${upstream%%-*}          # 7.2+dfsg
patches=("$REPO"/patches/qemu/*.patch)
stamp=$( { echo "$version"; printf '%s\n' "${CONFIGURE[@]}"; cat "${patches[@]}"; } | sha256sum | cut -c1-16)
bin=$QDIR/src/build/qemu-system-x86_64

if [ -x "$bin" ] && [ "$(cat "$QDIR/stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$bin"
	exit 0
fi
mkdir -p "$QDIR"
# One build at a time in this cache.
exec 8>"$QDIR/lock"
flock 8
start=$(date +%s)

if [ ! -f "$QDIR/src/.e100_rs-version" ] || [ "$(cat "$QDIR/src/.e100_rs-version")" != "$version" ]; then
	log "fetching the source of qemu $version"
	rm -rf "$QDIR/fetch" "$QDIR/src"
	mkdir -p "$QDIR/fetch"
	# As root, apt warns that its sandbox user cannot write here; the download still works.
	# The archive keeps only each suite's current source: if the installed version has been
	# superseded, take the current one of the same upstream release (a Debian security update
	# of the same QEMU) rather than fail.
	if ! (cd "$QDIR/fetch" && apt-get source "qemu=$version") >"$QDIR/fetch.log" 2>&1; then
		log "qemu=$version is not in the archive any more; taking its current source"
		(cd "$QDIR/fetch" && apt-get source qemu) >>"$QDIR/fetch.log" 2>&1 ||
			die "apt-get source qemu failed: see $QDIR/fetch.log (is there a deb-src line?)"
	fi
	[ -d "$QDIR/fetch/qemu-$upstream" ] ||
		die "the fetched source is not qemu $upstream: see $QDIR/fetch.log"
	mv "$QDIR/fetch/qemu-$upstream" "$QDIR/src"
	rm -rf "$QDIR/fetch"
	cp "$QDIR/src/hw/net/eepro100.c" "$QDIR/src/hw/net/eepro100.c.debian"
	echo "$version" >"$QDIR/src/.e100_rs-version"
fi

# Patches go on the pristine Debian files, every time. A file's pristine copy is taken the
# first time a patch touches it (before any patch has been applied to it).
for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "${patches[@]}" | sort -u); do
	[ -f "$QDIR/src/$f.debian" ] || cp "$QDIR/src/$f" "$QDIR/src/$f.debian"
	cp "$QDIR/src/$f.debian" "$QDIR/src/$f"
done
for p in "${patches[@]}"; do
	log "applying $(basename "$p")"
	# No fuzz: a patch that no longer applies exactly is a patch to re-read, not to guess at.
	patch -s -p1 --fuzz=0 --no-backup-if-mismatch -r - -d "$QDIR/src" <"$p" ||
		die "$(basename "$p") does not apply cleanly to qemu $version"
done

if [ ! -f "$QDIR/src/build/build.ninja" ] || [ "$(cat "$QDIR/configured" 2>/dev/null)" != "${CONFIGURE[*]}" ]; then
	log "configuring (x86_64-softmmu only)"
	rm -rf "$QDIR/src/build"
	mkdir -p "$QDIR/src/build"
	(cd "$QDIR/src/build" && ../configure "${CONFIGURE[@]}" >"$QDIR/configure.log" 2>&1) ||
		die "configure failed: see $QDIR/configure.log"
	echo "${CONFIGURE[*]}" >"$QDIR/configured"
fi
log "building qemu-system-x86_64 (about 3 min on 2 cores from scratch)"
ninja -C "$QDIR/src/build" -j"$JOBS" qemu-system-x86_64 >"$QDIR/build.log" 2>&1 ||
	die "build failed: see $QDIR/build.log"
if grep -nE "(eepro100|eeprom93xx)\.c.*warning" "$QDIR/build.log" >&2; then
	die "a patched file has compiler warnings"
fi
echo "$stamp" >"$QDIR/stamp"
log "built in $(( $(date +%s) - start )) s: $bin"
echo "$bin"
