#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Allocation failures, with the kernel's fault injection (failslab, fail_page_alloc; the stack
# filter limits them to allocations made from the driver's code, require-start/-end on the
# module's text):
# - open with every such allocation failing: `ip link set up` fails with an errno, the
#   interface stays down, and with injection off it comes up and passes traffic;
# - after a first successful open, a resize (ethtool -G), a reset (down and up, what the
#   transmit-timeout reset runs) and a suspend-resume (pm_test) with every allocation of order
#   1 or more failing (fail_page_alloc min-order=1): e100_rs needs none (its CB block and RFA
#   array are kept from the first open); each injected failure is logged with its stack, and
#   those of the page-fragment cache's opportunistic refill (order 3, falling back to order 0:
#   the kernel's policy, not a need) are told apart. e100.c's count is recorded beside.
# shellcheck disable=SC1091
. /tests/lib.sh

drv=$DRIVER
HOST=10.0.2.2
FI=/sys/kernel/debug
mount -t debugfs none /sys/kernel/debug 2>/dev/null

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
pinged() { wait_for 10 ping -c 1 -W 1 "$HOST" >/dev/null; }
link_wait() { wait_for "$1" grep -qx 1 "/sys/class/net/$ifc/carrier"; }

kmemleak_baseline
begin setup
if [ ! -d "$FI/fail_page_alloc" ] || ! load_driver "$drv" || ! ifc=$(nic_if) || [ -z "$ifc" ] ||
	[ -z "$(mod_range)" ]; then
	fail setup "no fault injection in debugfs, no interface, or no module symbols"
	exit 1
fi
ip addr add 10.0.2.15/24 dev "$ifc"
pass setup "$ifc; $drv text $(mod_range | tr ' ' '-')"

begin open-fails-cleanly
expect_splat_begin 'Call Trace:|FAULT_INJECTION|page allocation failure|Mem-Info|Node 0|DMA|Normal|pages|hugepages|Free swap|Total swap|Swap cache|lowmem_reserve|active_anon|free:|slab|CPU: |Hardware name|Workqueue|Tainted'
dmesg -c >/dev/null
inject failslab 0
inject fail_page_alloc 0
ip link set "$ifc" up 2>/tmp/up.err
rc=$?
uninject
expect_splat_end
n=$(($(injected failslab) + $(injected fail_page_alloc)))
state=$(cat "/sys/class/net/$ifc/operstate")
flags=$(ip -o link show "$ifc" | grep -o '<[^>]*>')
ip link set "$ifc" up 2>/dev/null
if [ "$rc" != 0 ] && ! echo "$flags" | grep -q ',UP' && [ "$n" -gt 0 ] && link_wait 10 && pinged; then
	pass open-fails-cleanly "ip link set up with $n allocation(s) failed: '$(tr -d '\n' </tmp/up.err)', left $flags; with injection off: up, link, ping"
else
	fail open-fails-cleanly "rc $rc ('$(tr -d '\n' </tmp/up.err)'), $n injected, left $state $flags; afterwards: $(ip -o link show "$ifc" | grep -o '<[^>]*>')"
fi

# After the first open: no high-order allocation of the driver's own for a resize, a reset or a
# resume.
# (No expected-splat markers: an injected failure here logs its stack, which the harness's
# log scan then flags too.)
begin no-high-order-after-open
dmesg -c >/dev/null
inject fail_page_alloc 1
bad=""
ethtool -G "$ifc" rx 256 tx 256 2>/tmp/g.err || bad="$bad [resize to 256/256: $(cat /tmp/g.err)]"
link_wait 10 && pinged || bad="$bad [no ping after the resize]"
ethtool -G "$ifc" rx 64 tx 64 2>/tmp/g.err || bad="$bad [resize to 64/64: $(cat /tmp/g.err)]"
link_wait 10 && pinged || bad="$bad [no ping after the second resize]"
ip link set "$ifc" down && ip link set "$ifc" up || bad="$bad [down and up failed]"
link_wait 10 && pinged || bad="$bad [no ping after down and up]"
echo devices >/sys/power/pm_test 2>/dev/null
echo mem >/sys/power/state 2>/tmp/pm.err || bad="$bad [suspend: $(cat /tmp/pm.err)]"
echo none >/sys/power/pm_test 2>/dev/null
link_wait 15 && pinged || bad="$bad [no ping after the resume]"
uninject
set -- $(own_failures)
all=$1 own=$2
ethtool -G "$ifc" rx 256 tx 128 2>/dev/null
what="resize 256/256 and 64/64, down and up, suspend-resume"
if [ "$drv" = e100_rs ]; then
	if [ -z "$bad" ] && [ "$own" = 0 ]; then
		pass no-high-order-after-open "$what with order >= 1 failing: all worked, $all failure(s) injected, all in the page-fragment cache's refill (it falls back to order 0), none of the driver's own"
	else
		fail no-high-order-after-open "$what:$bad; $own of the driver's own high-order allocations failed ($all injected)"
		dmesg | grep -A12 'FAULT_INJECTION' | grep -E 'e100_rs|alloc' | head -12 | sed 's/^/@@INFO /'
	fi
else
	echo "@@INFO e100.c: $what with order >= 1 failing:${bad:- all worked}; $own of its own high-order allocations failed ($all injected)"
fi

ip link set "$ifc" down
unload_driver "$drv"
kmemleak_check kmemleak-after-unload
