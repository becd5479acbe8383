#!/usr/bin/env bash
# Install, idempotently, everything a fresh Debian 12 machine needs to build the
# e100_rs kernel, the module and the initramfs, and to boot them in QEMU.
#
# Safe to run repeatedly: every step checks before it acts.
set -euo pipefail

BINDGEN_VERSION=0.73.2

log() { printf '[deps] %s\n' "$*"; }

PKGS=(
	linux-source-6.12 clang lld llvm libclang-dev
	qemu-system-x86 busybox-static ethtool iperf3 iproute2
	flex bison bc libelf-dev libssl-dev cpio xz-utils
	make gcc libc6-dev python3 kmod git perl
	# scripts/test-box.sh: make bindeb-pkg
	debhelper fakeroot rsync
	# the harness QEMU (scripts/build-qemu.sh): build dependencies of Debian's qemu source
	dpkg-dev patch pkg-config ninja-build meson libglib2.0-dev libpixman-1-dev libslirp-dev libfdt-dev
)

# scripts/bench.sh --bench: its statistics and charts, from Debian's packages.
BENCH_PKGS=(python3-numpy python3-scipy python3-matplotlib)
[ "${1:-}" != --bench ] || PKGS+=("${BENCH_PKGS[@]}")

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
	log "installing Debian packages: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# Package lists on a fresh machine may be missing or stale: refresh before installing.
	$SUDO apt-get update -qq
	# Some images carry a backported qemu-utils (10.x) that Breaks bookworm's
	# qemu-system-common 7.2; we test on bookworm's QEMU 7.2, so take its
	# qemu-utils too (a downgrade when the newer one is present).
	extra=()
	case " ${missing[*]} " in
	*" qemu-system-x86 "*)
		if dpkg --compare-versions "$(dpkg-query -W -f='${Version}' qemu-utils 2>/dev/null || echo 0)" ge 1:8; then
			extra=(qemu-utils/bookworm --allow-downgrades)
		fi ;;
	esac
	$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" "${extra[@]}"
else
	log "Debian packages present"
fi

# The harness QEMU (scripts/build-qemu.sh) is built from Debian's qemu source package, which
# `apt-get source` fetches from a deb-src twin of the machine's own Debian sources: same
# archive, same suites, no other host. Set up here, where sudo may ask at the terminal.
if ! apt-get source --print-uris qemu >/dev/null 2>&1; then
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
			$SUDO tee /etc/apt/sources.list.d/e100_rs-src.sources >/dev/null
	else
		grep -h '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			sed 's/^deb /deb-src /' | $SUDO tee /etc/apt/sources.list.d/e100_rs-src.list >/dev/null
	fi
	log "added a deb-src twin of the Debian sources (for the harness QEMU); updating package lists"
	$SUDO apt-get update -qq
fi

# rust-src: the kernel builds its own `core` and `alloc` from it.
if ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
	log "adding rustup component rust-src"
	rustup component add rust-src
fi
# The kernel's `make rustavailable` wants rustfmt/clippy only for the
# rustfmt/CLIPPY targets; add them if absent so those targets work.
for c in rustfmt clippy; do
	rustup component list --installed 2>/dev/null | grep -q "^$c" || rustup component add "$c"
done

# bindgen-cli at a pinned version.
if ! command -v bindgen >/dev/null 2>&1 || ! bindgen --version 2>/dev/null | grep -q "$BINDGEN_VERSION"; then
	log "installing bindgen-cli $BINDGEN_VERSION from crates.io (takes ~2 min)"
	cargo install --locked --version "$BINDGEN_VERSION" bindgen-cli
fi
log "ok: $(rustc --version), bindgen $(bindgen --version 2>/dev/null | awk '{print $2}'), $(clang --version | head -1)"
