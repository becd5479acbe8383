#!/bin/sh
# Two guests joined by a QEMU dgram link on 127.0.0.1 (no user networking), both running the
# driver under test. Addresses are IPv4 link-local, which exist only on that emulated wire.
#
# The "server" guest runs iperf3 -s for two runs, then serves raw frames on request
# (tests/guest/rawpkt.c). The "client" guest measures TCP both ways, then proves its receive
# filter: it asks the server for frames to a joined multicast group, an unjoined one, and a
# foreign unicast address, and counts what its interface delivered while it changes the
# multicast list, allmulticast and promiscuous mode.
#
# The C driver's extended TCBs make QEMU append junk to its frames (README); a full-size frame
# with junk is dropped by the receiving e100 as over-length and TCP crawls. So on e100 the
# receivers assert that the known bug is what they see (rx-reference-junk-frames-dropped) and
# its TCP runs are only required to complete; e100_rs is held to the throughput floor and to
# receiving no over-length frame at all.
. /tests/lib.sh
drv=$DRIVER
role=$(arg e100test.role)
SERVER=169.254.100.1
# TCP floor between the two guests, Mbit/s (e100_rs does 55-80 on the test kernel with kmemleak, 84-146 without).
PAIR_FLOOR=15
# Frames per raw-frame request.
N=20

begin setup
if ! load_driver "$drv"; then
	fail setup "insmod $drv failed"
	exit 1
fi
ifc=$(nic_if)
ip link set lo up
ip link set "$ifc" up
if [ "$role" = server ]; then me=$SERVER; else me=169.254.100.2; fi
ip addr add "$me/24" dev "$ifc"
if wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier"; then
	pass setup "$ifc up as $me ($role)"
else
	fail setup "no carrier on $ifc"
	exit 1
fi
napi_mode "$ifc"

# rx_clean NAME BEFORE: this guest's receive side over a TCP run (over-length frames counted
# since BEFORE).
rx_clean() {
	ol=$(($(ethstat "$ifc" rx_over_length_errors) - $2))
	if [ "$drv" = e100 ]; then
		begin "$1-reference-junk-frames-dropped"
		if [ "$ol" -gt 0 ]; then
			pass "$1-reference-junk-frames-dropped" "$ol frames with junk after them dropped as over-length (known e100.c bug on QEMU)"
		else
			fail "$1-reference-junk-frames-dropped" "no over-length frame: has QEMU or e100.c changed?"
		fi
	else
		begin "$1-no-over-length-frames"
		if [ "$ol" -eq 0 ]; then
			pass "$1-no-over-length-frames" "every frame from the peer fit"
		else
			fail "$1-no-over-length-frames" "$ol over-length frames received"
		fi
	fi
}

if [ "$role" = server ]; then
	# Two client runs (one each way), then raw frames until the client says QUIT; bounded by
	# the host's QEMU timeout.
	begin serve-iperf
	ol0=$(ethstat "$ifc" rx_over_length_errors)
	if iperf3 -s -1 >/tmp/s1.txt 2>&1; then
		rx_clean rx-forward "$ol0"
		if iperf3 -s -1 >/tmp/s2.txt 2>&1; then
			pass serve-iperf "served two iperf3 runs"
		else
			fail serve-iperf "second run: $(tail -2 /tmp/s2.txt | tr '\n' ' ')"
		fi
	else
		fail serve-iperf "first run: $(tail -2 /tmp/s1.txt | tr '\n' ' ')"
		rx_clean rx-forward "$ol0"
	fi
	begin serve-raw-frames
	if out=$(/bin/rawpkt serve "$ifc" 2>&1); then
		pass serve-raw-frames "answered the client's frame requests until QUIT"
	else
		fail serve-raw-frames "$out"
	fi
	exit 0
fi

begin pair-reach
if ! wait_for 60 ping -c 1 -W 1 "$SERVER"; then
	fail pair-reach "no reply from the server guest in 60 s"
	exit 1
fi
peer=$(ip neigh show "$SERVER" | awk '{for (i = 1; i < NF; i++) if ($i == "lladdr") print $(i+1)}')
pass pair-reach "server guest $SERVER ($peer) answers ping"

for dir in "" -R; do
	name=iperf-tcp-guest-to-guest${dir:+-reverse}
	[ "$drv" = e100 ] && name=$name-completes
	begin "$name"
	ol0=$(ethstat "$ifc" rx_over_length_errors)
	# The server needs a moment to listen again after the first run.
	out=""
	for try in 1 2 3 4 5; do
		out=$(iperf3 -c "$SERVER" -t 10 -f m $dir 2>&1) && break
		sleep 1
	done
	rate=$(iperf_rate "$out")
	if [ -z "$rate" ]; then
		fail "$name" "no result: $(echo "$out" | tail -2 | tr '\n' ' ')"
	else
		echo "@@METRIC iperf-tcp-guest-to-guest${dir:+-reverse}.mbps $rate $(iperf_intervals "$out")"
		if [ "$drv" = e100 ]; then
			pass "$name" "$rate Mbit/s (not held to the floor: see rx-*-reference-junk-frames-dropped)"
		elif at_least "$rate" "$PAIR_FLOOR"; then
			pass "$name" "$rate Mbit/s (floor $PAIR_FLOOR)"
		else
			fail "$name" "$rate Mbit/s, below the floor of $PAIR_FLOOR"
		fi
	fi
	[ "$dir" = -R ] && rx_clean rx-reverse "$ol0"
