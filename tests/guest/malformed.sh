#!/bin/sh
# Malformed frames from a peer on the wire: the guest's NIC is on a QEMU dgram link whose
# other end is scripts/raw-peer.py on the host, which sends what no guest stack can: runts,
# frames past the largest legal length (up to 60000 bytes), fragments without a whole header
# and garbage IPv4. The driver must drop and count what is too long, deliver the legal frames at
# both limits, never pass up a frame shorter than 60 bytes, and go on receiving; the kernel
# must say nothing (the host fails the boot on any splat) and nothing may leak (kmemleak).
#
# On the harness QEMU with the model's `runts`: a runt reaches the MAC as it came, as on real
# hardware (upstream QEMU pads every frame to 60 bytes first), and the driver's Configure
# ("discard short frames") must have it dropped and counted in rx_short_frame_errors. Bad FCS
# cannot be sent on QEMU's wire (frames carry no FCS): the link partner's duplex mismatch makes
# those (linkpartner suite).
. /tests/lib.sh
drv=$DRIVER
PEER=52:54:00:77:77:77
# raw-peer.py's MALFORMED frames: index:length of the legal ones as a packet socket sees them
# (the 802.1Q tag of #6 is taken off by the stack), the runts, and the oversize ones.
LEGAL="4:60 5:1514 6:1514"
RUNTS="1 2 3"
OVERSIZE="7 8 9 10 11 12"
N=100

kmemleak_baseline
begin setup
if ! load_driver "$drv"; then
	fail setup "insmod $drv failed"
	exit 1
fi
ifc=$(nic_if)
ip link set lo up
ip link set "$ifc" up
if wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier"; then
	pass setup "$ifc up, the peer is $PEER"
else
	fail setup "no carrier on $ifc"
	exit 1
fi

sysstat() { cat "/sys/class/net/$ifc/statistics/$1"; }
ol0=$(ethstat "$ifc" rx_over_length_errors)
sf0=$(ethstat "$ifc" rx_short_frame_errors)
le0=$(sysstat rx_length_errors)
rp0=$(sysstat rx_packets)

begin malformed-frames-sent
if ! got=$(/bin/rawpkt malformed "$ifc" "$PEER" 2>/tmp/rawpkt.err); then
	fail malformed-frames-sent "$(cat /tmp/rawpkt.err)"
	exit 1
fi
pass malformed-frames-sent "the peer sent its frames; received (index:length): $got"
# The counters are read at the next watchdog dump for the hardware ones.
sleep 3

begin legal-frames-at-both-limits-delivered
miss=""
for f in $LEGAL; do
	case " $got " in *" $f "*) ;; *) miss="$miss $f" ;; esac
done
if [ -z "$miss" ]; then
	pass legal-frames-at-both-limits-delivered "60, 1514 and tagged 1518 bytes delivered ($LEGAL)"
else
	fail legal-frames-at-both-limits-delivered "missing (index:length):$miss; got: $got"
fi

# The 3 runts and the 4 fragments (1, 6, 7 and 13 bytes) are all short frames.
begin runts-dropped-and-counted
seen=""
for i in $RUNTS; do
	for f in $got; do [ "${f%%:*}" = "$i" ] && seen="$seen $f"; done
done
sf=$(($(ethstat "$ifc" rx_short_frame_errors) - sf0))
want_sf=7
if [ "$drv" = e100 ]; then
	# Counted by the chip; e100.c reads the chip's counters only from a dump it never sees
	# complete on QEMU (README: "Statistics never update").
	echo "@@INFO e100: rx_short_frame_errors +$sf (the reference's counters never update on QEMU; not held)"
	want_sf=$sf
fi
if [ -z "$seen" ] && [ "$sf" -eq "$want_sf" ]; then
	pass runts-dropped-and-counted "3 runts (15, 42, 59 bytes) and 4 fragments: none delivered, rx_short_frame_errors +$sf"
else
	fail runts-dropped-and-counted "delivered:${seen:- none}; rx_short_frame_errors +$sf (want $want_sf)"
fi

begin oversize-frames-dropped-and-counted
seen=""
for i in $OVERSIZE; do
	for f in $got; do [ "${f%%:*}" = "$i" ] && seen="$seen $f"; done
done
ol=$(($(ethstat "$ifc" rx_over_length_errors) - ol0))
le=$(($(sysstat rx_length_errors) - le0))
want_le=$((ol + sf))
if [ "$drv" = e100 ]; then
	# e100.c folds its counters into the interface statistics only when a dump completes,
	# and on QEMU it never sees one complete (README: "Statistics never update").
	echo "@@INFO e100: rx_length_errors +$le (the reference's interface statistics never update on QEMU; not held)"
	want_le=$le
fi
if [ -z "$seen" ] && [ "$ol" -eq 6 ] && [ "$le" -eq "$want_le" ]; then
	pass oversize-frames-dropped-and-counted "6 frames of 1519 to 60000 bytes: none delivered, rx_over_length_errors +$ol, rx_length_errors +$le"
else
	fail oversize-frames-dropped-and-counted "delivered:${seen:- none}; rx_over_length_errors +$ol (want 6), rx_length_errors +$le (want $want_le)"
fi

begin receive-goes-on
out=$(/bin/rawpkt request "$ifc" "$PEER" "$(cat "/sys/class/net/$ifc/address")" "$N" 3 2>&1)
if [ "${out% *}" = "$N" ]; then
	pass receive-goes-on "$N of $N good frames from the peer after the malformed ones (rounds: ${out#* }); rx_packets +$(($(sysstat rx_packets) - rp0)) in all"
else
	fail receive-goes-on "asked for $N frames: $out"
fi

begin peer-released
if out=$(/bin/rawpkt quit "$ifc" "$PEER" 2>&1); then
	pass peer-released "the peer acknowledged QUIT"
else
	fail peer-released "$out"
fi

begin unload
ip link set "$ifc" down
if unload_driver "$drv"; then pass unload; else fail unload "rmmod $drv failed"; fi
kmemleak_check kmemleak-after-malformed
