#!/usr/bin/env bash
# The test command: install what is missing, build the kernel and the module, then run every
# test and print one line per test and a final "N passed, N failed" line. Exits non-zero on any
# failure.
#
# Stages: host checks (cargo test of the pure logic, rustfmt, a warning-free and clippy-clean
# module build), then QEMU boots: one for the KUnit doctests, then each guest suite once per
# driver, the C e100 first (the reference) and e100_rs second.
#
# What makes the count trustworthy:
# - tests/manifest.txt lists every test the run must report. One that does not report is a
#   FAIL with its name; one that reports but is not listed is a FAIL too.
# - Every boot's console log is read on the host after QEMU exits: the suite must have run to
#   its end with exit status 0 ("completed", which names the test that hung on a timeout), and
#   the log must hold the boot banner, the end marker and no kernel splat ("kernel-log-clean").
# - The run is one process group (scripts/pgroup.py): QEMU and the host services die with it,
#   however it ends. Its total time is bounded (E100_RS_TIME_BUDGET) below CI's 90 minutes.
#
# Knobs: E100_RS_SUITES (default "kunit basic models traffic pair linkpartner ethtool faults pm
# testbox"),
# E100_RS_DRIVERS (default "e100 e100_rs"), E100_RS_TIME_BUDGET (seconds, default 4500). The
# harness's self-tests:
# E100_RS_ABORT_AFTER=NAME makes every guest die right after reporting test NAME (e.g.
# bulk-64MiB-host-to-guest), E100_RS_HANG_IN=NAME makes it hang when NAME starts; either run
# must end red, naming the tests that did not report or the test that hung.
set -euo pipefail
if [ -z "${E100_RS_PGROUP:-}" ]; then
	# Packages first, in the caller's process group: sudo may have to ask for a password on
	# the terminal, which only the terminal's foreground group can read.
	"$(dirname "$0")/deps.sh"
	exec python3 "$(dirname "$0")/pgroup.py" "$0" "$@"
fi
LOG_TAG=test
. "$(dirname "$0")/common.sh"

SUITES=${E100_RS_SUITES:-kunit basic models traffic pair linkpartner ethtool faults pm testbox}
DRIVERS=${E100_RS_DRIVERS:-e100 e100_rs}
TIME_BUDGET=${E100_RS_TIME_BUDGET:-4500}
ABORT_AFTER=${E100_RS_ABORT_AFTER:-}
HANG_IN=${E100_RS_HANG_IN:-}
MAC=52:54:00:12:34:56
MANIFEST=$REPO/tests/manifest.txt
t0=$(date +%s)
deadline=$((t0 + TIME_BUDGET))
# The host's TSC rate, measured once for every guest of the run (scripts/qemu-run.sh).
host_tsc_khz >/dev/null
log "host TSC: ${E100_RS_TSC_KHZ:+$E100_RS_TSC_KHZ kHz}${E100_RS_TSC_KHZ:-not measured (no constant rate, or no build of scripts/tsc-khz.c): each guest calibrates its own}"

# Each run writes to a folder of its own; "latest" points at the newest; the last five are kept.
RESULTS=$CACHE/results
mkdir -p "$RESULTS"
OUT=$(mktemp -d "$RESULTS/run-$(date +%Y%m%d-%H%M%S)-XXXX")
ln -sfn "$(basename "$OUT")" "$RESULTS/latest"
ls -1dt "$RESULTS"/run-* 2>/dev/null | tail -n +6 | xargs -r rm -rf || true

pass=0 failn=0 summarised=0
: >"$OUT/results.txt"

result() { # result PASS|FAIL NAME DETAIL
	printf '%-4s %-52s %s\n' "$1" "$2" "${3:-}"
	if [ "$1" = PASS ]; then pass=$((pass + 1)); else failn=$((failn + 1)); fi
	printf '%s %s %s\n' "$1" "$2" "${3:-}" >>"$OUT/results.txt"
}
stage() { log "$* ($(($(date +%s) - t0)) s)"; }
has_stage() { case " build misuse host $SUITES " in *" $1 "*) return 0 ;; esac; return 1; }

# The tests the manifest expects from this run's stages and drivers.
expected() {
	awk -v stages=" build misuse host $SUITES " -v drivers=" $DRIVERS " '
		/^[ \t]*(#|$)/ {next}
		{
			# The first column names the stage, or several separated by commas.
			ok = 0
			ns = split($1, st, ",")
			for (j = 1; j <= ns; j++) if (index(stages, " " st[j] " ") > 0) ok = 1
			if (!ok) next
		}
		$2 == "-" {print $3; next}
		{
			n = split(drivers, d, " ")
			for (i = 1; i <= n; i++) {
				if ($2 != "all" && $2 != d[i]) continue
				t = $3; gsub(/\{drv\}/, d[i], t); print t
			}
		}' "$MANIFEST"
}

# The summary, printed however the run ends: tests the manifest expected that never reported
# are failures, and so are reported tests it does not list.
summary() {
	[ "$summarised" = 0 ] || return 0
	summarised=1
	local name missing=0 extra=0
	expected | sort -u >"$OUT/expected.txt"
	awk '{print $2}' "$OUT/results.txt" | sort -u >"$OUT/reported.txt"
	while IFS= read -r name; do
		result FAIL "$name" "did not report (expected by tests/manifest.txt)"
		missing=$((missing + 1))
	done < <(comm -23 "$OUT/expected.txt" "$OUT/reported.txt")
	while IFS= read -r name; do
		result FAIL "$name" "reported, but not in tests/manifest.txt"
		extra=$((extra + 1))
	done < <(comm -13 "$OUT/expected.txt" "$OUT/reported.txt")
	if [ -s "$OUT/metrics.txt" ]; then
		log "throughput, Mbit/s, this run (iperf3 receiver total; median, min, max of its 1 s intervals):"
		awk '{if (NF >= 6) printf "[test]   %-8s %-40s %8s   median %6s  min %6s  max %6s\n", $1, $2, $3, $4, $5, $6
			else printf "[test]   %-8s %-40s %8s\n", $1, $2, $3}' "$OUT/metrics.txt"
	fi
	stage "done"
	log "logs and captures in $OUT (also $RESULTS/latest); total $(($(date +%s) - t0)) s"
	log "manifest: $(wc -l <"$OUT/expected.txt") tests expected, $missing did not report, $extra not listed"
	printf '%d passed, %d failed\n' "$pass" "$failn"
}

