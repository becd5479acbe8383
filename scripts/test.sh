#!/usr/bin/env bash
# The test command: install what is missing, build the kernel and the module, then run every
# test and print one line per test and a final "N passed, N failed" line. Exits non-zero on any
# failure.
#
# Stages: host checks (cargo test of the pure logic, rustfmt, a warning-free and clippy-clean
# module build), then QEMU boots: one for the KUnit doctests, then each guest suite once per
# driver, the C e100 first (the reference) and e100_rs second.
set -euo pipefail
LOG_TAG=test
. "$(dirname "$0")/common.sh"

OUT=${E100_RS_OUT:-$CACHE/results}
SUITES=${E100_RS_SUITES:-basic}
DRIVERS=${E100_RS_DRIVERS:-e100 e100_rs}
MAC=52:54:00:12:34:56

rm -rf "$OUT"
mkdir -p "$OUT"
pass=0 failn=0
t0=$(date +%s)

result() { # result PASS|FAIL NAME DETAIL
	printf '%-4s %-44s %s\n' "$1" "$2" "${3:-}"
	if [ "$1" = PASS ]; then pass=$((pass + 1)); else failn=$((failn + 1)); fi
	printf '%s %s %s\n' "$1" "$2" "${3:-}" >>"$OUT/results.txt"
}
stage() { log "$* ($(($(date +%s) - t0)) s)"; }

stage "dependencies"
"$REPO/scripts/deps.sh"
stage "kernel"
"$REPO/scripts/build-kernel.sh"

stage "module"
modlog="$OUT/module-build.log"
if make -C "$REPO" KDIR="$KSRC" >"$modlog" 2>&1; then
	if grep -qE '^(warning|error)' "$modlog"; then
		result FAIL build/module-no-warnings "$(grep -cE '^warning' "$modlog") warnings, see $modlog"
	else
		result PASS build/module-no-warnings "e100_rs.ko built"
	fi
else
	result FAIL build/module-no-warnings "build failed, see $modlog"
	grep -E '^(error|warning)' -A5 "$modlog" | head -40
	printf '%d passed, %d failed\n' "$pass" "$failn"
	exit 1
fi
if make -C "$REPO" KDIR="$KSRC" clippy >"$OUT/clippy.log" 2>&1 && ! grep -qE '^(warning|error)' "$OUT/clippy.log"; then
	result PASS build/clippy "CLIPPY=1 build of e100_rs clean"
else
	result FAIL build/clippy "$(grep -cE '^(warning|error)' "$OUT/clippy.log") findings, see $OUT/clippy.log"
fi
# Clippy rebuilt the object with clippy-driver; rebuild the module proper for the guest.
make -C "$REPO" KDIR="$KSRC" >/dev/null 2>&1
fmt_files=("$REPO"/*.rs $(find "$REPO/rust" -name '*.rs'))
if out=$(rustfmt --edition 2021 --check --config-path "$KSRC/.rustfmt.toml" "${fmt_files[@]}" 2>&1); then
	result PASS build/rustfmt "${#fmt_files[@]} files"
else
	result FAIL build/rustfmt "$(echo "$out" | grep -c '^Diff in') hunks differ"
fi

stage "host cargo test"
hostlog="$OUT/cargo-test.log"
if (cd "$REPO/tests/host" && cargo test --quiet) >"$hostlog" 2>&1; then
	n=$(grep -oE 'ok\. [0-9]+ passed' "$hostlog" | awk '{s+=$2} END{print s+0}')
	result PASS host/cargo-test "$n host tests of the pure logic"
else
	result FAIL host/cargo-test "see $hostlog"
	grep -E 'FAILED|panicked' "$hostlog" | head -10
fi

stage "initramfs"
"$REPO/scripts/initramfs.sh" "$CACHE/initramfs.cpio.gz" "$REPO/e100_rs.ko"

# Collect a suite's @@TEST lines from a console log as results named DRIVER/SUITE/TEST.
collect() { # collect LOG PREFIX
	local logf=$1 prefix=$2 line status name detail
	while IFS= read -r line; do
		line=${line%$'\r'}
		set -- $line
		status=$3 name=$2
		detail=${line#*"$status"}
		detail=${detail# }
		result "$status" "$prefix/$name" "$detail"
	done < <(grep -a '^@@TEST ' "$logf")
	if grep -aq '^@@TIMEOUT' "$logf"; then
		result FAIL "$prefix/completed" "QEMU timed out; see $logf"
	elif ! grep -aq '^@@DONE' "$logf"; then
		result FAIL "$prefix/completed" "suite did not finish; see $logf"
	fi
}

stage "KUnit doctests"
klog="$OUT/kunit.log"
"$REPO/scripts/qemu-run.sh" --suite kunit --driver none --mac "$MAC" --log "$klog" --kunit --timeout 300
collect "$klog" kernel/kunit
if grep -aqE '^ *ok [0-9]+ rust_doctests_kernel' "$klog"; then
	total=$(grep -aoE '# rust_doctests_kernel: pass:[0-9]+ fail:[0-9]+ skip:[0-9]+ total:[0-9]+' "$klog" | tail -1)
	ours=$(grep -aE '^ +ok [0-9]+ rust_doctest_kernel_(io|pci|revocable|devres|delay|module_param|dev_printk|sync_rcu|net_dev|net_ethtool|net_skbuff|dma|irq|net_napi)_rs' "$klog" | wc -l)
	result PASS kernel/kunit/rust-doctests "${total#\# }; $ours of them in our abstractions"
else
	bad=$(grep -aE 'not ok [0-9]+ rust_doctest' "$klog" | head -5 | tr '\n' ' ')
	result FAIL kernel/kunit/rust-doctests "${bad:-no KTAP result line}; see $klog"
fi

for suite in $SUITES; do
	for drv in $DRIVERS; do
		stage "suite $suite on $drv"
		logf="$OUT/$suite-$drv.log"
		"$REPO/scripts/qemu-run.sh" --suite "$suite" --driver "$drv" --mac "$MAC" \
			--log "$logf" --pcap "$OUT/$suite-$drv.pcap" --timeout 600
		collect "$logf" "$drv/$suite"
	done
done

stage "done"
log "logs and captures in $OUT; total $(($(date +%s) - t0)) s"
printf '%d passed, %d failed\n' "$pass" "$failn"
[ "$failn" -eq 0 ]
