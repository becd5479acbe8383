#!/usr/bin/env bash
# The benchmark command (README, "Benchmark"): both drivers on the same emulated i82559er, on a
# kernel built from the same tree without the test kernel's run-time debugging
# (scripts/kernel-bench.config), separate from the test command.
#
#   scripts/bench.sh [--count-only | --wall-only | --sweep-only | --tcp-only | --small-only |
#                     --overload-only RATE [--repeats N]] [--rx-ring N]
#                    [--napi softirq|thread] [--gro on|off] [--rounds N] [--runs N] [--packets N] [--out DIR]
#
# Wall-clock rounds (--rounds, 5 by default): in each round each driver boots once, e100_rs
# then e100 (ABAB...), on the same QEMU with the same pinning (the guest's QEMU on host CPU 1,
# the host's iperf3 and scripts/bench/host.py on CPU 0), and runs scripts/bench/wall.sh: TCP
# each way and both at once, UDP packets per second at 64 and 1472 bytes each way, ping RTT,
# interrupts per packet and guest CPU per megabit, a UDP receive sweep with a 4x overload, and
# a write-size sweep. Then two guests of the same driver over a QEMU dgram link (TCP each way,
# scripts/bench/wallpair.sh), and one guest on the harness QEMU with its link-partner model
# autonegotiating 100 Mb/s full duplex and the wire timed (TCP each way). scripts/bench/report.py gives each metric's median and spread
# per driver and the e100_rs/e100 ratio with a bootstrap confidence interval and a
# Mann-Whitney test (scipy), and draws the charts (matplotlib).
#
# --sweep-only: rounds of the UDP receive sweep and its overload alone (one boot per driver and
# round, e100test.bonly=sweep), no counts, no timed wire, no guest pair: the overload question
# in a few minutes. --tcp-only: the same for TCP each way (e100test.bonly=tcp); --small-only for
# small frames (UDP sent at 64 and 1472 bytes, ping, TCP writes of 512 B and 1 KiB).
# --overload-only RATE: in each boot, 1400-byte datagrams offered at RATE Mbit/s for 3 s,
# --repeats times (4 by default), each repeat a sample: how often a driver collapses under the
# same overload (the sweep's 4x step is one sample a round, at each driver's own rate). --napi
# softirq|thread: both drivers' NAPI in that context in the wall rounds (e100test.threaded),
# to compare the drivers with the NAPI mode out of the picture. --gro off: both drivers'
# interface with GRO off (ethtool -K) in the wall rounds; e100.c passes GRO by in any case.
# --rx-ring N: both drivers' receive ring N RFDs long (ethtool -G; 256 by default).
#
# Instruction counts (--count-only: only these): each driver boots twice (--runs) on one vCPU
# thread with the insncount TCG plugin (scripts/bench/insncount.c, built from the qemu source
# package the harness QEMU comes from), runs fixed workloads (scripts/bench/count.sh: N
# datagrams of 1400 and 64 bytes each way, N/10 pings, 10 s idle, N*256 bytes of TCP in 512-byte
# writes with Nagle off, and a flood of 5N datagrams offered 4 us apart with GRO on and off,
# counted per frame taken in), and scripts/bench/insns.py
# turns the counts into instructions per packet: in the driver's module, the Rust helpers, the
# rest of the kernel's Rust code, the whole kernel. Counts do not depend on the machine's speed
# as long as the guest keeps up with the paced receive phases (a frame every 2.5 ms, each taken
# alone: count.sh reports a phase whose interrupts say otherwise, as on a host loaded beside the
# run, and the boot is made again, up to twice;
# tcp-512's depend on how ACKs and interrupts fall in time, not on how fast they come; the
# floods' on how many frames get in, which the machine's speed decides);
# the two runs show how well they repeat. The counting boots run the tick periodically
# (nohz=off; the wall rounds keep the benchmark kernel's NO_HZ_IDLE): with the tick stopped on
# idle, whether an idle entry between paced frames stops it depends on timing, and the paced
# receive phases' whole-kernel counts moved 1.4-2.1% between two runs made to check it. The
# counting guest also folds the per-CPU statistics hourly, holds the host's neighbour entry
# permanent and runs without TCP early demux (scripts/bench/count.sh says why), and its vCPU has
# RDRAND (TCG emulates it), so the kernel's random number generator is ready at boot: without a
# seed it came ready ("crng init done") only around the ping phase, and until then every
# get_random_u32 (one a ping, for the IP ID) cost a ChaCha block of its own, which moved e100's
# ping whole-kernel row 1.70% between two runs. Both drivers
# count with NAPI in softirq context, their default, set all the same (e100test.threaded=0): a
# NAPI thread's wake-ups (about 3,000 instructions a received frame here) are the scheduler's
# cost, not the driver's.
#
# Register accesses, counted by the same plugin, exactly: in a second counting boot beside each
# instruction-count boot (same workloads, same markers), the plugin (mmio=on) gives every guest
# instruction a memory callback that looks up where the access went and counts the loads and
# stores QEMU hands to a device rather than to RAM, by physical page, in the same "@mark"
# sections as the instructions (zeroed at the same markers). count.sh prints the NIC's BARs
# from sysfs ("@@BENCH BAR"), and insns.py takes the accesses inside BAR 0, the 4 KiB CSR, as
# MMIO reads and writes per packet of each phase: every access either driver made (e100.c's
# through the out-of-line ioread*/iowrite*, whose calls they match one for one; e100_rs's
# inlined); nothing else touches that page. Port I/O (x86 in/out to BAR 1) is not counted: the
# plugin API cannot see it (TCG emulates in/out in helpers that access the I/O address space
# directly, not through the loads and stores plugins instrument); both drivers use BAR 0. A run
# whose guest gave no BAR, or whose BAR saw no access in the whole boot, is reported as "No MMIO
# accesses counted" with the reason, not as 0. Why a boot of its own: the callbacks run no guest
# instruction, but every load and store pays for one, and QEMU took about twice the CPU time
# (15-22 s a boot against 7-11 s; 52-58 s of wall-clock time against 46-49 s, the paced phases'
# fixed lengths being most of it). A guest that slow runs its unpaced phases longer, so more
# ticks fall in them, and its floods' interrupts find more frames each: with the callbacks in
# the instruction-count boot (2026-12-07, two runs each way), the driver rows stayed within
# 0.1% (0.3% where the run without them fell behind), but the whole kernel's moved by up to
# 1.1% a packet (e100's ping, 0.04% apart between two runs without) and the floods' by 3-15%.
# The counting stage therefore takes about twice as long as without register counts.
#
# Results go to DIR (default results/bench-DATE in the repo): the command line, the logs, one
# JSON per count run, summary.md and the charts (PNG).
set -euo pipefail
export E100_RS_KVARIANT=bench
LOG_TAG=bench
. "$(dirname "$0")/common.sh"