pids=()
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	summary || true
	# Stop everything this run started: the services and any QEMU still running.
	[ "${#pids[@]}" -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
	trap '' TERM
	kill -TERM -- "-$E100_RS_PGROUP" 2>/dev/null || true
	if [ "$rc" -eq 0 ] && [ "$failn" -ne 0 ]; then rc=1; fi
	exit "$rc"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM

# Long steps run in the background and are waited for: bash runs a trap only once the
# foreground command has finished, so a TERM sent to this script while QEMU runs in the
# foreground would wait for QEMU; `wait` is interrupted at once.
bg_wait() { "$@" & wait $!; }

# Seconds a QEMU boot may take: its own bound, but never past the run's deadline.
budget() { # budget WANT
	local left=$((deadline - $(date +%s) - 30))
	[ "$left" -gt "$1" ] && echo "$1" || echo "$((left > 0 ? left : 1))"
}

# A warning or error line from a compiler, rustc, clippy or modpost.
DIAG_RE='(^|[[:space:]])(warning|error|WARNING|ERROR)(\[[A-Za-z0-9_:-]+\])?:'

# The harness's self-test knobs must name a guest test, or they would test nothing.
for knob in "$ABORT_AFTER" "$HANG_IN"; do
	[ -z "$knob" ] || grep -qE "^(basic|traffic|pair|linkpartner|ethtool|faults) .*/$knob\$" "$MANIFEST" ||
		die "E100_RS_ABORT_AFTER/E100_RS_HANG_IN: '$knob' is not a guest test in tests/manifest.txt"
done

# Builds get what is left of the run's budget too: a wedged build ends the run in time.
stage "kernel ($KVARIANT: $KSRC)"
bg_wait timeout --foreground "$(budget 3000)" "$REPO/scripts/build-kernel.sh" ||
	die "kernel build failed or ran out of the time budget"

# Our kernel-crate files (the overlay) must compile without a warning from rustc or clippy;
# build-kernel.sh recompiles the crate with CLIPPY=1 on every run.
ours=$(cd "$REPO/rust" && find . -type f | sed 's|^\./|rust/|')
kdiags=$(awk '/^(warning|error)(\[[A-Za-z0-9_:-]+\])?:/ {msg = $0; next}
	msg != "" && /^ *--> / {print $2 " " msg; msg = ""}' "$KBUILDLOG" |
	while read -r loc msg; do
		f=${loc%%:*}
		echo "$ours" | grep -qx "$f" && echo "$loc $msg"
	done || true)
kdiags=$kdiags$(grep -E '^rust/helpers/[^:]+:[0-9]+:[0-9]+: (warning|error):' "$KBUILDLOG" || true)
if ! grep -qE '^ +CLIPPY +L +rust/kernel\.o' "$KBUILDLOG" 2>/dev/null; then
	result FAIL build/kernel-crate-no-warnings "the kernel crate was not compiled with clippy in this run (see $CACHE/kernel-build.log)"
elif [ -n "$kdiags" ]; then
	result FAIL build/kernel-crate-no-warnings "$(echo "$kdiags" | wc -l) diagnostics in our rust/ files: $(echo "$kdiags" | head -3 | tr '\n' '|')"
else
	result PASS build/kernel-crate-no-warnings "kernel crate compiled with CLIPPY=1: no warning in our $(echo "$ours" | wc -l) rust/ files"
fi

# The driver built inside the tree (scripts/overlay.py placed it in drivers/net/ethernet/intel/
# e100_rs with its Kconfig; CONFIG_E100_RS=m), compiled with clippy in this run's kernel build:
# the module the basic suite installs and loads with modprobe.
intree=drivers/net/ethernet/intel/e100_rs
idiags=$(awk '/^(warning|error)(\[[A-Za-z0-9_:-]+\])?:/ {msg = $0; next}
	msg != "" && /^ *--> / {print $2 " " msg; msg = ""}' "$KBUILDLOG" | grep "^$intree/" || true)
idiags=$idiags$(grep -E "^$intree/[^:]+:[0-9]+:[0-9]+: (warning|error):" "$KBUILDLOG" || true)
if ! grep -qE "^ +CLIPPY +\[M\] +$intree/e100_rs\.o" "$KBUILDLOG"; then
	result FAIL build/module-in-tree "$intree/e100_rs.o was not compiled with clippy in this run's kernel build (see $KBUILDLOG)"
elif [ ! -f "$KSRC/$intree/e100_rs.ko" ] || ! grep -qx "CONFIG_E100_RS=m" "$KSRC/.config"; then
	result FAIL build/module-in-tree "no $intree/e100_rs.ko, or CONFIG_E100_RS is not m"
elif [ -n "$idiags" ]; then
	result FAIL build/module-in-tree "$(echo "$idiags" | wc -l) diagnostics: $(echo "$idiags" | head -3 | tr '\n' '|')"
else
	result PASS build/module-in-tree "CONFIG_E100_RS=m: $intree/e100_rs.ko built in the kernel build with CLIPPY=1, no diagnostics"
fi

stage "module"
modlog="$OUT/module-build.log"
# From clean, so that every object is compiled and every diagnostic printed in this run.
make -C "$REPO" KDIR="$KSRC" clean >/dev/null 2>&1 || true
if bg_wait make -C "$REPO" KDIR="$KSRC" >"$modlog" 2>&1 && [ -f "$REPO/e100_rs.ko" ]; then
	if grep -qE "$DIAG_RE" "$modlog"; then
		result FAIL build/module-no-warnings "$(grep -cE "$DIAG_RE" "$modlog") diagnostics: $(grep -m1 -E "$DIAG_RE" "$modlog")"
	else
		result PASS build/module-no-warnings "e100_rs.ko built from clean, no diagnostics"
	fi
else
	result FAIL build/module-no-warnings "build failed, see $modlog"
	grep -E "$DIAG_RE" -A5 "$modlog" | head -40
	exit 1
fi
make -C "$REPO" KDIR="$KSRC" clean >/dev/null 2>&1 || true
if bg_wait make -C "$REPO" KDIR="$KSRC" clippy >"$OUT/clippy.log" 2>&1 && ! grep -qE "$DIAG_RE" "$OUT/clippy.log"; then
	result PASS build/clippy "CLIPPY=1 build of e100_rs clean"
else
	result FAIL build/clippy "$(grep -cE "$DIAG_RE" "$OUT/clippy.log") findings, see $OUT/clippy.log"
fi
# Clippy rebuilt the object with clippy-driver; rebuild the module proper for the guest.
make -C "$REPO" KDIR="$KSRC" clean >/dev/null 2>&1 || true
bg_wait make -C "$REPO" KDIR="$KSRC" >/dev/null 2>&1
fmt_files=("$REPO"/*.rs $(find "$REPO/rust" "$REPO/tests/host/src" "$REPO/tests/host/unit" -name '*.rs'))
if out=$(rustfmt --edition 2021 --check --config-path "$KSRC/.rustfmt.toml" "${fmt_files[@]}" 2>&1); then
	result PASS build/rustfmt "${#fmt_files[@]} files"
else
	result FAIL build/rustfmt "$(echo "$out" | grep -c '^Diff in') hunks differ"
fi

# The patch series (scripts/patch-series.sh, patches/series/README.md): written from the repo
# (fails if patches/series and the overlay disagree), then checked: it applies in order to a
# pristine tree, reproduces the overlay byte for byte, and checkpatch --strict finds no error.
stage "patch series"
serdir="$OUT/series"
if bg_wait "$REPO/scripts/patch-series.sh" "$serdir" >"$OUT/series-write.log" 2>&1; then
	result PASS series/written "$(ls "$serdir"/0*.patch | grep -vc 0000-cover) patches and a cover letter in $serdir"
	bg_wait "$REPO/scripts/patch-series.sh" --check "$serdir" >"$OUT/series-check.log" 2>&1 || true
	while read -r status name detail; do
		result "$status" "$name" "$detail"
	done < <(grep -E '^(PASS|FAIL) series/' "$OUT/series-check.log")
else
	result FAIL series/written "$(grep -v '^ ' "$OUT/series-write.log" | tail -1)"
fi

# Misuse of the kernel-crate abstractions must not compile: each snippet in tests/misuse is
# built as a module against the kernel tree and must fail with the error it names (its first
# error has the `//! expect-error:` code, if any, and the log the `//! expect-message:` text);
# control.rs uses the same
# APIs correctly and must build cleanly, so that a failure means the misuse, not the setup.
stage "misuse snippets"
for f in "$REPO"/tests/misuse/*.rs; do
	name=$(basename "$f" .rs)
	dir=$(mktemp -d "$OUT/misuse-$name.XXXX")
	cp "$f" "$dir/$name.rs"
	echo "obj-m := $name.o" >"$dir/Kbuild"
	rc=0
	bg_wait make -C "$KSRC" M="$dir" LLVM=1 modules >"$dir/build.log" 2>&1 || rc=$?
	if [ "$name" = control ]; then
		if [ "$rc" -eq 0 ] && ! grep -qE "$DIAG_RE" "$dir/build.log"; then
			result PASS misuse/control-compiles "the intended uses of the same APIs build cleanly"
		else
			result FAIL misuse/control-compiles "rc $rc: $(grep -m2 -E "$DIAG_RE" "$dir/build.log" | tr '\n' ' '); see $dir/build.log"
		fi
		continue
	fi
	code=$(sed -n 's|^//! expect-error: *||p' "$f")
	msg=$(sed -n 's|^//! expect-message: *||p' "$f")
	got=$(grep -m1 -E '^error' "$dir/build.log" || true)
	if [ "$rc" -eq 0 ]; then
		result FAIL "misuse/$name" "compiled: the misuse is not ruled out; see $dir/build.log"
	elif [ -n "$code" ] && ! echo "$got" | grep -q "^error\[$code\]"; then
		result FAIL "misuse/$name" "failed, but the first error is not $code: $got"
	elif [ -z "$msg" ] || ! grep -qF -- "$msg" "$dir/build.log"; then
		result FAIL "misuse/$name" "failed, but without '$msg': $got"
	else
		result PASS "misuse/$name" "does not compile: $got"
	fi
done

stage "host cargo test"
hostlog="$OUT/cargo-test.log"
# Every #[test] in tests/host must run and pass: a count of zero, or fewer than are written, fails.
written=$(cat "$REPO"/tests/host/unit/*.rs | grep -cE '^\s*#\[test\]')
if bg_wait sh -c 'cd "$1/tests/host" && cargo test --quiet' sh "$REPO" >"$hostlog" 2>&1; then
	n=$(grep -oE 'ok\. [0-9]+ passed' "$hostlog" | awk '{s+=$2} END{print s+0}')
	if [ "$n" -gt 0 ] && [ "$n" -eq "$written" ]; then
		result PASS host/cargo-test "$n host tests of the pure logic (all $written written)"
	else
		result FAIL host/cargo-test "$n tests ran, $written are written"
	fi
else
	result FAIL host/cargo-test "see $hostlog"
	grep -E 'FAILED|panicked' "$hostlog" | head -10
fi

stage "initramfs"
bg_wait "$REPO/scripts/initramfs.sh" "$INITRD" "$REPO/e100_rs.ko"

# Kernel messages that mean something went wrong, whoever caused it: warnings and BUGs, oopses
# and panics, lockdep, KASAN/UBSAN, DMA-API debugging, slab debugging, kmemleak, RCU stalls,
# soft and hard lockups, hung tasks, the OOM killer, refcount and list corruption, a net device
# that will not unregister (NEVER_RE: accepted nowhere, not even between @@EXPECTSPLAT markers;
# written for awk too, so no {n} intervals); and the transmit watchdog and any stack dump, which
# a suite may provoke on purpose (PROVOKED_RE).
NEVER_RE='DMA-API: .*disabl|dma-debug disabled|kmemleak: .*(disabled|Cannot allocate)|WARNING:|BUG:|BUG [^ ]+ [(]|kernel BUG at|Oops|general protection fault|Kernel panic|INFO: (possible|inconsistent|trying to register)|KASAN|UBSAN|DMA-API: [^ ]+ [0-9a-f][0-9a-f][0-9a-f][0-9a-f]:|Redzone|Poison overwritten|Object padding|Padding overwritten|suspected memory leak|unreferenced object|rcu_(sched|preempt) (self-)?detected stall|rcu: INFO|detected stalls|soft lockup|hard LOCKUP|blocked for more than|hung_task|Out of memory|oom-kill|oom_reaper|refcount_t:|list_(add|del) corruption|unregister_netdevice: waiting|cut here'
PROVOKED_RE='NETDEV WATCHDOG|Call Trace:'
SPLAT_RE="$NEVER_RE|$PROVOKED_RE"

# Results of one boot: its @@TEST lines, then "completed" and "kernel-log-clean" from the
# console log as a whole.
collect() { # collect LOG PREFIX
	local logf=$1 prefix=$2 line status name detail rc last hung splats
	while IFS= read -r line; do
		line=${line%$'\r'}
		read -r _ name status detail <<<"$line"
		result "$status" "$prefix/$name" "$detail"
	done < <(grep -a '^@@TEST ' "$logf")

	rc=$(grep -a '^@@DONE rc=' "$logf" | tail -1 | tr -d '\r' | sed 's/^@@DONE rc=//' || true)
	last=$(grep -aE '^@@(BEGIN|TEST) ' "$logf" | tail -1 | tr -d '\r' || true)
	# Where the guest was: inside a test that started and did not report, or after the last
	# test that did (in the suite's own code between tests), or before any test.
	case "$last" in
	"@@BEGIN "*) hung="in test ${last#@@BEGIN }" ;;
	"@@TEST "*) read -r _ hung _ <<<"$last"; hung="after test $hung" ;;
	*) hung="before the first test" ;;
	esac
	if grep -aq '^@@TIMEOUT' "$logf"; then
		result FAIL "$prefix/completed" "QEMU timed out $hung; see $logf"
	elif grep -aq '^@@ABORT' "$logf"; then
		result FAIL "$prefix/completed" "the guest was killed ($(grep -a '^@@ABORT' "$logf" | tr -d '\r' | cut -c9-))"
	elif [ -z "$rc" ]; then
		result FAIL "$prefix/completed" "the guest died before its end marker, $hung; see $logf"
	elif [ "$rc" != 0 ]; then
		result FAIL "$prefix/completed" "suite exited with status $rc; see $logf"
	else
		result PASS "$prefix/completed" "ran to its end, exit status 0"
	fi

	# The kernel's lines only: the suites' own result lines name tests, not splats. kmemleak's
	# count of leaks that predate the suite's baseline (between the @@KMEMLEAK markers, which
	# the suite prints around it) is not the drivers' doing; nor is the count a reference's
	# kmemleak check prints around its scan, which that test judges itself (lib.sh).
	# A test that provokes a message on purpose (the transmit watchdog of a hung CU) names it
	# between @@EXPECTSPLAT markers: lines matching its pattern are accepted there, not
	# elsewhere, and a pattern that never matched is a splat of its own. What no test provokes
	# (NEVER_RE: a warning, a bug, a DMA-API, lockdep, KASAN or slab report, a hang) is not
	# accepted in any window, however broad its pattern (a fault injector's dump has "CPU: "
	# and "Call Trace:" lines, and so has a WARNING).
	local kernel_lines
	if ! kernel_lines=$(awk -v never="$NEVER_RE" '/^@@KMEMLEAK (baseline|scan) begins/ {b = 1} /^@@KMEMLEAK (baseline|scan) done/ {b = 0}
			b && /kmemleak: [0-9]+ new suspected memory leaks/ {next}
			/^@@EXPECTSPLAT begin / {sub(/\r$/, ""); e = substr($0, 21); seen = 0; next}
			/^@@EXPECTSPLAT end/ {if (e != "" && !seen) print "BUG: expected kernel message /" e "/ never came"; e = ""; next}
			e != "" && $0 ~ e && $0 !~ never {seen = 1; next}
			/^@@(BEGIN|TEST|INFO|METRIC) / {next} {print}' "$logf"); then
		# (a pattern awk cannot compile must not leave the rest of the log unread)
		kernel_lines="BUG: the log could not be scanned (bad @@EXPECTSPLAT pattern?)"
	fi
	splats=$(printf '%s\n' "$kernel_lines" |
		grep -aE "$SPLAT_RE" | tr -d '\r' | head -5 | cut -c1-160 | tr '\n' '|' || true)
	if ! grep -aq 'Linux version 6\.12' "$logf"; then
		result FAIL "$prefix/kernel-log-clean" "no boot banner in $logf"
	elif [ -z "$rc" ]; then
		result FAIL "$prefix/kernel-log-clean" "no end marker: the log is cut short; ${splats:+splats: $splats}"
	elif [ -n "$splats" ]; then
		result FAIL "$prefix/kernel-log-clean" "$splats"
	else
		result PASS "$prefix/kernel-log-clean" "banner to end marker, no splat"
	fi
}

# The harness's self-test knobs, passed to every guest.
abort_arg() {
	[ -z "$ABORT_AFTER" ] || printf ' e100test.abort_after=%s' "$ABORT_AFTER"
	[ -z "$HANG_IN" ] || printf ' e100test.hang_in=%s' "$HANG_IN"
}

kunit() {
	local klog="$OUT/kunit.log" total pass_n fail_n skip_n ours
	bg_wait "$REPO/scripts/qemu-run.sh" --suite kunit --driver none --mac "$MAC" --log "$klog" --kunit \
		--timeout "$(budget 120)" || true
	# Our abstractions' doctests: a file rust/kernel/<path>.rs of ours names its doctests
	# rust_doctest_kernel_<path, / as _>_rs_<n>.
	local files
	files=$(cd "$REPO/rust/kernel" && find . -name '*.rs' | sed 's|^\./||; s|\.rs$||; s|/|_|g' | paste -sd'|')
	ours=$(grep -aE "^ +ok [0-9]+ rust_doctest_kernel_($files)_rs_[0-9]+" "$klog" | wc -l || true)
	total=$(grep -aoE '# rust_doctests_kernel: pass:[0-9]+ fail:[0-9]+ skip:[0-9]+ total:[0-9]+' "$klog" | tail -1 || true)
	read -r pass_n fail_n skip_n < <(echo "$total" | sed -E 's/.*pass:([0-9]+) fail:([0-9]+) skip:([0-9]+).*/\1 \2 \3/') || true
	if [ -z "$total" ]; then
		result FAIL kernel/kunit/rust-doctests "no KTAP totals line; see $klog"
	elif [ "$fail_n" != 0 ] || [ "$skip_n" != 0 ]; then
		result FAIL kernel/kunit/rust-doctests "${total#\# }: $(grep -aE 'not ok [0-9]+ rust_doctest|# SKIP' "$klog" | head -3 | tr -d '\r' | tr '\n' ' ')"
	elif [ "$ours" -lt 1 ]; then
		result FAIL kernel/kunit/rust-doctests "${total#\# }, but none of them in our abstractions"
	else
		result PASS kernel/kunit/rust-doctests "${total#\# }; $ours of them in our abstractions"
	fi
	collect "$klog" kernel/kunit
}

# Host services for the traffic suite, on 127.0.0.1 only; stopped on exit.
free_port() { # free_port tcp|udp: a port that was free a moment ago (callers retry on a clash)
	python3 -c 'import socket,sys; t=socket.SOCK_STREAM if sys.argv[1]=="tcp" else socket.SOCK_DGRAM
s=socket.socket(socket.AF_INET,t); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' "$1"
}
listening() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q LISTEN; }
start_services() {
	local try pid
	for try in 1 2 3 4 5; do
		iperf_port=$(free_port tcp)
		iperf3 -s -B 127.0.0.1 -p "$iperf_port" >"$OUT/iperf3-server.log" 2>&1 &
		pid=$!
		# Listening, or dead (the port was taken in between): wait for either.
		for _ in $(seq 100); do
			listening "$iperf_port" && break
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null && listening "$iperf_port"; then
			pids+=("$pid")
			break
		fi
		kill "$pid" 2>/dev/null || true
		iperf_port=""
	done
	[ -n "$iperf_port" ] || die "iperf3 server would not start; see $OUT/iperf3-server.log"
	# host-server.py binds port 0 itself and prints its ports once it listens.
	python3 "$REPO/scripts/host-server.py" "$OUT/netconsole.log" >"$OUT/host-server.ports" \
		2>"$OUT/host-server.log" &
	pids+=($!)
	for _ in $(seq 100); do [ -s "$OUT/host-server.ports" ] && break; sleep 0.1; done
	read -r http_port sink_port udp_port <"$OUT/host-server.ports" ||
		die "host-server.py did not start; see $OUT/host-server.log"
}

# Throughput metrics, "driver name value median min max", for the summary.
metrics() { # metrics LOG DRIVER
	{ grep -a '^@@METRIC ' "$1" || true; } | tr -d '\r' | while read -r _ name v rest; do
		echo "$2 $name $v $rest" >>"$OUT/metrics.txt"
	done
}

# pcap TESTPREFIX DRIVER MAC... -- PCAP...: what the driver put on the wire (scripts/pcap-check.py).
# On QEMU's model e100.c's known faults there are asserted (the reference results); with DRIVER
# "chip:DRV" (a real board's path on the harness model, its chip rules on) every driver must
# send neither junk nor runts.
pcap_checks() {
	local prefix=$1 drv=$2 macs=() files=() out
	shift 2
	[ "${drv#chip:}" = "$drv" ] || drv=chip
	while [ "$1" != -- ]; do macs+=(--mac "$1"); shift; done
	shift
	files=("$@")
	if ! out=$(python3 "$REPO/scripts/pcap-check.py" "${macs[@]}" "${files[@]}" 2>&1); then
		if [ "$drv" = e100 ]; then
			result FAIL "$prefix/pcap-reference-junk-reproduced" "$out"
			result FAIL "$prefix/pcap-reference-runts-unpadded" "$out"
		else
			result FAIL "$prefix/pcap-no-junk" "$out"
			result FAIL "$prefix/pcap-no-runts" "$out"
		fi
		return
	fi
	local sent judged junk excess runts minlen min=${PCAP_MIN_FRAMES:-1000}
	eval "$(echo "$out" | tr ' ' '\n' | grep -E '^[a-z_]+=[0-9]+$' | sed 's/^max_excess/excess/; s/^min_len/minlen/')"
	if [ "$drv" = e100 ]; then
		# The reference driver leaves a stale second TBD in extended TCBs, and QEMU sends the
		# bytes it describes: assert the bug is still there to be seen.
		if [ "$junk" -gt 0 ]; then
			result PASS "$prefix/pcap-reference-junk-reproduced" "$junk of $judged frames carry up to $excess junk bytes (known C driver bug on QEMU)"
		else
			result FAIL "$prefix/pcap-reference-junk-reproduced" "no junk in $judged frames: has QEMU or e100.c changed?"
		fi
	elif [ "$judged" -ge "$min" ] && [ "$junk" -eq 0 ]; then
		result PASS "$prefix/pcap-no-junk" "$judged frames judged, none longer than its datagram needs"
	else
		result FAIL "$prefix/pcap-no-junk" "$junk of $judged frames longer than needed (up to +$excess bytes)"
	fi
	if [ "$drv" = e100 ]; then
		# e100.c leaves short frames to the chip's padding (Configure byte 18), which QEMU's
		# model ignores: its ARP frames leave at 42 bytes. Assert that this is still what
		# QEMU shows.
		if [ "$runts" -gt 0 ]; then
			result PASS "$prefix/pcap-reference-runts-unpadded" "$runts of $sent frames shorter than 60 bytes, shortest $minlen (e100.c relies on the chip's padding, QEMU does not pad)"
		else
			result FAIL "$prefix/pcap-reference-runts-unpadded" "no frame shorter than 60 bytes in $sent: has QEMU or e100.c changed?"
		fi
	elif [ "$sent" -ge "$min" ] && [ "$runts" -eq 0 ]; then
		result PASS "$prefix/pcap-no-runts" "$sent frames sent, shortest $minlen bytes"
	else
		result FAIL "$prefix/pcap-no-runts" "$runts of $sent frames shorter than 60 bytes (shortest $minlen)"
	fi
}

traffic() { # traffic DRIVER
	local drv=$1 logf="$OUT/traffic-$1.log" pcap="$OUT/traffic-$1.pcap" got
	bg_wait "$REPO/scripts/qemu-run.sh" --suite traffic --driver "$drv" --mac "$MAC" --log "$logf" \
		--pcap "$pcap" --timeout "$(budget 480)" \
		--append "e100test.iperf=$iperf_port e100test.http=$http_port e100test.sink=$sink_port e100test.udp=$udp_port$(abort_arg)" || true
	collect "$logf" "$drv/traffic"
	# Every netconsole message the guest sent must have reached the host's UDP listener.
	if grep -aq '^@@TEST netpoll-poll-controller ' "$logf"; then
		want=$(sed -n 's/^NC_MESSAGES=//p' "$REPO/tests/guest/traffic.sh")
		got=$(grep -aoE "e100test-nc drv=$drv seq=[0-9]+ end" "$OUT/netconsole.log" 2>/dev/null | sort -u | wc -l || true)
		if [ "$got" -eq "$want" ]; then
			result PASS "$drv/traffic/netconsole-delivered" "all $want messages arrived over netpoll at 127.0.0.1:$udp_port"
		else
			result FAIL "$drv/traffic/netconsole-delivered" "$got of $want messages arrived at 127.0.0.1:$udp_port"
		fi
	fi
	# And every line printed from a timer interrupt (netconsole-from-irq).
	if grep -aq '^@@TEST netconsole-from-irq ' "$logf"; then
		want=$(sed -n 's/^@@IRQLINES //p' "$logf" | tr -d '\r' | tail -1)
		got=$(grep -aoE "e100test-irq tag=$drv cpu=[0-9]+ seq=[0-9]+ end" "$OUT/netconsole.log" 2>/dev/null | sort -u | wc -l || true)
		if [ -n "$want" ] && [ "$got" -eq "$want" ]; then
			result PASS "$drv/traffic/netconsole-from-irq-delivered" "all $want lines printed in hard-IRQ context arrived at 127.0.0.1:$udp_port"
		else
			result FAIL "$drv/traffic/netconsole-from-irq-delivered" "$got of ${want:-?} lines printed in hard-IRQ context arrived at 127.0.0.1:$udp_port"
		fi
	fi
	metrics "$logf" "$drv"
	pcap_checks "$drv/traffic" "$drv" "$MAC" 52:54:00:aa:bb:cc -- "$pcap"
}

pair() { # pair DRIVER
	local drv=$1 try pa pb spid rc slog="$OUT/pair-$1-server.log" clog="$OUT/pair-$1-client.log"
	local smac=52:54:00:12:34:01 cmac=52:54:00:12:34:02
	for try in 1 2 3 4 5; do
		pa=$(free_port udp)
		pb=$(free_port udp)
		[ "$pa" != "$pb" ] || continue
		rm -f "$slog" "$clog"
		"$REPO/scripts/qemu-run.sh" --suite pair --driver "$drv" --mac "$smac" \
			--log "$slog" --pcap "$OUT/pair-$drv-server.pcap" --timeout "$(budget 300)" --smp 1 \
			--netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$pa,remote.type=inet,remote.host=127.0.0.1,remote.port=$pb" \
			--append "e100test.role=server$(abort_arg)" &
		spid=$!
		pids+=("$spid")
		# The server must be up (or have failed to bind) before the client starts.
		for _ in $(seq 600); do
			grep -aq '^@@BOOTED' "$slog" 2>/dev/null && break
			kill -0 "$spid" 2>/dev/null || break
			sleep 0.1
		done
		if ! kill -0 "$spid" 2>/dev/null; then
			rc=0
			wait "$spid" || rc=$?
			[ "$rc" -eq 75 ] && continue
		fi
		rc=0
		bg_wait "$REPO/scripts/qemu-run.sh" --suite pair --driver "$drv" --mac "$cmac" \
			--log "$clog" --pcap "$OUT/pair-$drv-client.pcap" --timeout "$(budget 300)" --smp 1 \
			--netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$pb,remote.type=inet,remote.host=127.0.0.1,remote.port=$pa" \
			--append "e100test.role=client$(abort_arg)" || rc=$?
		if [ "$rc" -eq 75 ]; then
			kill "$spid" 2>/dev/null || true
			wait "$spid" 2>/dev/null || true
			continue
		fi
		wait "$spid" || true
		break
	done
	collect "$slog" "$drv/pair-server"
	collect "$clog" "$drv/pair-client"
	metrics "$clog" "$drv"
	# Both guests' frames, from the client's capture (each capture sees the whole link).
	pcap_checks "$drv/pair" "$drv" "$smac" "$cmac" -- "$OUT/pair-$drv-client.pcap"
	malformed "$drv"
}

# malformed DRIVER: a guest whose wire leads to scripts/raw-peer.py, a host process that sends
# runts, oversize frames and fragments no guest can (tests/guest/malformed.sh); on the harness
# QEMU with the model's `runts`, so runts reach the MAC unpadded, as on real hardware.
malformed() {
	local drv=$1 try pp pg ppid rc logf="$OUT/malformed-$1.log"
	[ -n "$HQEMU" ] || return 0
	for try in 1 2 3 4 5; do
		pp=$(free_port udp)
		pg=$(free_port udp)
		[ "$pp" != "$pg" ] || continue
		rm -f "$logf"
		python3 "$REPO/scripts/raw-peer.py" "$pp" "$pg" "$OUT/raw-peer-$drv.log" &
		ppid=$!
		pids+=("$ppid")
		# Bound, or dead (the port was taken in between).
		for _ in $(seq 20); do
			ss -Huln "sport = :$pp" 2>/dev/null | grep -q . && break
			kill -0 "$ppid" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$ppid" 2>/dev/null || continue
		rc=0
		bg_wait "$REPO/scripts/qemu-run.sh" --suite malformed --driver "$drv" --mac "$MAC" \
			--log "$logf" --timeout "$(budget 180)" --smp 1 --qemu "$HQEMU" --nic-props runts=on \
			--netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$pg,remote.type=inet,remote.host=127.0.0.1,remote.port=$pp" \
			--append "$(abort_arg)" || rc=$?
		kill "$ppid" 2>/dev/null || true
		wait "$ppid" 2>/dev/null || true
		# 75: QEMU could not bind its port: try others.
		[ "$rc" -eq 75 ] || break
	done
	collect "$logf" "$drv/malformed"
}

# The link-partner suite runs on the harness QEMU (scripts/build-qemu.sh), with a control line
# from the guest to the model (scripts/qemu-run.sh --lp-dir).
# A guest presented as a real board: the firmware's DMI system vendor is not QEMU's, so e100_rs
# takes the chip's path (qemu.rs), and the model behaves as the chip where that path depends on
# it (patches/qemu/0008-eepro100-chip-rules.patch): microcode idles the CU, extended TCBs read
# as the manual says, short frames padded.
CHIP_BOARD=(--qemu-arg -smbios --qemu-arg "type=1,manufacturer=Intel Corporation,product=e100_rs harness board")
CHIP_PROPS="ucode-idles-cu=on,ext-tcb-manual=on,tx-pad=on"

# harness_boot SUITE DRIVER SECONDS [NIC-PROPS [MODEL [chip]]]: SUITE on the harness QEMU with
# its control line (and the model's properties NIC-PROPS, on QEMU's MODEL of the 8255x instead
# of the i82559er; with "chip", as a real board: CHIP_BOARD); 1 if there is no harness QEMU
# (build/harness-qemu failed: the suite's tests do not report).
harness_boot() {
	local logf="$OUT/$1-$2.log" board=()
	[ -n "$HQEMU" ] || return 1
	[ "${6:-}" != chip ] || board=("${CHIP_BOARD[@]}")
	bg_wait "$REPO/scripts/qemu-run.sh" --suite "$1" --driver "$2" --mac "$MAC" --log "$logf" \
		--qemu "$HQEMU" --lp-dir "$OUT/lp-$1-$2" --timeout "$(budget "$3")" ${4:+--nic-props "$4"} \
		${5:+--nic-model "$5"} "${board[@]}" ${PCAP:+--pcap "$PCAP"} \
		--append "e100test.iperf=$iperf_port e100test.http=$http_port e100test.sink=$sink_port$(abort_arg)" || true
	collect "$logf" "$2/$1"
}

linkpartner() { # linkpartner DRIVER
	harness_boot linkpartner "$1" 1200 || return 0
	metrics "$OUT/linkpartner-$1.log" "$1"
	stock_mode "$1"
}

# With no property set, the harness QEMU must be stock QEMU: the basic suite, booted on it,
# must give every test the result it got on the system's QEMU in this run (or, if this run
# had no basic suite, pass them all), run to its end and leave a clean kernel log.
stock_mode() { # stock_mode DRIVER
	local drv=$1 logf="$OUT/basic-on-harness-qemu-$1.log" got want name="$1/linkpartner/stock-mode-is-stock"
	bg_wait "$REPO/scripts/qemu-run.sh" --suite basic --driver "$drv" --mac "$MAC" --log "$logf" \
		--qemu "$HQEMU" --timeout "$(budget 180)" || true
	got=$({ grep -a '^@@TEST ' "$logf" || true; } | tr -d '\r' | awk '{print $2, $3}' | sort)
	# (grep finds nothing when this run had no basic suite: not an error.)
	want=$(sed -n "s|^\([A-Z]*\) $drv/basic/\([^ ]*\).*|\2 \1|p" "$OUT/results.txt" |
		{ grep -vE '^(completed|kernel-log-clean) ' || true; } | sort)
	[ -n "$want" ] || want=$(echo "$got" | awk '{print $1, "PASS"}')
	if ! grep -aq '^@@DONE rc=0' "$logf"; then
		result FAIL "$name" "the basic suite did not run to its end on the harness QEMU; see $logf"
	elif [ -z "$got" ] || [ "$got" != "$want" ]; then
		result FAIL "$name" "basic suite results differ from stock QEMU's: $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | head -4 | tr '\n' ' ')"
	elif printf '%s\n' "$(grep -avE '^@@' "$logf")" | grep -qaE "$SPLAT_RE"; then
		result FAIL "$name" "kernel splat on the harness QEMU: $(grep -aE "$SPLAT_RE" "$logf" | head -1 | cut -c1-120)"
	else
		result PASS "$name" "the basic suite's $(echo "$got" | wc -l) tests give the same results as on stock QEMU"
	fi
}

# The ethtool surface (tests/guest/ethtool.sh), on the harness QEMU: its PHY keeps the LED
# register that `ethtool -p` drives, which stock QEMU's discards.
# Then a board without an MII PHY (tests/guest/nomii.sh): the model's no-mii property; and an
# 82557 (tests/guest/i82557.sh): QEMU's i82557b, e100.c's mac_82557_D100_C; and an 82551
# (tests/guest/i82551.sh): QEMU's i82551, which needs the D102E microcode.
ethtool_suite() { # ethtool_suite DRIVER
	harness_boot ethtool "$1" 600 || return 0
	harness_boot nomii "$1" 120 no-mii=on
	harness_boot i82557 "$1" 120 "" i82557b
	PCAP="$OUT/i82551-$1.pcap" harness_boot i82551 "$1" 180 "$CHIP_PROPS" i82551 chip &&
		PCAP_MIN_FRAMES=500 pcap_checks "$1/i82551" "chip:$1" "$MAC" -- "$OUT/i82551-$1.pcap"
	ich_board "$1"
}

# ich_board DRIVER: an ICH5 82562 (PCI 0x1050) with ASF and the 82552 PHY, as a real board
# (tests/guest/ich.sh), on the model's i82801 with pci-device-id, eeprom-asf and phy-id; at the
# reboot after its end e100_rs must say that ASF keeps wake-up armed (e100.c's e100_asf rule).
ich_board() {
	local drv=$1 got logf="$OUT/ich-$1.log"
	harness_boot ich "$drv" 120 "$CHIP_PROPS,link-partner=autoneg,pci-device-id=0x1050,eeprom-asf=on,phy-id=0xd061004d" i82801 chip ||
		return 0
	[ "$drv" = e100_rs ] || return 0
	got=$(grep -aoE 'shutdown: quiesced, wake-on-LAN [a-z]+(, ASF: wake-up kept armed)?' "$logf" | tail -1 || true)
	if [ "$got" = "shutdown: quiesced, wake-on-LAN off, ASF: wake-up kept armed" ]; then
		result PASS "$drv/ich/shutdown-hook-asf" "at the reboot: '$got'"
	else
		result FAIL "$drv/ich/shutdown-hook-asf" "at the reboot: '${got:-no message}', want ASF keeping wake-up armed"
	fi
}

# pm DRIVER: suspend, resume, wake-on-LAN and shutdown (tests/guest/pm.sh), on the harness QEMU:
# on the i82559er, then on QEMU's i82558b with the EEPROM saying the board is wired for
# wake-on-LAN. The shutdown hook runs as the guest reboots after its end marker: e100_rs must
# have said so (at message level "wol", which the suite sets), with wake-on-LAN as `ethtool`
# showed (a reboot arms nothing: only a power-off does, which QEMU's -M pc without ACPI cannot
# do); the log scan of `collect` covers that part of the log too.
pm() {
	local drv=$1 b logf want got nic
	[ -n "$HQEMU" ] || return 0
	for b in main wol; do
		logf="$OUT/pm-$b-$drv.log"
		nic=()
		[ "$b" = wol ] && nic=(--nic-model i82558b --nic-props eeprom-wol=on)
		bg_wait "$REPO/scripts/qemu-run.sh" --suite pm --driver "$drv" --mac "$MAC" --log "$logf" \
			--qemu "$HQEMU" --lp-dir "$OUT/lp-pm-$b-$drv" --timeout "$(budget 420)" "${nic[@]}" \
			--append "e100test.pmboot=$b e100test.http=$http_port e100test.sink=$sink_port$(abort_arg)" || true
		collect "$logf" "$drv/pm-$b"
		[ "$drv" = e100_rs ] || continue
		want=$(sed -n 's/^@@SHUTDOWN expected driver=[^ ]* wol=\([a-z]*\).*/\1/p' "$logf" | tr -d '\r' | tail -1)
		case "$want" in g) want=on ;; *) want=off ;; esac
		got=$(grep -aoE 'shutdown: quiesced, wake-on-LAN [a-z]+' "$logf" | tail -1 || true)
		if [ "$got" = "shutdown: quiesced, wake-on-LAN $want" ]; then
			result PASS "$drv/pm-$b/shutdown-hook" "at the reboot: '$got'"
		else
			result FAIL "$drv/pm-$b/shutdown-hook" "at the reboot: '${got:-no message}', want wake-on-LAN $want"
		fi
	done
}

