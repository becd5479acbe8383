# Helpers for guest test suites. Source it.
#
# Protocol with the host (scripts/test.sh reads the serial console):
#   @@BEGIN <name>                  a test starts (a hang is reported against it)
#   @@TEST <name> PASS|FAIL <text>  its result
#   @@METRIC <name> <value> ...     a measurement for the run's summary
#   @@INFO <text>                   context for a human reading the log
# init prints @@BOOTED first and @@DONE rc=<suite's exit status> last. The host checks every
# result against tests/manifest.txt: a test that never reports is a failure there.

# The real iproute2, not busybox's `ip` applet (which the static busybox's shell prefers to
# anything on PATH, and which has no `ip maddr`, among others).
ip() { /usr/sbin/ip "$@"; }

# arg KEY: the value of KEY=... on the kernel command line.
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -1; }

# The harness's self-test knobs (E100_RS_ABORT_AFTER and E100_RS_HANG_IN on the host): the
# guest dies right after reporting test ABORT_AFTER, as a guest killed half way (OOM, panic, a
# shell error) would; or it hangs when test HANG_IN starts, as a stuck test would.
ABORT_AFTER=$(arg e100test.abort_after)
HANG_IN=$(arg e100test.hang_in)

# begin NAME: a test starts.
begin() {
	echo "@@BEGIN $1"
	if [ -n "$HANG_IN" ] && [ "$1" = "$HANG_IN" ]; then
		echo "@@INFO harness self-test: hanging in $1"
		while :; do sleep 3600; done
	fi
}

_result() { # _result PASS|FAIL NAME DETAIL
	echo "@@TEST $2 $1 $3"
	if [ -n "$ABORT_AFTER" ] && [ "$2" = "$ABORT_AFTER" ]; then
		echo "@@ABORT harness self-test: the guest dies after $2"
		reboot -f
		sleep 60
	fi
}

# pass NAME [DETAIL] / fail NAME DETAIL: one result line each, for the host to collect.
pass() { _result PASS "$1" "${2:-}"; }
fail() { _result FAIL "$1" "${2:-}"; }

# check NAME CMD...: PASS if CMD succeeds, FAIL with its output otherwise.
check() {
	name=$1
	shift
	begin "$name"
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(echo "$out" | tr '\n' ' ' | cut -c1-300)"; fi
}

# napi_threads IFC: the PIDs of IFC's NAPI threads (napi/IFC-<id>), space-separated.
napi_threads() { grep -l "^napi/$1-" /proc/[0-9]*/comm 2>/dev/null | cut -d/ -f3 | tr '\n' ' '; }

# napi_mode IFC: both drivers poll NAPI in softirq context, whatever the CPU count (e100_rs
# once took a thread on one CPU; sending suffered, README's benchmark): sysfs's threaded reads
# 0 and no NAPI thread exists. One result, "napi-mode", with the CPU count, the sysfs setting
# and the threads seen.
napi_mode() {
	cpus=$(grep -c '^processor' /proc/cpuinfo)
	thr=$(cat "/sys/class/net/$1/threaded" 2>/dev/null)
	kt=$(napi_threads "$1" | wc -w)
	begin napi-mode
	if [ "$thr" = 0 ] && [ "$kt" -eq 0 ]; then
		pass napi-mode "$cpus CPU(s): threaded=$thr, $kt NAPI thread(s)"
	else
		fail napi-mode "$cpus CPU(s): threaded=$thr (want 0), $kt NAPI thread(s)"
	fi
}

# kmod's tools where the initramfs has them (scripts/initramfs.sh), by path: busybox's ash runs
# its own applet of the same name for a bare command name, whatever PATH says.
for t in modprobe modinfo depmod; do
	[ ! -x "/sbin/$t" ] || eval "$t() { /sbin/$t \"\$@\"; }"
done

