#!/usr/bin/env bash
# A kernel for a real test box, as Debian packages: our 6.12 tree (Debian's linux-source-6.12
# with the repo's rust/ additions and the driver overlaid by scripts/overlay.py), configured
# with Rust, CONFIG_E100_RS=m and CONFIG_E100=m (so a user can switch between the two), built
# with `make bindeb-pkg`.
#
#   scripts/test-box.sh [--config debian|harness|FILE] [--out DIR] [--configure-only]
#
# --config debian (the default): Debian's own 6.12 configuration, the one that boots real PCs:
#     the running kernel's /boot/config-$(uname -r) if that is a 6.12 kernel, else the .config
#     of Debian's linux-headers-6.12.*-amd64 package closest to linux-source-6.12's version
#     (`apt-get download`, `dpkg-deb -x`). Then: Rust on, E100 and E100_RS modules, and what
#     6.12's Rust support rules out or cannot build here turned off (MODVERSIONS, BTF, debug
#     info, Debian's signing-key paths). Built in its own tree, $CACHE/linux-box: hours on 2
#     cores (README, "On a real test box").
# --config harness: the test kernel's own tree and configuration ($CACHE/linux, from
#     scripts/kernel.config, built by scripts/build-kernel.sh first): what the test command
#     packages and boots (the tree is already built, so this takes minutes).
# --config FILE: that configuration, with the same changes as Debian's.
# --out DIR: where the .deb files go (default $CACHE/test-box/CONFIG).
# --configure-only: stop once the tree is configured (and checked), before the build.
#
# Prints where the packages are and how to install them and switch drivers. The modprobe.d
# snippet it prints is also written next to the packages (e100_rs.conf).
set -euo pipefail
LOG_TAG=test-box
. "$(dirname "$0")/common.sh"

mode=debian out= confonly=0
while [ $# -gt 0 ]; do
	case "$1" in
	--config) mode=${2:?--config needs a value}; shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--configure-only) confonly=1; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done
out=${out:-$CACHE/test-box/$(basename "$mode")}
mkdir -p "$out"
out=$(cd "$out" && pwd)
start=$(date +%s)

# The options every test-box configuration must end with (checked after olddefconfig).
want_opts=(CONFIG_RUST=y CONFIG_RUST_FW_LOADER_ABSTRACTIONS=y CONFIG_E100=m CONFIG_E100_RS=m)

# Debian's 6.12 configuration, from the running box or from the archive's headers package.
debian_config() { # debian_config DEST
	local rel=$(uname -r) ver tmp pkg
	if [ -f "/boot/config-$rel" ] && [[ "$rel" == 6.12.* ]]; then
		log "configuration: /boot/config-$rel (the running kernel's)"
		cp "/boot/config-$rel" "$1"
		return
	fi
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) || ver=
	ver=${ver%%-*}                  # 6.12.118
	# Debian's flavour packages are named linux-headers-6.12.N+debNN-amd64; take the one with
	# linux-source's N, else the newest.
	pkg=$(apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb[0-9]+-amd64$' |
		awk '{print $1}' | sort -V | awk -v v="linux-headers-$ver+" 'index($0, v) == 1 {m = $0} {l = $0} END {print m ? m : l}')
	[ -n "$pkg" ] || die "no linux-headers-6.12.*-amd64 in the archive, and the running kernel is not 6.12: give --config FILE"
	log "configuration: the .config of Debian's $pkg"
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed"
	dpkg-deb -x "$tmp"/*.deb "$tmp/x"
	cp "$tmp"/x/usr/src/linux-headers-*/.config "$1" || die "$pkg has no .config"
	rm -rf "$tmp"
}

# Unpack our tree (once) and overlay the repo on it.
prepare_tree() { # prepare_tree DIR
	unpack_tree "$1"
	python3 "$REPO/scripts/overlay.py" "$REPO" "$1"
}

case "$mode" in
harness)
	# The test kernel's tree, as scripts/build-kernel.sh configured and built it.
	[ -f "$KSRC/vmlinux" ] || die "no test kernel in $KSRC: run scripts/build-kernel.sh first"
	tree=$KSRC
	;;
*)
	tree=$CACHE/linux-box
	prepare_tree "$tree"
	cfg=$(mktemp)
	if [ "$mode" = debian ]; then debian_config "$cfg"; else cp "$mode" "$cfg"; fi
	mk=(make -C "$tree" LLVM=1 -j"$JOBS")
	cp "$cfg" "$tree/.config.e100_rs-base"
	cp "$cfg" "$tree/.config"
	rm -f "$cfg"
	sc() { "$tree/scripts/config" --file "$tree/.config" "$@"; }
	# Rust in 6.12 needs MODVERSIONS off (gendwarfksyms came in 6.14) and BTF off unless pahole
	# can leave Rust out; Debian's signing keys are files of its own build tree; debug info
	# would double the build and add a -dbg package. E100 stays a module beside ours.
	sc --enable RUST --module E100 --module E100_RS \
		--disable MODVERSIONS --disable DEBUG_INFO_BTF \
		--disable DEBUG_INFO --disable DEBUG_INFO_DWARF5 --disable DEBUG_INFO_DWARF4 \
		--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT --enable DEBUG_INFO_NONE \
		--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS "" \
		--set-str MODULE_SIG_KEY "certs/signing_key.pem" \
		--set-str LOCALVERSION "+e100rs" --disable LOCALVERSION_AUTO
	"${mk[@]}" -s olddefconfig >/dev/null
	# include/config/auto.conf, which kernelrelease reads LOCALVERSION from.
	"${mk[@]}" -s syncconfig >/dev/null
	;;
