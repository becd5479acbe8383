#!/usr/bin/env bash
# Build the e100_rs test kernel: unpack Debian's 6.12 source into the cache,
# overlay our rust/ additions, configure from scripts/kernel.config, build.
#
# Incremental: the source is unpacked once, the overlay rewrites only files
# whose content changed (so make sees unchanged mtimes), and the config is
# regenerated only when the fragment changes.
set -euo pipefail
LOG_TAG=kernel
. "$(dirname "$0")/common.sh"

# Rough cost of a cold build, measured on the 2-core machines this project
# runs on; used only for the progress estimate.
COLD_BUILD_UNITS=${COLD_BUILD_UNITS:-1640}
COLD_BUILD_MIN_2CPU=6

mkdir -p "$CACHE"
unpack_tree "$KSRC"
python3 "$REPO/scripts/overlay.py" "$REPO" "$KSRC"

# Configured again when the fragments (in order: a later one adds options, or turns off an
# earlier one's) change.
stamp="$KSRC/.e100_rs-config.sha256"
want=$(cat "${KFRAGS[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$KSRC/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	log "configuring: x86_64 tinyconfig + ${KFRAGS[*]##*/}"
	kconfigure "$KSRC"
	# Every option's last setting in the fragments must have survived Kconfig's dependency
	# rules.
	missing=$(kconfig_missing "$KSRC")
	if [ -n "$missing" ]; then
		while IFS= read -r line; do log "config: not as the fragments want: $line"; done <<<"$missing"
		die "kernel config is missing options (see above)"
	fi
	echo "$want" >"$stamp"
fi

first=0
[ -f "$KSRC/vmlinux" ] || first=1
if [ "$first" -eq 1 ]; then
	est=$((COLD_BUILD_MIN_2CPU * 2 / JOBS))
	log "cold build: expect about $est min on $JOBS CPUs (progress every 30 s)"
else
	log "incremental build"
fi

buildlog="$KBUILDLOG"
start=$(date +%s)
# The kernel crate (with our abstractions) is compiled with clippy, and compiled on every run
# (its object removed first), so that its diagnostics are in the build log every time for the
# test command to judge; that costs a relink of about 20 s.
rm -f "$KSRC/rust/kernel.o"
# So is the driver's in-tree build (drivers/net/ethernet/intel/e100_rs, CONFIG_E100_RS=m), for
# the test command's build/module-in-tree.
rm -f "$KSRC/drivers/net/ethernet/intel/e100_rs/e100_rs.o"
# The status file is written whatever make returns (errexit is off in the subshell; with it
# on, a failed make would end the subshell first and leave a stale status behind).
rm -f "$buildlog.rc"
(
	set +e
	"${KMAKE[@]}" CLIPPY=1 bzImage modules >"$buildlog" 2>&1
	echo $? >"$buildlog.rc"
) &
mk=$!
while kill -0 "$mk" 2>/dev/null; do
	sleep 5
	now=$(date +%s)
	if [ $(((now - start) % 30)) -lt 5 ] && [ $((now - start)) -ge 5 ]; then
		units=$(grep -cE '^\s+(CC|RUSTC|AS|LD|AR|BINDGEN|HOSTCC)' "$buildlog" || true)
		el=$((now - start))
		if [ "$first" -eq 1 ] && [ "$units" -gt 0 ]; then
			pct=$((units * 100 / COLD_BUILD_UNITS))
			[ "$pct" -gt 99 ] && pct=99
			left=$((el * (COLD_BUILD_UNITS - units) / units))
			[ "$left" -lt 0 ] && left=0
			log "$units/$COLD_BUILD_UNITS units (~$pct%), $((el / 60))m$((el % 60))s elapsed, ~$((left / 60)) min left"
		else
			log "$units units, $((el / 60))m$((el % 60))s elapsed"
		fi
	fi
done
wait "$mk" || true
rc=$(cat "$buildlog.rc" 2>/dev/null || echo 1)
el=$(($(date +%s) - start))
if [ "$rc" -ne 0 ]; then
	grep -E 'error|Error' "$buildlog" | head -40 >&2
	die "kernel build failed after ${el}s; full log: $buildlog"
fi
if grep -E '(^|[^-])warning:' "$buildlog" | grep -v '^scripts/' >/dev/null; then
	log "build warnings:"
	grep -E 'warning:' "$buildlog" | head -20
fi
log "built in ${el}s: $KSRC/arch/x86/boot/bzImage"