done

# --- the receive filter --------------------------------------------------------------------------
# frames NAME DST EXPECT: ask the server for N frames to DST; this interface must deliver
# EXPECT of them (N or 0). When all must arrive and the server runs e100, frames it sends can
# carry junk that makes them over-length at the receiver (the C driver's known bug), so up to
# three rounds are allowed to see each frame once; e100_rs must deliver all in one.
frames() {
	begin "$1"
	rounds=1
	[ "$drv" = e100 ] && [ "$3" != 0 ] && rounds=3
	if [ -z "$2" ]; then
		fail "$1" "no address to send to (see the @@INFO above)"
	elif ! out=$(/bin/rawpkt request "$ifc" "$peer" "$2" "$N" "$rounds" 2>/tmp/rawpkt.err); then
		fail "$1" "no answer from the server: $(cat /tmp/rawpkt.err)"
	else
		got=${out% *} took=${out#* }
		if [ "$got" = "$3" ]; then
			pass "$1" "$got of $N frames to $2 received ($4)$([ "$took" -gt 1 ] && echo ", in $took rounds")"
		else
			fail "$1" "$got of $N frames to $2 received in $took round(s), expected $3 ($4)"
		fi
	fi
}

# maddr add|del FIRST LAST PREFIX: join or leave groups PREFIX:FIRST..LAST (hex last byte);
# prints the failures.
maddr() {
	i=$2
	while [ "$i" -le "$3" ]; do
		a="$4:$(printf %02x "$i")"
		ip maddr "$1" "$a" dev "$ifc" 2>&1 || echo "ip maddr $1 $a failed"
		i=$((i + 1))
	done
}

# Three groups joined: frames to one of them arrive; frames to a group that is neither joined
# nor in a joined group's hash bucket do not.
err=$(maddr add 1 3 01:00:5e:7f:00)
[ -z "$err" ] || echo "@@INFO $err"
G=01:00:5e:7f:00:02
U=$(/bin/rawpkt unjoined "$ifc") || echo "@@INFO rawpkt unjoined found no free hash bucket"
frames multicast-joined-group-received "$G" "$N" "3 groups joined${err:+; $err}"
frames multicast-unjoined-group-filtered "$U" 0 "not joined, hash bucket unused"

# All-multicast: the unjoined group arrives while it is on, and stops when it is off.
ip link set "$ifc" allmulticast on
frames allmulti-receives-unjoined-group "$U" "$N" "allmulticast on"
ip link set "$ifc" allmulticast off
frames allmulti-off-filters-unjoined-group "$U" 0 "allmulticast off again"

# Promiscuous: frames to another station's unicast address arrive only while it is on.
F=52:54:00:99:99:99
frames unicast-foreign-filtered "$F" 0 "promiscuous off"
ip link set "$ifc" promisc on
frames promisc-receives-foreign-unicast "$F" "$N" "promiscuous on"
ip link set "$ifc" promisc off
frames promisc-off-filters-foreign-unicast "$F" 0 "promiscuous off again"

# More groups than the 64-address filter holds: 70 more, all in G's hash bucket, so the hash
# filter itself stays shut for U's bucket; U can then only arrive if the driver fell back to
# receiving all multicast (e100.c does the same). Leaving them must shut it again.
begin multicast-70-groups-joined
mates=$(/bin/rawpkt bucket-mates "$G" 70)
err=$(for a in $mates; do ip maddr add "$a" dev "$ifc" 2>&1 || echo "ip maddr add $a failed"; done)
if [ "$(echo "$mates" | grep -c .)" != 70 ]; then
	fail multicast-70-groups-joined "rawpkt bucket-mates gave $(echo "$mates" | grep -c .) addresses"
elif [ -n "$err" ]; then
	fail multicast-70-groups-joined "$err"
else
	pass multicast-70-groups-joined "$(grep -c " $ifc " /proc/net/dev_mcast) addresses on $ifc, the 70 new ones in $G's hash bucket"
fi
frames multicast-over-64-receives-all "$U" "$N" "past the 64-address filter: all multicast"
begin multicast-70-groups-left
err=$(for a in $mates; do ip maddr del "$a" dev "$ifc" 2>&1 || echo "ip maddr del $a failed"; done)
if [ -z "$err" ]; then pass multicast-70-groups-left "$(grep -c " $ifc " /proc/net/dev_mcast) addresses left on $ifc"; else fail multicast-70-groups-left "$err"; fi
frames multicast-back-under-64-filters-unjoined "$U" 0 "the filter is back"
frames multicast-remaining-group-received "$G" "$N" "still joined"

begin server-released
if out=$(/bin/rawpkt quit "$ifc" "$peer" 2>&1); then
	pass server-released "the server acknowledged QUIT"
else
	fail server-released "$out"
fi