# The test-box path (scripts/test-box.sh, README "On a real test box"), its CI variant: the
# harness configuration packaged with make bindeb-pkg, then the packaged kernel and modules,
# taken out of the .deb files, booted: depmod, the printed modprobe.d snippet makes the NIC's
# modalias load e100_rs, ping, and the way back to e100 (tests/guest/testbox.sh). Last in the
# run: bindeb-pkg relinks the test tree's kernel (a new build number).
testbox() { # testbox DRIVER
	[ "$1" = e100_rs ] || return 0
	local pk="$OUT/test-box" t1 img x
	t1=$(date +%s)
	if ! bg_wait timeout --foreground "$(budget 1800)" "$REPO/scripts/test-box.sh" --config harness \
		--out "$pk" >"$OUT/test-box.log" 2>&1; then
		result FAIL build/test-box-packages "scripts/test-box.sh --config harness: $(grep -v '^ ' "$OUT/test-box.log" | tail -1)"
		return 0
	fi
	img=$(ls "$pk"/linux-image-*.deb | grep -v -- '-dbg_' | head -1)
	result PASS build/test-box-packages "scripts/test-box.sh --config harness: $(cd "$pk" && ls ./*.deb | sed 's|^\./||' | tr '\n' ' ')($(($(date +%s) - t1)) s)"
	x=$(mktemp -d "$OUT/test-box-root.XXXX")
	dpkg-deb -x "$img" "$x"
	E100_RS_PKGDIR=$pk bg_wait "$REPO/scripts/initramfs.sh" "$OUT/test-box-initrd.gz" "$REPO/e100_rs.ko" >/dev/null
	E100_RS_KERNEL=$(ls "$x"/boot/vmlinuz-* | head -1) E100_RS_INITRD=$OUT/test-box-initrd.gz \
		bg_wait "$REPO/scripts/qemu-run.sh" --suite testbox --driver "$1" --mac "$MAC" \
		--log "$OUT/testbox-$1.log" --timeout "$(budget 240)" --append "$(abort_arg)" || true
	collect "$OUT/testbox-$1.log" "$1/testbox"
	# The default, Debian's own configuration, configured (not built: hours): what a box
	# builds must keep Rust, the firmware abstractions the driver uses, E100 and E100_RS.
	if bg_wait timeout --foreground "$(budget 600)" "$REPO/scripts/test-box.sh" --configure-only \
		>"$OUT/test-box-debian.log" 2>&1; then
		result PASS build/test-box-debian-config "$(grep -E '^\[test-box\] (configuration|configured)' "$OUT/test-box-debian.log" | sed 's/^\[test-box\] //' | tr '\n' ';')"
	else
		result FAIL build/test-box-debian-config "$(grep -v '^ ' "$OUT/test-box-debian.log" | tail -1)"
	fi
}

