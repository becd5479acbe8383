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
