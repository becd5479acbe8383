#!/usr/bin/env bash
# Boot the test kernel in QEMU (TCG) with an emulated i82559er and run one guest suite.
#
#   scripts/qemu-run.sh --suite NAME --driver e100|e100_rs --mac MAC --log FILE
#                       [--pcap FILE] [--timeout SECONDS] [--netdev SPEC] [--kunit] [--smp N]
#                       [--append "key=value ..."]   (more kernel command line for the suite)
#                       [--qemu BINARY] [--nic-props "prop=value,..."] [--lp-dir DIR]
#                       [--nic-model MODEL]   (another of QEMU's 8255x models, e.g. i82557b)
#                       [--qemu-arg ARG]...   (one more argument for QEMU, e.g. for a -plugin)
#                       [--extra-nic MODEL[,prop=value...]]...   (one more NIC, see below)
#                       [--machine pc|q35-aer]   (see below; pc by default)
#
# The NIC is on QEMU user networking unless --netdev gives another backend (id must be n0).
# Every frame the NIC sends or receives is written to --pcap by a filter-dump object (the first
# 128 bytes of each, with its full length).
# Each --extra-nic adds one more NIC of QEMU's MODEL (any -device name, e.g. i82557a), after
# the first, on a user-networking backend of its own: the K-th gets -netdev user,id=nK (K = 1,
# 2, ...; a slirp subnet of its own, the host at 10.0.2.2 as for n0) and the properties given,
# e.g. mac=52:54:00:e1:00:02 (give each a mac=: QEMU's default would be the same for all).
# The capture (--pcap) and the control line (--lp-dir) stay with the first NIC.
# --machine q35-aer: a q35 machine with ACPI, the NIC (a conventional PCI device) on a PCIe
# root port of its own (tests/guest/aer.sh). The port runs at 2.5 GT/s x1: at QEMU 7.2's
# default 16 GT/s the kernel, after resetting the port's link, waits for Data Link Layer Link
# Active, which the port never sets again. Every pc boot runs with acpi=off: the test kernel has
# ACPI for this machine only.
# The serial console (kernel log and the suite's @@TEST lines) goes to --log.
#
# --qemu runs another qemu-system-x86_64 (the harness QEMU of scripts/build-qemu.sh) and
# --nic-props adds properties to the i82559er (its link-partner model: patches/qemu/README.md).
# --lp-dir gives the guest a control line to that model: the NIC gets id=nic0, QEMU serves QMP
# and a second serial port (the guest's /dev/ttyS1) on unix sockets in DIR, and
# scripts/lp-bridge.py turns the guest's "ID get PROP" / "ID set PROP VALUE" lines on ttyS1 into
# QMP qom-get / qom-set on nic0, answering "ID OK [value]" or "ID ERR message".
#
# The guest gets --smp CPUs (2 by default), one per socket: SeaBIOS's MP table lists only the
# first CPU of each package, and the pc boots run without ACPI, so "-smp 2" alone (two cores in
# one package) boots a single-CPU guest.
#
# QEMU runs in the caller's process group (timeout --foreground), so the run's process-group
# sweep (scripts/pgroup.py) reaches it. Exit status: 0 when QEMU ran (the log says how the
# suite went; "@@TIMEOUT" is appended if it was killed), 75 when QEMU could not start because
# an address of --netdev is in use (the caller picks other ports and retries), 1 otherwise.
set -euo pipefail
LOG_TAG=qemu
. "$(dirname "$0")/common.sh"

suite="" driver="" mac="" logf="" pcap="" timeout=300 netdev="user,id=n0" kunit=0 extra="" smp=2
qemu=qemu-system-x86_64 nicprops="" lpdir="" model=i82559er machine=pc
qargs=()
extranics=()
initrd=${E100_RS_INITRD:-$INITRD}
# E100_RS_KERNEL: another kernel image (the test-box package's, tests/guest/testbox.sh).
kernel=${E100_RS_KERNEL:-$KSRC/arch/x86/boot/bzImage}
while [ $# -gt 0 ]; do
	case "$1" in
	--suite) suite=$2; shift 2 ;;
	--driver) driver=$2; shift 2 ;;
	--mac) mac=$2; shift 2 ;;
	--log) logf=$2; shift 2 ;;
	--pcap) pcap=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--netdev) netdev=$2; shift 2 ;;
	--kunit) kunit=1; shift ;;
	--smp) smp=$2; shift 2 ;;
	--append) extra="$extra $2"; shift 2 ;;
	--qemu) qemu=$2; shift 2 ;;
	--nic-props) nicprops=",$2"; shift 2 ;;
	--nic-model) model=$2; shift 2 ;;
	--lp-dir) lpdir=$2; shift 2 ;;
	--qemu-arg) qargs+=("$2"); shift 2 ;;
	--extra-nic) extranics+=("$2"); shift 2 ;;
	--machine) machine=$2; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done