# alloc DRIVER: allocation failures at open and none of a high order after it
# (tests/guest/alloc.sh), with the kernel's fault injection, on the system's QEMU.
alloc() {
	bg_wait "$REPO/scripts/qemu-run.sh" --suite alloc --driver "$1" --mac "$MAC" --log "$OUT/alloc-$1.log" \
		--timeout "$(budget 300)" --append "$(abort_arg)" || true
	collect "$OUT/alloc-$1.log" "$1/alloc"
}

# aer DRIVER: PCI error recovery under traffic (tests/guest/aer.sh), on q35 with the NIC on a
# PCIe root port, on the system's QEMU.
aer() {
	bg_wait "$REPO/scripts/qemu-run.sh" --suite aer --driver "$1" --mac "$MAC" --machine q35-aer \
		--log "$OUT/aer-$1.log" --timeout "$(budget 300)" \
		--append "e100test.http=$http_port e100test.sink=$sink_port$(abort_arg)" || true
	collect "$OUT/aer-$1.log" "$1/aer"
}

# models DRIVER: every 8255x model of QEMU 7.2 in one guest (tests/guest/models.sh), on the
# system's QEMU: the first row of the suite's table is the NIC, the others are --extra-nic
# NICs, each on a user-networking backend of its own, with the MAC the table gives it.
models() {
	local m mac first=() extra=()
	while read -r m mac; do
		if [ "${#first[@]}" -eq 0 ]; then
			first=(--nic-model "$m" --mac "$mac")
		else
			extra+=(--extra-nic "$m,mac=$mac")
		fi
	done < <(sed -n "/^MODELS='/,/^'/p" "$REPO/tests/guest/models.sh" | awk '/^i8/ {print $1, $10}')
	bg_wait "$REPO/scripts/qemu-run.sh" --suite models --driver "$1" "${first[@]}" "${extra[@]}" \
		--log "$OUT/models-$1.log" --timeout "$(budget 420)" \
		--append "e100test.http=$http_port e100test.sink=$sink_port$(abort_arg)" || true
	collect "$OUT/models-$1.log" "$1/models"
}