# The module file and load order for a driver: by path (/mods: the out-of-tree e100_rs), or,
# with LOAD=modprobe, the installed modules (/lib/modules: the in-tree build) by name, their
# dependencies (e100 needs mii) from depmod's index.
LOAD=insmod
load_driver() {
	if [ "$LOAD" = modprobe ]; then
		modprobe "$1"
		return
	fi
	case "$1" in
	e100) insmod /mods/mii.ko 2>/dev/null; insmod /mods/e100.ko ;;
	e100_rs) insmod /mods/e100_rs.ko ;;
	*) echo "unknown driver $1"; return 1 ;;
	esac
}
unload_driver() { rmmod "$1"; }

# The PCI function of the emulated 8255x: the i82559er (8086:1209), the 82557/8/9 of the
# other models (8086:1229), or an ICH part (the i82801's 8086:2449, or another ID the harness
# model's pci-device-id gives it): the one Intel Ethernet controller of the guest.
nic_pci() {
	for d in /sys/bus/pci/devices/*; do
		if [ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/class")" = 0x020000 ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

# The interface bound to the NIC (eth0, ...), if any.
nic_if() {
	d=$(nic_pci) || return 1
	ls "$d/net" 2>/dev/null | head -1
}

# gro_state IFACE: "on" or "off", the interface's generic receive offload (ethtool -k).
gro_state() { ethtool -k "$1" | awk '$1 == "generic-receive-offload:" {print $2}'; }

# clock_is_tsc: 1 when the kernel's clocksource is the TSC, else 0.
clock_is_tsc() { grep -qx tsc /sys/devices/system/clocksource/clocksource0/current_clocksource && echo 1 || echo 0; }

# uptime_cs: seconds since boot, in hundredths.
uptime_cs() { awk '{printf "%d", $1 * 100}' /proc/uptime; }

# wait_for SECONDS CMD...: retry CMD every 0.1 s until it succeeds or SECONDS have passed
# (wall time: a CMD that itself takes time, as ping -W 1, does not stretch the bound).
wait_for() {
	end=$(($(uptime_cs) + $1 * 100))
	shift
	while :; do
		"$@" >/dev/null 2>&1 && return 0
		[ "$(uptime_cs)" -lt "$end" ] || return 1
		sleep 0.1
	done
}

# ethstat IFACE NAME: one `ethtool -S` counter.
ethstat() { ethtool -S "$1" | awk -v k="$2:" '$1 == k {print $2}'; }

# iperf_rate OUTPUT: the receiver's total Mbit/s from iperf3 -f m output ("" if none).
iperf_rate() {
	echo "$1" | grep ' receiver$' | tail -1 |
		awk '{for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") print $(i-1)}'
}

# at_least VALUE FLOOR: whether VALUE (a decimal) is a number no smaller than FLOOR.
at_least() { [ -n "$1" ] && awk -v v="$1" -v f="$2" 'BEGIN{exit !(v + 0 >= f + 0)}'; }

# iperf_intervals OUTPUT: "median min max" of the per-second Mbit/s rates in iperf3 -f m output
# (the interval lines, not the sender/receiver summaries; a final stub interval shorter than
# half a second, which iperf3 -R prints with next to nothing in it, is left out).
iperf_intervals() {
	echo "$1" | grep -E '^\[ *[0-9]+\] +[0-9.]+-[0-9.]+ +sec' | grep -vE 'sender|receiver' |
		awk '{split($3, t, "-"); if (t[2] - t[1] < 0.5) next
			for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") print $(i-1)}' | sort -n |
		awk '{v[NR] = $1} END {if (NR) printf "%s %s %s", (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2), v[1], v[NR]}'
}

# --- kprobes: counting calls into a driver without instrumenting it ----------------------------
TRACING=/sys/kernel/tracing

# kprobe_add NAME MODULE PATTERN [FETCHARGS]: a kprobe event e100test/NAME on the function of
# MODULE whose symbol matches PATTERN (an extended regex; a Rust symbol is matched in its
# mangled form), recording FETCHARGS (kprobetrace syntax, e.g. "reg=%cx:u8"). Prints the
# symbol; fails if none or several match.
kprobe_add() {
	[ -d "$TRACING/events" ] || mount -t tracefs nodev "$TRACING" || return 1
	syms=$(awk -v m="[$2]" '$4 == m && ($2 == "t" || $2 == "T") {print $3}' /proc/kallsyms |
		grep -E "$3")
	[ "$(echo "$syms" | grep -c .)" = 1 ] || { echo "symbols matching '$3' in $2: '$syms'"; return 1; }
	kprobe_add_kernel "$1" "$2:$syms${4:+ $4}" || return 1
	echo "$syms"
}

# kprobe_add_kernel NAME SYMBOL: a kprobe event e100test/NAME on the kernel's function SYMBOL
# (MODULE:SYMBOL for a module's; one of the same name left from before is taken away first).
kprobe_add_kernel() {
	[ -d "$TRACING/events" ] || mount -t tracefs nodev "$TRACING" || return 1
	[ ! -d "$TRACING/events/e100test/$1" ] || kprobe_del "$1" 2>/dev/null
	echo "p:e100test/$1 $2" >>"$TRACING/kprobe_events" || return 1
	echo 1 >"$TRACING/events/e100test/$1/enable"
}

# kprobe_hits NAME: how many times the probe fired.
kprobe_hits() { awk -v e="e100test/$1" '$1 == e || $1 == substr(e, 10) {print $2}' "$TRACING/kprobe_profile"; }

# kprobe_del NAME
kprobe_del() {
	echo 0 >"$TRACING/events/e100test/$1/enable"
	echo "-:e100test/$1" >>"$TRACING/kprobe_events"
}

# --- kmemleak ------------------------------------------------------------------------------------
KMEMLEAK=/sys/kernel/debug/kmemleak

# kmemleak_baseline: forget what is unreferenced now, so a later check reports only new leaks.
# kmemleak judges only objects older than 5 s, so the boot's own objects are let age first.
# The scan may report leaks of the boot itself; the host's log check ignores that count
# between the two @@KMEMLEAK markers.
kmemleak_baseline() {
	[ -e "$KMEMLEAK" ] || mount -t debugfs none /sys/kernel/debug
	sleep 5
	echo "@@KMEMLEAK baseline begins"
	if echo scan >"$KMEMLEAK" && echo clear >"$KMEMLEAK"; then
		KMEMLEAK_READY=1
	else
		KMEMLEAK_READY=0
	fi
	echo "@@KMEMLEAK baseline done"
}

# kmemleak_check NAME: FAIL NAME if kmemleak finds objects leaked since the baseline (or cannot
# look). Objects younger than 5 s are not judged by kmemleak, so it waits that long first. The
# report goes to the console log whole.
kmemleak_check() {
	begin "$1"
	if [ "${KMEMLEAK_READY:-0}" != 1 ]; then
		fail "$1" "kmemleak unavailable: no baseline was taken ($(ls "$KMEMLEAK" 2>&1))"
		return
	fi
	sleep 6
	# e100.c leaks its microcode blob (below): the kernel's own "suspected memory leaks" line
	# for it is not a splat of the run; this test judges what the scan found.
	[ "${DRIVER:-}" = e100 ] && echo "@@KMEMLEAK scan begins"
	if ! echo scan >"$KMEMLEAK" || ! echo scan >"$KMEMLEAK" || ! report=$(cat "$KMEMLEAK"); then
		[ "${DRIVER:-}" = e100 ] && echo "@@KMEMLEAK scan done"
		fail "$1" "kmemleak did not scan (disabled? see the log)"
		return
	fi
	[ "${DRIVER:-}" = e100 ] && echo "@@KMEMLEAK scan done"
	objs=$(echo "$report" | grep -c '^unreferenced object')
	if [ -z "$report" ]; then
		pass "$1" "no new unreferenced objects"
	elif [ "${DRIVER:-}" = e100 ] && [ "$(echo "$report" | grep -c '_request_firmware')" = "$objs" ]; then
		# e100.c keeps the microcode blob it loaded (nic->fw) and never releases it: every
		# unload after a load leaks the loader's struct firmware. The reference's known
		# fault, asserted as such; anything else fails as usual.
		echo "@@INFO kmemleak report (e100.c's firmware leak):"
		echo "$report" | sed 's/^/@@INFO /'
		pass "$1" "only e100.c's known leak: $objs struct firmware from request_firmware, never released"
	else
		echo "@@INFO kmemleak report:"
		echo "$report"
		fail "$1" "$(echo "$report" | grep -c '^unreferenced object') unreferenced objects: $(echo "$report" | grep -A12 'backtrace' | grep -E '\[<' | head -6 | sed 's/.*\] //' | tr '\n' ' ')"
	fi
}

# --- the harness QEMU's link-partner model (patches/qemu/README.md) -------------------------
# The control line is the guest's second serial port; scripts/lp-bridge.py on the host turns
# each request into QMP qom-get/qom-set on the NIC (scripts/qemu-run.sh --lp-dir).
LPCTL_TTY=/dev/ttyS1
lp_open() {
	stty -F "$LPCTL_TTY" raw -echo -icrnl -onlcr 115200 || return 1
	exec 9<>"$LPCTL_TTY"
}
# lpctl get PROP / lpctl set PROP VALUE: prints the model's answer (the value for get); fails
# with the model's error on stderr, or when no answer comes in 10 s. Each request carries an
# id that the answer repeats, so a late answer to an earlier request is skipped, not taken.
lpctl() {
	local id reply
	id=$(cut -c1-8 /proc/sys/kernel/random/uuid)
	echo "$id $*" >&9
	while :; do
		if ! read -t 10 -r reply <&9; then
			echo "lpctl $*: no answer" >&2
			return 1
		fi
		case "$reply" in "$id "*) break ;; esac
	done
	reply=${reply#"$id "}
	case "$reply" in
	OK) return 0 ;;
	"OK "*) echo "${reply#OK }" ;;
	*) echo "lpctl $*: $reply" >&2; return 1 ;;
	esac
}
# lp_partner SPEC: set the partner. SPEC is autoneg:ADVERTISE, forced:SPEED:half|full or absent.
lp_partner() {
	case "$1" in
	autoneg:*) lpctl set lp-advertise "${1#autoneg:}" && lpctl set link-partner autoneg ;;
	forced:*) lpctl set lp-speed "$(echo "$1" | cut -d: -f2)" &&
		lpctl set lp-duplex "$(echo "$1" | cut -d: -f3)" && lpctl set link-partner forced ;;
	absent) lpctl set link-partner absent ;;
	*) echo "lp_partner: bad spec $1" >&2; return 1 ;;
	esac
}

# The guest announces a kernel message it provokes on purpose (the transmit watchdog when a
# test hangs the CU): the host's log check accepts lines matching ERE between the markers, and
# only there.
expect_splat_begin() { echo "@@EXPECTSPLAT begin $1"; }
expect_splat_end() { echo "@@EXPECTSPLAT end"; }

# --- fault injection (alloc, faults) ---------------------------------------------------------
# failslab and fail_page_alloc, limited by the stack filter to allocations made from the
# driver's code ($drv).
FI=/sys/kernel/debug
# The module's text, from its symbols: [lowest, highest + 64 KiB).
mod_range() {
	awk -v m="[$drv]" '$NF == m && ($2 == "t" || $2 == "T") {print $1}' /proc/kallsyms | sort |
		awk 'NR == 1 {lo = $1} {hi = $1} END {if (lo != "") printf "0x%s 0x%s\n", lo, hi}'
}
# inject WHAT MIN_ORDER: fail every allocation of WHAT (failslab, fail_page_alloc) from the
# driver's code (of at least MIN_ORDER pages, for fail_page_alloc), logging each with its stack.
inject() {
	d=$FI/$1
	set -- $(mod_range) "$2"
	lo=$1 hi=$(printf '0x%x' $(($2 + 0x10000)))
	echo "$lo" >"$d/require-start"
	echo "$hi" >"$d/require-end"
	echo 32 >"$d/stacktrace-depth"
	echo N >"$d/task-filter"
	echo N >"$d/ignore-gfp-wait"
	[ -e "$d/ignore-gfp-highmem" ] && echo N >"$d/ignore-gfp-highmem"
	[ -e "$d/min-order" ] && echo "$3" >"$d/min-order"
	echo 2 >"$d/verbose"
	echo 1 >"$d/interval"
	echo 1000 >"$d/times"
	echo 100 >"$d/probability"
	# failslab fails only the caches flagged for it: all but radix_tree_node, whose nodes the
	# DMA-API debugging allocates from inside our mapping calls for its cacheline tracking, and
	# a failure there turns that debugging off for the rest of the boot ("DMA-API: cacheline
	# tracking ENOMEM, dma-debug disabled").
	if [ "${d##*/}" = failslab ] && [ -e "$d/cache-filter" ]; then
		for c in /sys/kernel/slab/*/failslab; do
			case $c in */radix_tree_node/failslab) v=0 ;; *) v=1 ;; esac
			echo "$v" >"$c" 2>/dev/null
		done
		echo Y >"$d/cache-filter"
	fi
}
uninject() {
	for w in failslab fail_page_alloc; do echo 0 >"$FI/$w/probability"; done
}
injected() { echo $((1000 - $(cat "$FI/$1/times"))); }
# The injected failures since `dmesg -c`, as blocks of their stacks: how many, and how many not
# from the page-fragment cache.
own_failures() {
	dmesg | awk '/FAULT_INJECTION: forcing a failure/ {if (b) n++; if (b && !f) o++; b = 1; f = 0; next}
		b && /page_frag/ {f = 1} END {if (b) n++; if (b && !f) o++; printf "%d %d\n", n, o}'
}