[ -n "$suite" ] && [ -n "$mac" ] && [ -n "$logf" ] || die "--suite, --mac and --log are required"
# The debug kernel (E100_RS_KVARIANT=debug): its interrupt routing through ACPI does not come
# up on QEMU's -M pc, and the suites size their workloads for it (e100test.debug).
[ "$KVARIANT" != debug ] || extra="$extra acpi=noirq e100test.debug=1"
# The guest's TSC, under TCG, is the host's counter with one offset for every vCPU
# (scripts/tsc-khz.c). tsc=reliable: a guest with two vCPUs (one per socket, AMD's qemu64 model)
# would otherwise take its TSCs for unsynchronized (the kernel assumes so of any non-Intel
# machine with more than one package) and fall back to jiffies, every boot; it also turns off the
# clocksource watchdog for the TSC. tsc_early_khz=: the host's rate, measured, so the guest does
# not rely on calibrating its TSC against the emulated PIT, which fails now and then on a busy
# host (then jiffies as well).
extra="$extra tsc=reliable"
khz=$(host_tsc_khz)
[ -z "$khz" ] || extra="$extra tsc_early_khz=$khz"
nicbus="" bus=()
case "$machine" in
pc) extra="$extra acpi=off" ;;
q35-aer)
	bus=(-device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1,x-speed=2_5,x-width=1)
	nicbus=",bus=rp1,addr=0"
	;;
*) die "unknown --machine $machine (pc or q35-aer)" ;;
esac
# Slab redzones and poisoning, except on the benchmark kernel (which has no slab debugging).
[ "$KVARIANT" = bench ] || extra=" slub_debug=FZP$extra"

args=(
	-M "${machine%-aer}" -m 512 -smp "$smp,sockets=$smp,cores=1" -nographic -no-reboot -monitor none
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 kunit.enable=$kunit e100test.driver=$driver e100test.suite=$suite e100test.mac=$mac$extra"
	"${bus[@]}" -netdev "$netdev"
	-device "$model,netdev=n0,mac=$mac,romfile=${lpdir:+,id=nic0}$nicbus$nicprops"
)
if [ "$qemu" != qemu-system-x86_64 ]; then
	# A build tree's binary: the firmware comes from the system's packages.
	args+=(-L /usr/share/qemu -L /usr/share/seabios -L /usr/lib/ipxe/qemu)
fi
if [ -n "$lpdir" ]; then
	mkdir -p "$lpdir"
	rm -f "$lpdir/qmp.sock" "$lpdir/lpctl.sock"
	args+=(-qmp "unix:$lpdir/qmp.sock,server=on,wait=off"
		-chardev "socket,id=lpctl,path=$lpdir/lpctl.sock,server=on,wait=off"
		-serial stdio -serial chardev:lpctl)
fi
k=0
for x in "${extranics[@]}"; do
	k=$((k + 1))
	xmodel=${x%%,*}
	args+=(-netdev "user,id=n$k" -device "$xmodel,netdev=n$k,romfile=${x#"$xmodel"}")
done
args+=("${qargs[@]}")
[ -z "$pcap" ] || args+=(-object "filter-dump,id=f0,netdev=n0,file=$pcap,maxlen=128")

# QEMU runs under timeout in the background so that a TERM or INT sent to this script (the
# caller stopping a boot it no longer needs) stops QEMU too, at once.
rc=0
timeout --foreground -k 5 "$timeout" "$qemu" "${args[@]}" </dev/null >"$logf" 2>&1 &
qpid=$!
bpid=""
if [ -n "$lpdir" ]; then
	python3 "$REPO/scripts/lp-bridge.py" "$lpdir" >"$lpdir/bridge.log" 2>&1 &
	bpid=$!
fi
trap 'kill -TERM "$qpid" $bpid 2>/dev/null; wait "$qpid" 2>/dev/null; exit 143' TERM INT
wait "$qpid" || rc=$?
trap - TERM INT
[ -z "$bpid" ] || { kill "$bpid" 2>/dev/null || true; wait "$bpid" 2>/dev/null || true; }
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "@@TIMEOUT after ${timeout}s" >>"$logf"
	exit 0
fi
if [ "$rc" -ne 0 ] && ! grep -aq '^@@BOOTED' "$logf"; then
	if grep -aq 'Address already in use' "$logf"; then
		exit 75
	fi
	log "QEMU failed (exit $rc): $(tail -3 "$logf" | tr '\n' ' ')"
	exit 1
fi
exit 0
