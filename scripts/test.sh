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
SUITES=${E100_RS_SUITES:-basic traffic pair}
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
	ours=$(grep -aE '^ +ok [0-9]+ rust_doctest_kernel_(io|pci|revocable|devres|delay|module_param|dev_printk|sync_rcu|sync_bh|transmute|net_dev|net_ethtool|net_skbuff|dma|irq|net_napi)_rs' "$klog" | wc -l)
	result PASS kernel/kunit/rust-doctests "${total#\# }; $ours of them in our abstractions"
else
	bad=$(grep -aE 'not ok [0-9]+ rust_doctest' "$klog" | head -5 | tr '\n' ' ')
	result FAIL kernel/kunit/rust-doctests "${bad:-no KTAP result line}; see $klog"
fi

# Host services for the traffic suite, on 127.0.0.1 only; stopped on exit.
pids=()
cleanup() { [ "${#pids[@]}" -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true; }
trap cleanup EXIT
free_port() { # free_port tcp|udp
	python3 -c 'import socket,sys; t=socket.SOCK_STREAM if sys.argv[1]=="tcp" else socket.SOCK_DGRAM
s=socket.socket(socket.AF_INET,t); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' "$1"
}
start_services() {
	iperf_port=$(free_port tcp)
	iperf3 -s -B 127.0.0.1 -p "$iperf_port" >"$OUT/iperf3-server.log" 2>&1 &
	pids+=($!)
	python3 "$REPO/scripts/host-server.py" "$OUT/netconsole.log" >"$OUT/host-server.ports" \
		2>"$OUT/host-server.log" &
	pids+=($!)
	for _ in $(seq 50); do [ -s "$OUT/host-server.ports" ] && break; sleep 0.1; done
	read -r http_port sink_port udp_port <"$OUT/host-server.ports"
}

# Throughput metrics, "driver name value median min max", for the summary.
metrics() { # metrics LOG DRIVER
	grep -a '^@@METRIC ' "$1" | tr -d '\r' | while read -r _ name v rest; do
		echo "$2 $name $v $rest" >>"$OUT/metrics.txt"
	done
}

run_suite() { # run_suite SUITE DRIVER
	local suite=$1 drv=$2 logf="$OUT/$1-$2.log" pcap="$OUT/$1-$2.pcap"
	case "$suite" in
	traffic)
		"$REPO/scripts/qemu-run.sh" --suite traffic --driver "$drv" --mac "$MAC" --log "$logf" \
			--pcap "$pcap" --timeout 900 \
			--append "e100test.iperf=$iperf_port e100test.http=$http_port e100test.sink=$sink_port e100test.udp=$udp_port"
		collect "$logf" "$drv/traffic"
		if grep -aq "e100test-netconsole-marker-$drv" "$OUT/netconsole.log" 2>/dev/null; then
			result PASS "$drv/traffic/netconsole-delivered" "kernel message arrived over netpoll at 127.0.0.1:$udp_port"
		else
			result FAIL "$drv/traffic/netconsole-delivered" "no marker in $OUT/netconsole.log"
		fi
		metrics "$logf" "$drv"
		read -r frames judged junk excess < <(python3 "$REPO/scripts/pcap-check.py" "$pcap" --mac "$MAC")
		if [ "$drv" = e100 ]; then
			# The reference driver leaves a stale second TBD in extended TCBs, and QEMU sends
			# the bytes it describes: assert the bug is still there to be seen.
			if [ "$junk" -gt 0 ]; then
				result PASS "$drv/traffic/pcap-reference-junk-reproduced" "$junk of $judged frames carry up to $excess junk bytes (known C driver bug on QEMU)"
			else
				result FAIL "$drv/traffic/pcap-reference-junk-reproduced" "no junk in $judged frames: has QEMU or e100.c changed?"
			fi
		elif [ "$judged" -ge 1000 ] && [ "$junk" -eq 0 ]; then
			result PASS "$drv/traffic/pcap-no-junk" "$judged frames sent, none longer than its datagram needs"
		else
			result FAIL "$drv/traffic/pcap-no-junk" "$junk of $judged frames longer than needed (up to +$excess bytes)"
		fi
		;;
	pair)
		local pa pb
		pa=$(free_port udp)
		pb=$(free_port udp)
		"$REPO/scripts/qemu-run.sh" --suite pair --driver "$drv" --mac 52:54:00:12:34:01 \
			--log "$OUT/pair-$drv-server.log" --pcap "$OUT/pair-$drv-server.pcap" --timeout 300 \
			--netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$pa,remote.type=inet,remote.host=127.0.0.1,remote.port=$pb" \
			--append "e100test.role=server" &
		local spid=$!
		"$REPO/scripts/qemu-run.sh" --suite pair --driver "$drv" --mac 52:54:00:12:34:02 \
			--log "$OUT/pair-$drv-client.log" --timeout 300 \
			--netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$pb,remote.type=inet,remote.host=127.0.0.1,remote.port=$pa" \
			--append "e100test.role=client"
		wait "$spid"
		collect "$OUT/pair-$drv-server.log" "$drv/pair-server"
		collect "$OUT/pair-$drv-client.log" "$drv/pair-client"
		metrics "$OUT/pair-$drv-client.log" "$drv"
		;;
	*)
		"$REPO/scripts/qemu-run.sh" --suite "$suite" --driver "$drv" --mac "$MAC" --log "$logf" \
			--pcap "$pcap" --timeout 600
		collect "$logf" "$drv/$suite"
		;;
	esac
}

case " $SUITES " in *" traffic "*) start_services ;; esac
for suite in $SUITES; do
	for drv in $DRIVERS; do
		stage "suite $suite on $drv"
		run_suite "$suite" "$drv"
	done
done

if [ -s "$OUT/metrics.txt" ]; then
	log "throughput, Mbit/s, this run (iperf3 receiver total; median, min, max of its 1 s intervals):"
	awk '{printf "[test]   %-8s %-36s %8s   median %6s  min %6s  max %6s\n", $1, $2, $3, $4, $5, $6}' "$OUT/metrics.txt"
fi

stage "done"
log "logs and captures in $OUT; total $(($(date +%s) - t0)) s"
printf '%d passed, %d failed\n' "$pass" "$failn"
[ "$failn" -eq 0 ]