basic() { # basic DRIVER
	bg_wait "$REPO/scripts/qemu-run.sh" --suite basic --driver "$1" --mac "$MAC" --log "$OUT/basic-$1.log" \
		--timeout "$(budget 180)" --append "$(abort_arg)" || true
	collect "$OUT/basic-$1.log" "$1/basic"
}

case " $SUITES " in *" traffic "* | *" models "* | *" linkpartner "* | *" ethtool "* | *" faults "* | *" pm "*) start_services ;; esac
HQEMU=""
if has_stage pair || has_stage linkpartner || has_stage ethtool || has_stage faults || has_stage pm; then
	stage "harness QEMU"
	qstart=$(date +%s)
	if bg_wait timeout --foreground "$(budget 1500)" "$REPO/scripts/build-qemu.sh" \
		>"$OUT/build-qemu.path" 2>"$OUT/build-qemu.log" && HQEMU=$(cat "$OUT/build-qemu.path") &&
		[ -x "$HQEMU" ]; then
		result PASS build/harness-qemu "Debian's qemu $(dpkg-query -W -f='${source:Version}' qemu-system-x86) + patches/qemu: $HQEMU ($(($(date +%s) - qstart)) s)"
	else
		HQEMU=""
		result FAIL build/harness-qemu "$(tail -1 "$OUT/build-qemu.log")"
	fi
fi
for suite in $SUITES; do
	if [ "$suite" = kunit ]; then
		stage "KUnit doctests"
		kunit
		continue
	fi
	for drv in $DRIVERS; do
		if [ "$(date +%s)" -ge $((deadline - 60)) ]; then
			log "time budget of ${TIME_BUDGET}s spent: suite $suite on $drv not run"
			continue
		fi
		stage "suite $suite on $drv"
		case "$suite" in
		basic | traffic | pair | linkpartner) "$suite" "$drv" ;;
		models) models "$drv" ;;
		ethtool) ethtool_suite "$drv" ;;
		faults)
			harness_boot faults "$drv" 900 || true
			alloc "$drv"
			aer "$drv"
			;;
		pm) pm "$drv" ;;
		testbox) testbox "$drv" ;;
		*) die "unknown suite $suite" ;;
		esac
	done
done