count_only=0 wall_only=0 sweep_only=0 tcp_only=0 small_only=0 orate=0 repeats=4 repeats_set=0 rxring="" napi="" gro="" rounds=5 runs=2 packets=4000 out=""
cmdline="scripts/bench.sh $*"
while [ $# -gt 0 ]; do
	case "$1" in
	--count-only) count_only=1; shift ;;
	--wall-only) wall_only=1; shift ;;
	--sweep-only) sweep_only=1 wall_only=1; shift ;;
	--tcp-only) tcp_only=1 wall_only=1; shift ;;
	--small-only) small_only=1 wall_only=1; shift ;;
	--overload-only)
		# From 10 Mbit/s: host.py paces slower fetches instead of holding them to a rate.
		[[ "${2:-}" =~ ^[1-9][0-9]+$ ]] || die "--overload-only RATE (Mbit/s, 10 or more)"
		orate=$2 wall_only=1
		shift 2
		;;
	--rx-ring)
		[[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "--rx-ring N"
		rxring=$2
		shift 2
		;;
	--repeats)
		[[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "--repeats N (with --overload-only)"
		repeats=$2 repeats_set=1
		shift 2
		;;
	--napi)
		case "${2:-}" in softirq) napi=0 ;; thread) napi=1 ;; *) die "--napi softirq|thread" ;; esac
		shift 2
		;;
	--gro)
		case "${2:-}" in on | off) gro=$2 ;; *) die "--gro on|off" ;; esac
		shift 2
		;;
	--rounds) rounds=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--packets) packets=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
