# Shared settings for the e100_rs scripts. Source it; do not run it.
# shellcheck shell=bash

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything generated lives outside the repo, in one cache directory.
CACHE=${E100_RS_CACHE:-$HOME/.cache/e100_rs}
# Which kernel: "test" (scripts/kernel.config: lockdep, DMA-API, slab debugging, kmemleak),
# "debug" (that plus scripts/kernel-debug.config: KASAN) or "bench" (the test kernel without
# its run-time debugging: scripts/kernel-bench.config), each in a tree of its own.
KVARIANT=${E100_RS_KVARIANT:-test}
case "$KVARIANT" in
test) KFRAGS=("$REPO/scripts/kernel.config") ;;
debug) KFRAGS=("$REPO/scripts/kernel.config" "$REPO/scripts/kernel-debug.config") ;;
bench) KFRAGS=("$REPO/scripts/kernel.config" "$REPO/scripts/kernel-bench.config") ;;
*) printf 'unknown E100_RS_KVARIANT %s (test, debug or bench)\n' "$KVARIANT" >&2; exit 1 ;;
esac
# The kernel tree: Debian's linux-source-6.12 with our rust/ overlaid.
if [ "$KVARIANT" = test ]; then
	KSRC=${E100_RS_KDIR:-$CACHE/linux}
	KBUILDLOG=$CACHE/kernel-build.log
	INITRD=$CACHE/initramfs.cpio.gz
else
	KSRC=${E100_RS_KDIR:-$CACHE/linux-$KVARIANT}
	KBUILDLOG=$CACHE/kernel-$KVARIANT-build.log
	INITRD=$CACHE/initramfs-$KVARIANT.cpio.gz
fi
KTARBALL=${E100_RS_KTARBALL:-/usr/src/linux-source-6.12.tar.xz}
JOBS=${JOBS:-$(nproc)}
KMAKE=(make -C "$KSRC" LLVM=1 -j"$JOBS")

log() { printf '[%s] %s\n' "${LOG_TAG:-e100_rs}" "$*"; }
die() { printf '[%s] error: %s\n' "${LOG_TAG:-e100_rs}" "$*" >&2; exit 1; }

# host_tsc_khz: the host's TSC frequency in kHz (scripts/tsc-khz.c), measured and kept in
# E100_RS_TSC_KHZ for the boots after (scripts/test.sh and scripts/bench.sh measure once per
# run; a script that boots QEMU alone measures each time); empty when the host's TSC does not
# tick at a constant rate (no constant_tsc and nonstop_tsc) or cannot be measured: the guest
# then calibrates its own. A value that is not a number is dropped.
host_tsc_khz() {
	case "${E100_RS_TSC_KHZ:-}" in *[!0-9]*) unset E100_RS_TSC_KHZ ;; esac
	if [ -z "${E100_RS_TSC_KHZ+set}" ]; then
		E100_RS_TSC_KHZ=""
		local bin=$CACHE/tools/tsc-khz src=$REPO/scripts/tsc-khz.c
		if grep -qw constant_tsc /proc/cpuinfo && grep -qw nonstop_tsc /proc/cpuinfo; then
			if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
				mkdir -p "$CACHE/tools"
				gcc -O2 -Wall -o "$bin.$$" "$src" && mv -f "$bin.$$" "$bin" || rm -f "$bin.$$"
			fi
			[ -x "$bin" ] && E100_RS_TSC_KHZ=$("$bin" 2>/dev/null) || E100_RS_TSC_KHZ=""
			case "$E100_RS_TSC_KHZ" in *[!0-9]*) E100_RS_TSC_KHZ="" ;; esac
		fi
		export E100_RS_TSC_KHZ
	fi
	printf '%s' "$E100_RS_TSC_KHZ"
}

# unpack_tree DIR: Debian's linux-source tarball unpacked into DIR, once (a DIR from an
# interrupted unpack is replaced).
unpack_tree() {
	local dir=$1
	[ -f "$dir/.e100_rs-unpacked" ] && return 0
	[ -f "$KTARBALL" ] || die "$KTARBALL missing: run scripts/deps.sh"
	log "unpacking $(basename "$KTARBALL") into $dir"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -xJf "$KTARBALL" -C "$dir.tmp" --strip-components=1
	touch "$dir.tmp/.e100_rs-unpacked"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
}

# kconfigure TREE: configure the kernel tree TREE as the harness's kernels are: x86_64
# tinyconfig, then the fragments KFRAGS merged in order, then olddefconfig (scripts/build-kernel.sh
# and scripts/patch-series.sh --bisect).
kconfigure() {
	local tree=$1 frag="$1/.e100_rs-fragment"
	cat "${KFRAGS[@]}" >"$frag"
	make -C "$tree" LLVM=1 -s tinyconfig >/dev/null
	(cd "$tree" && KCONFIG_CONFIG=.config scripts/kconfig/merge_config.sh -m .config "$frag" >/dev/null)
	make -C "$tree" LLVM=1 -s olddefconfig >/dev/null
}

# kconfig_missing TREE: the options of the fragments KFRAGS whose last setting did not survive
# Kconfig's dependency rules in TREE's .config, one a line (nothing: all did).
kconfig_missing() {
	local tree=$1 line opt
	local -A want_opt=()
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) want_opt[${line%%=*}]=$line ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			want_opt[${opt%% *}]=$line ;;
		esac
	done < <(cat "${KFRAGS[@]}")
	for opt in "${!want_opt[@]}"; do
		line=${want_opt[$opt]}
		case "$line" in
		CONFIG_*=*) grep -qx "$line" "$tree/.config" || echo "$line" ;;
		*) ! grep -q "^$opt=" "$tree/.config" || echo "$opt should be unset" ;;
		esac
	done
}
