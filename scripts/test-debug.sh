#!/usr/bin/env bash
# The debug-kernel run: the test command's stages on a second kernel, built from the same tree
# with scripts/kernel.config plus scripts/kernel-debug.config (KASAN on every access, slab
# debugging on for every cache, RCU checking, on top of the test kernel's lockdep,
# DEBUG_ATOMIC_SLEEP, DMA-API debugging and kmemleak), in a tree of its own in the cache.
# QEMU boots it with acpi=noirq (its ACPI interrupt routing does not come up on -M pc), and
# the suites size their workloads for it (e100test.debug). Any WARNING, BUG, lockdep, KASAN,
# DMA-API or kmemleak report fails the run, by the same log check as scripts/test.sh; the
# suites scan kmemleak explicitly after unloading the driver.
#
# Suites: E100_RS_SUITES (default below); the others measure throughput and wire timing,
# which on this kernel measure KASAN, not the driver.
set -euo pipefail
export E100_RS_KVARIANT=debug
export E100_RS_SUITES=${E100_RS_SUITES:-kunit basic ethtool faults pm}
exec "$(dirname "$0")/test.sh" "$@"