# --- transfers checked end to end (faults, pm) -------------------------------------------------
# They talk to scripts/host-server.py at $HOST: /blob/N sends N bytes and /sha/last the SHA-256
# of the last blob sent; the sink port answers an upload with "SHA LENGTH". The suite sets
# HOST, HTTP_PORT, SINK_PORT and MIB (the size `intact` moves each way).
# down_start MIB: a download of MIB MiB in the background (its digest in /tmp/down.sha,
# wget's status in /tmp/down.rc); down_check: waits for it and sets $res to "ok SHA" if it
# matches what the host sent, or to what went wrong. (Not called as $(down_check): a
# subshell cannot wait for its parent's background job.)
down_start() {
	rm -f /tmp/down.sha /tmp/down.rc
	(
		timeout 120 wget -q -O - "http://$HOST:$HTTP_PORT/blob/$(($1 * 1048576))" | sha256sum | cut -d' ' -f1 >/tmp/down.sha
		echo $? >/tmp/down.rc
	) &
	down_pid=$!
	down_n=$(($1 * 1048576))
}
down_check() {
	wait "$down_pid"
	got=$(cat /tmp/down.sha 2>/dev/null)
	sent=$(timeout 20 wget -q -O - "http://$HOST:$HTTP_PORT/sha/last")
	if [ -n "$got" ] && [ "$got" = "$sent" ]; then
		res="ok $got"
	else
		res="bad: received sha ${got:-none}, host sent ${sent:-?} ($down_n bytes)"
	fi
}
# up_start MIB / up_check: the same for an upload to the host's sink.
up_start() {
	dd if=/dev/urandom of=/tmp/up.bin bs=1M count="$1" 2>/dev/null
	up_mine="$(sha256sum /tmp/up.bin | cut -d' ' -f1) $(($1 * 1048576))"
	rm -f /tmp/up.reply
	(timeout 120 nc "$HOST" "$SINK_PORT" </tmp/up.bin >/tmp/up.reply) &
	up_pid=$!
}
up_check() {
	wait "$up_pid"
	reply=$(cat /tmp/up.reply 2>/dev/null)
	rm -f /tmp/up.bin
	if [ "$reply" = "$up_mine" ]; then res="ok ${reply%% *}"; else res="bad: sent '$up_mine', host got '${reply:-nothing}'"; fi
}
# intact: a fresh transfer each way after a fault; sets $res to "ok" or what failed.
intact() {
	down_start "$MIB"
	down_check
	d=$res
	up_start "$MIB"
	up_check
	u=$res
	case "$d $u" in "ok "*" ok "*) res=ok ;; *) res="download: $d; upload: $u" ;; esac
}
