#!/usr/bin/env bash
# Set everything up and show e100_rs working: install dependencies, build the kernel and the
# module, boot QEMU with an i82559er, load e100_rs, and print `ip link` and `ethtool` output.
set -euo pipefail
LOG_TAG=demo
. "$(dirname "$0")/common.sh"
MAC=${MAC:-52:54:00:12:34:56}

"$REPO/scripts/deps.sh"
"$REPO/scripts/build-kernel.sh"
log "building e100_rs.ko"
make -s -C "$REPO" KDIR="$KSRC" >/dev/null
"$REPO/scripts/initramfs.sh" "$INITRD" "$REPO/e100_rs.ko"
log "booting QEMU (-M pc, TCG) with -device i82559er,mac=$MAC"
logf="$CACHE/demo.log"
"$REPO/scripts/qemu-run.sh" --suite demo --driver e100_rs --mac "$MAC" --log "$logf" --timeout 120
sed -n '/^================ e100_rs demo/,/^==============================================/p' "$logf" | tr -d '\r'
if grep -aq '^@@TEST demo-mac PASS' "$logf"; then
	log "e100_rs is bound to the i82559er with QEMU's MAC $MAC (full console log: $logf)"
else
	die "demo failed; console log: $logf"
fi
