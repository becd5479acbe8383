# Helpers for guest test suites. Source it.

# arg KEY: the value of KEY=... on the kernel command line.
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -1; }

# pass NAME [DETAIL] / fail NAME DETAIL: one result line each, for the host to collect.
pass() { echo "@@TEST $1 PASS ${2:-}"; }
fail() { echo "@@TEST $1 FAIL ${2:-}"; }

# check NAME CMD...: PASS if CMD succeeds, FAIL with its output otherwise.
check() {
	name=$1
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$(echo "$out" | tr '\n' ' ' | cut -c1-300)"; fi
}

# The module file and load order for a driver.
load_driver() {
	case "$1" in
	e100) insmod /mods/mii.ko 2>/dev/null; insmod /mods/e100.ko ;;
	e100_rs) insmod /mods/e100_rs.ko ;;
	*) echo "unknown driver $1"; return 1 ;;
	esac
}
unload_driver() { rmmod "$1"; }

# The PCI function of the emulated i82559er (8086:1209).
nic_pci() {
	for d in /sys/bus/pci/devices/*; do
		if [ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/device")" = 0x1209 ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

# The interface bound to the i82559er (eth0, ...), if any.
nic_if() {
	d=$(nic_pci) || return 1
	ls "$d/net" 2>/dev/null | head -1
}

# wait_for SECONDS CMD...: retry CMD every 0.1 s until it succeeds or time runs out.
wait_for() {
	t=$(($1 * 10))
	shift
	while [ "$t" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		t=$((t - 1))
	done
	return 1
}

# Kernel log problems: WARNING/BUG/Oops/lockdep/DMA-API splats since boot.
kernel_splats() {
	dmesg | grep -E 'WARNING:|BUG:|BUG [a-z]|Oops|general protection|INFO: possible|DMA-API: [^ ]+ [0-9a-f]{4}:|UBSAN|refcount_t:|unregister_netdevice: waiting|Redzone|Poison overwritten|Object padding' || true
}

# iperf_intervals OUTPUT: "median min max" of the per-second Mbit/s rates in iperf3 -f m output
# (the interval lines, not the sender/receiver summaries; a final stub interval shorter than
# half a second, which iperf3 -R prints with next to nothing in it, is left out).
iperf_intervals() {
	echo "$1" | grep -E '^\[ *[0-9]+\] +[0-9.]+-[0-9.]+ +sec' | grep -vE 'sender|receiver' |
		awk '{split($3, t, "-"); if (t[2] - t[1] < 0.5) next
			for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") print $(i-1)}' | sort -n |
		awk '{v[NR] = $1} END {if (NR) printf "%s %s %s", (NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2), v[1], v[NR]}'
}