esac

# What Kconfig kept: a Rust option that did not stick names what blocks it.
bad=
for o in "${want_opts[@]}"; do
	grep -qx "$o" "$tree/.config" || bad="$bad ${o%%=*}"
done
if [ -n "$bad" ]; then
	grep -q '^CONFIG_RUST_IS_AVAILABLE=y' "$tree/.config" ||
		log "CONFIG_RUST_IS_AVAILABLE is off: the Rust toolchain is not usable (make rustavailable)"
	die "the configuration lost:$bad (see the dependencies of RUST in init/Kconfig)"
fi

rel=$(make -s -C "$tree" LLVM=1 kernelrelease)
# What the build loses of the base configuration (Debian 12's clang 14 has no return-thunk
# or straight-line-speculation mitigations; 6.12's Rust rules out MODVERSIONS and BTF): said
# here, not hidden. A test-box kernel, not a production one.
if [ -f "$tree/.config.e100_rs-base" ] && [ "$mode" != harness ]; then
	lost=$("$tree/scripts/diffconfig" "$tree/.config.e100_rs-base" "$tree/.config" |
		sed -n 's/^-\([A-Z0-9_]*\) [ym]$/\1/p; s/^ \([A-Z0-9_]*\) [ym] -> n$/\1/p' |
		grep -vE '^(CC|AS|LD|GCC|PAHOLE|HAVE|CLANG|RUSTC|TOOLS)_|^(FTRACE_MCOUNT_USE_CC|PREFIX_SYMBOLS|USE_X86_SEG_SUPPORT)$' |
		sort | tr '\n' ' ' || true)
	[ -z "$lost" ] || log "off in this build, on in the base configuration (toolchain capabilities left out): $lost"
fi
if [ "$confonly" = 1 ]; then
	log "configured $tree for $rel: $(grep -c '=[ym]$' "$tree/.config") options on, ${want_opts[*]}"
	exit 0
fi
log "building linux-image and linux-headers $rel (make bindeb-pkg) in $tree"
# bindeb-pkg writes the packages next to the tree; take them from there.
parent=$(dirname "$tree")
rm -f "$parent"/linux-image-*.deb "$parent"/linux-headers-*.deb "$parent"/linux-libc-dev_*.deb "$parent"/linux-upstream_*
make -C "$tree" LLVM=1 -j"$JOBS" KDEB_COMPRESS=gzip bindeb-pkg >"$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log" >&2; die "make bindeb-pkg failed: $out/build.log"; }
rm -f "$out"/*.deb
mv "$parent"/linux-image-*.deb "$parent"/linux-headers-*.deb "$parent"/linux-libc-dev_*.deb "$out/"
rm -f "$parent"/linux-upstream_*
image=$(ls "$out"/linux-image-*.deb | grep -v -- '-dbg_' | head -1)
dpkg-deb -c "$image" | grep "/e100_rs/e100_rs.ko" >/dev/null || die "$(basename "$image") has no e100_rs.ko"

# The switch: e100_rs binds the 8255x cards, the C driver stays installed. Loading e100 (by
# name, or by the cards' modalias, which names both) loads e100_rs instead; a kernel without
# e100_rs (a Debian one, booted as a fallback) still gets e100.
cat >"$out/e100_rs.conf" <<'EOF'
# /etc/modprobe.d/e100_rs.conf: the 8255x cards get e100_rs instead of e100, and e100 on a
# kernel that has no e100_rs. To go back to e100: "blacklist e100_rs" as this file's only line.
install e100 /sbin/modprobe --ignore-install e100_rs || /sbin/modprobe --ignore-install e100
EOF
el=$(($(date +%s) - start))
cat <<EOF
Packages for kernel $rel ($((el / 60)) min $((el % 60)) s), in $out:
$(cd "$out" && ls -1 ./*.deb | sed 's|^\./|  |')

Copy that directory to the test box (Debian, an 8255x card) and, in it:
  sudo apt install ./$(basename "$image")
  sudo cp e100_rs.conf /etc/modprobe.d/ && sudo update-initramfs -u -k $rel
  sudo reboot    # into $rel (uname -r); then ethtool -i on the card's interface: driver: e100_rs
To go back to e100 (the file then keeps e100_rs from loading):
  echo 'blacklist e100_rs' | sudo tee /etc/modprobe.d/e100_rs.conf && sudo update-initramfs -u -k $rel
  sudo modprobe -r e100_rs && sudo modprobe e100
EOF