[ -n "$out" ] || out="$REPO/results/bench-$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
# Appended: a --wall-only run into the folder of a counting run keeps both command lines.
echo "$cmdline" >>"$out/command"
t0=$(date +%s)

"$REPO/scripts/deps.sh" --bench
# The host's TSC rate, measured once for every guest (scripts/qemu-run.sh, scripts/tsc-khz.c).
host_tsc_khz >/dev/null
log "host TSC: ${E100_RS_TSC_KHZ:+$E100_RS_TSC_KHZ kHz}${E100_RS_TSC_KHZ:-not measured (no constant rate, or no build of scripts/tsc-khz.c): each guest calibrates its own}"
log "kernel (bench: $KSRC)"
"$REPO/scripts/build-kernel.sh"
log "module"
mod=$CACHE/bench/module
rm -rf "$mod"
mkdir -p "$mod"
cp "$REPO"/*.rs "$REPO/Kbuild" "$REPO/Makefile" "$mod/"
make -C "$mod" KDIR="$KSRC" >"$out/module-build.log" 2>&1 || die "module build failed: $out/module-build.log"
# The same module with line tables (scripts/bench/annotate.py --tree reads them): its code must
# be the measured module's, symbol for symbol (line tables add only debug sections and file
# names), or it is not kept.
lines=$CACHE/bench/module-lines
rm -rf "$lines"
mkdir -p "$lines"
cp "$REPO"/*.rs "$REPO/Kbuild" "$REPO/Makefile" "$lines/"
if make -C "$lines" KDIR="$KSRC" KRUSTFLAGS=-Cdebuginfo=line-tables-only >>"$out/module-build.log" 2>&1 &&
	cmp -s <(nm -S --defined-only "$mod/e100_rs.ko" | sort) <(nm -S --defined-only "$lines/e100_rs.ko" | sort) &&
	cmp -s <(objcopy -O binary -j .text "$mod/e100_rs.ko" /dev/stdout) \
		<(objcopy -O binary -j .text "$lines/e100_rs.ko" /dev/stdout); then
	# Beside the counts it matches (not committed: *.ko is ignored).
	cp "$lines/e100_rs.ko" "$out/e100_rs.lines.ko"
	log "module with line tables (for annotate.py --tree): $out/e100_rs.lines.ko"
else
	log "warning: the module with line tables differs from the measured one; annotate.py --tree unavailable"
	rm -rf "$lines"
fi
log "initramfs"
"$REPO/scripts/initramfs.sh" "$INITRD" "$mod/e100_rs.ko"
log "harness QEMU (its source gives the plugin header)"
"$REPO/scripts/build-qemu.sh" >"$out/harness-qemu.path"
plugin=$CACHE/bench/insncount.so
gcc -shared -fPIC -O2 -Wall -Werror -I"$CACHE/qemu/src/include/qemu" \
	$(pkg-config --cflags glib-2.0) -o "$plugin" "$REPO/scripts/bench/insncount.c" \
	$(pkg-config --libs glib-2.0)
cp "$KSRC/System.map" "$out/System.map"
size "$mod/e100_rs.ko" "$KSRC/drivers/net/ethernet/intel/e100.ko" "$KSRC/drivers/net/mii.ko" >"$out/sizes.txt"

# The host side of the workloads, on 127.0.0.1 (the guest reaches it as 10.0.2.2).
port=$(python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
taskset -c 0 python3 "$REPO/scripts/bench/host.py" "$port" >"$out/host.log" 2>&1 &
hpid=$!
# The iperf3 server of the boot in progress (ipid) too, should a boot end the script.
ipid=""
trap 'kill $hpid $ipid 2>/dev/null || true' EXIT

free_tcp() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# count_boot DRIVER RUN BASE WHAT [PLUGIN-OPTIONS]: one counting boot, its files named BASE.*;
# again, up to twice, if its paced receive phases were not taken a frame at a time (count.sh
# says so: "fell behind"), and the summary lists each boot that was, with its reason.
count_boot() {
	local d=$1 r=$2 base=$3 what=$4 opts=${5:-} iport try t TIMEFORMAT="%U %S"
	for try in 1 2 3; do
		log "$what: $d, run $r$([ "$try" -eq 1 ] || echo ", boot $try")"
		t=$(date +%s)
		iport=$(free_tcp)
		taskset -c 0 iperf3 -s -B 127.0.0.1 -p "$iport" >"$base.iperf3.log" 2>&1 &
		ipid=$!
		# QEMU unpinned: its main loop (slirp, which takes host.py's datagrams) must not wait
		# for the vCPU's thread on one CPU. Its CPU time (user, system) goes to $base.cpu.
		{
			time "$REPO/scripts/qemu-run.sh" --suite bench-count --driver "$d" --mac 52:54:00:12:34:56 \
				--smp 1 --timeout 900 --log "$base.log" \
				--qemu-arg -accel --qemu-arg tcg,thread=single --qemu-arg -cpu --qemu-arg qemu64,+rdrand \
				--qemu-arg -plugin --qemu-arg "$plugin,out=$base.counts$opts" \
				--append "e100test.bport=$port e100test.iperf=$iport e100test.bcount=$packets e100test.threaded=0 nohz=off" 2>&3
		} 3>&2 2>"$base.cpu"
		kill "$ipid" 2>/dev/null || true
		wait "$ipid" 2>/dev/null || true
		log "$what: $d, run $r: the boot took $(($(date +%s) - t)) s, QEMU's CPU $(awk '{print $1 " s user, " $2 " s system"}' "$base.cpu")"
		grep -q '@@BENCH DONE' "$base.log" || die "$d run $r did not finish: $base.log"
		grep -q '@@BENCH ERROR .*fell behind' "$base.log" || break
		[ "$try" -eq 3 ] && break
		grep '@@BENCH ERROR .*fell behind' "$base.log" | sed "s/^/boot $try, again: /" >>"$base.retried"
	done
}
# count DRIVER RUN: the instruction counts' boot, then the register accesses' (mmio=on).
count() {
	local d=$1 r=$2 base="$out/count-$1-$2"
	count_boot "$d" "$r" "$base" "instruction counts"
	count_boot "$d" "$r" "$base-mmio" "register accesses" ",mmio=on"
	python3 "$REPO/scripts/bench/insns.py" --counts "$base.counts" --log "$base.log" \
		--mmio-counts "$base-mmio.counts" --mmio-log "$base-mmio.log" \
		--system-map "$out/System.map" --driver "$d" --json "$base.json" >"$base.txt"
	gzip -f "$base.counts" "$base-mmio.counts"
}
if [ "$wall_only" -eq 0 ]; then
	for r in $(seq 1 "$runs"); do
		count e100_rs "$r"
		count e100 "$r"
	done
fi

# --- wall-clock rounds ---------------------------------------------------------------------
free_udp() { python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# wall DRIVER ROUND: one single-guest round (and, on the harness QEMU, the timed wire).
wall() {
	local d=$1 r=$2 base="$out/wall-$1-$2" iport
	iport=$(free_tcp)
	taskset -c 0 iperf3 -s -B 127.0.0.1 -p "$iport" >"$base.iperf3.log" 2>&1 &
	ipid=$!
	sleep 0.5
	log "round $r: $d"
	taskset -c 1 "$REPO/scripts/qemu-run.sh" --suite bench-wall --driver "$d" \
		--mac 52:54:00:12:34:56 --smp 1 --timeout 900 --log "$base.log" \
		--append "e100test.iperf=$iport e100test.bport=$port e100test.bmode=full$only"
	grep -q '@@BENCH DONE' "$base.log" || log "warning: $d round $r did not finish: $base.log"
	if [ $((sweep_only + tcp_only + small_only + (orate > 0))) -gt 0 ]; then
		kill "$ipid" 2>/dev/null || true
		wait "$ipid" 2>/dev/null || true
		return
	fi
	taskset -c 1 "$REPO/scripts/qemu-run.sh" --suite bench-wall --driver "$d" \
		--mac 52:54:00:12:34:56 --smp 1 --timeout 300 --log "$base-wire.log" \
		--qemu "$hqemu" --nic-props link-partner=autoneg,wire-timing=on \
		--append "e100test.iperf=$iport e100test.bport=$port e100test.bmode=wire$napiarg"
	grep -q '@@BENCH DONE' "$base-wire.log" || log "warning: $d round $r (wire) did not finish: $base-wire.log"
	kill "$ipid" 2>/dev/null || true
	wait "$ipid" 2>/dev/null || true
	# Two guests of this driver over a dgram link on 127.0.0.1, one host CPU each.
	local pa pb spid
	pa=$(free_udp)
	pb=$(free_udp)
	taskset -c 0 "$REPO/scripts/qemu-run.sh" --suite bench-wallpair --driver "$d" \
		--mac 52:54:00:12:34:01 --smp 1 --timeout 300 --log "$base-pair-server.log" \
		--netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$pa,remote.type=inet,remote.host=127.0.0.1,remote.port=$pb" \
		--append "e100test.role=server$napiarg" &
	spid=$!
	for _ in $(seq 300); do
		grep -aq '^@@BOOTED' "$base-pair-server.log" 2>/dev/null && break
		sleep 0.1
	done
	taskset -c 1 "$REPO/scripts/qemu-run.sh" --suite bench-wallpair --driver "$d" \
		--mac 52:54:00:12:34:02 --smp 1 --timeout 300 --log "$base-pair-client.log" \
		--netdev "dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$pb,remote.type=inet,remote.host=127.0.0.1,remote.port=$pa" \
		--append "e100test.role=client$napiarg" || true
	wait "$spid" || true
	grep -q '@@BENCH DONE' "$base-pair-client.log" || log "warning: $d round $r (pair) did not finish"
}
[ "$orate" -gt 0 ] || [ "$repeats_set" -eq 0 ] || die "--repeats goes with --overload-only"
[ $((sweep_only + tcp_only + small_only + (orate > 0))) -le 1 ] ||
	die "one of --sweep-only, --tcp-only, --small-only, --overload-only"
only=""
[ "$sweep_only" -eq 0 ] || only=" e100test.bonly=sweep"
[ "$tcp_only" -eq 0 ] || only=" e100test.bonly=tcp"
[ "$small_only" -eq 0 ] || only=" e100test.bonly=small"
[ "$orate" -eq 0 ] || only=" e100test.bonly=overload e100test.orate=$orate e100test.oreps=$repeats"
# --napi: both drivers' NAPI in softirq context or in a thread of its own, in every boot of the
# wall rounds (each driver's default otherwise: softirq for both).
napiarg=""
[ -z "$napi" ] || napiarg=" e100test.threaded=$napi"
# --gro off: both drivers' interface with GRO off in the wall rounds (e100.c passes GRO by).
[ "$gro" != off ] || napiarg="$napiarg e100test.gro=off"
# --rx-ring N: both drivers' receive ring N RFDs long in the wall rounds (ethtool -G).
[ -z "$rxring" ] || napiarg="$napiarg e100test.rxring=$rxring"
only="$only$napiarg"
if [ "$count_only" -eq 0 ]; then
	hqemu=$(cat "$out/harness-qemu.path")
	for r in $(seq 1 "$rounds"); do
		wall e100_rs "$r"
		wall e100 "$r"
	done
fi
# Debian's python3, which has the numpy, scipy and matplotlib packages (not a python3 that
# may come first on PATH).
/usr/bin/python3 "$REPO/scripts/bench/report.py" "$out" >"$out/summary.md"
rm -f "$out/System.map"
cat "$out/summary.md"
log "done in $(($(date +%s) - t0)) s: $out"
