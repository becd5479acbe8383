#!/bin/sh
# The ethtool surface, the same checks on both drivers (the C driver is the reference: where both
# have an operation, both must pass the same assertions, written from e100.c's behaviour). Runs
# on the harness QEMU: its PHY has the LED register `ethtool -p` drives.
# shellcheck disable=SC1091
. /tests/lib.sh

drv=$DRIVER
HOST=10.0.2.2
IPERF_PORT=$(arg e100test.iperf)

kmemleak_baseline
load_driver "$drv" || { echo "@@TEST load FAIL insmod $drv"; exit 1; }
ifc=$(nic_if)
ip link set "$ifc" up
ip addr add 10.0.2.15/24 dev "$ifc"
# The model on, with a partner like stock QEMU's (it keeps the LED register `-p` drives).
lp_open && lp_partner autoneg:0x05e1 >/dev/null || echo "@@INFO no control line to the model"

# mii REG: a PHY register through the MII ioctls, as 0x%04x.
mii() { /bin/miireg "$ifc" "$@" | sed -n 's/.*val=//p'; }
link_wait() { wait_for "${1:-8}" sh -c "ethtool $ifc 2>/dev/null | grep -q 'Link detected: yes'"; }
link_wait 10

begin drvinfo
info=$(ethtool -i "$ifc")
if echo "$info" | grep -qx "driver: $drv" && echo "$info" | grep -qx "bus-info: 0000:00:03.0"; then
	pass drvinfo "$(echo "$info" | grep -E '^(driver|bus-info)' | tr '\n' ' ')"
else
	fail drvinfo "$info"
fi

# --- msglevel and the debug parameter -------------------------------------------------------
begin msglevel
lvl() { ethtool "$ifc" | sed -n 's/.*Current message level: *\(0x[0-9a-f]*\).*/\1/p'; }
bad=""
[ "$(lvl)" = 0x00000007 ] || bad="$bad [default $(lvl), want 0x00000007 (debug=3)]"
ethtool -s "$ifc" msglvl 0x13
[ "$(lvl)" = 0x00000013 ] || bad="$bad [after msglvl 0x13: $(lvl)]"
if [ "$drv" = e100_rs ]; then
	# Link messages are netif_msg_link: off, a renegotiation prints nothing; on again, it does.
	ethtool -s "$ifc" msglvl 0
	dmesg -c >/dev/null
	ethtool -r "$ifc"
	sleep 1
	link_wait 10
	sleep 2.5
	dmesg | grep -q 'Link is' && bad="$bad [link message printed at msglvl 0: $(dmesg | grep 'Link is' | head -1)]"
	ethtool -s "$ifc" msglvl 0x7
	ethtool -r "$ifc"
	wait_for 10 sh -c "dmesg | grep -q 'Link is Up'" || bad="$bad [no link message at msglvl 7]"
fi
ethtool -s "$ifc" msglvl 0x7
ip link set "$ifc" down
unload_driver "$drv"
case "$drv" in
e100) insmod /mods/e100.ko debug=5 ;;
e100_rs) insmod /mods/e100_rs.ko debug=5 ;;
esac
ifc=$(nic_if)
[ "$(lvl)" = 0x0000001f ] || bad="$bad [debug=5 gives $(lvl), want 0x0000001f]"
unload_driver "$drv"
load_driver "$drv"
ifc=$(nic_if)
ip link set "$ifc" up
ip addr add 10.0.2.15/24 dev "$ifc"
link_wait 10
if [ -z "$bad" ]; then
	pass msglevel "0x7 by default (debug=3), set and read back, debug=5 gives 0x1f$([ "$drv" = e100_rs ] && echo '; link messages follow netif_msg_link')"
else
	fail msglevel "$bad"
fi

# --- nway reset -------------------------------------------------------------------------------
begin nway-reset
bad=""
ethtool -r "$ifc" || bad="$bad [ethtool -r failed]"
link_wait 10 || bad="$bad [no link after ethtool -r]"
ethtool -s "$ifc" speed 100 duplex full autoneg off
sleep 1
ethtool -r "$ifc" 2>/dev/null && bad="$bad [ethtool -r accepted with autonegotiation off]"
ethtool -s "$ifc" autoneg on
link_wait 10 || bad="$bad [no link after autoneg on]"
if [ -z "$bad" ]; then
	pass nway-reset "restarts autonegotiation and the link comes back; refused (EINVAL) with autonegotiation off"
else
	fail nway-reset "$bad"
fi

# --- register dump: e100.c's layout ----------------------------------------------------------
begin regs
ethtool -d "$ifc" raw on >/tmp/regs 2>/dev/null
len=$(wc -c </tmp/regs)
# word N of the dump, as 0x%08x (little-endian guest)
word() { od -A n -t x4 -j $(($1 * 4)) -N 4 /tmp/regs | tr -d ' '; }
bad=""
[ "$len" = 716 ] || bad="$bad [length $len, want 716: (1 + 0x1d) words + the 596-byte dump buffer]"
# Words 1..29 are PHY registers 0x1c down to 0.
[ "0x$(word 29 | cut -c5-8)" = "$(mii 0)" ] || bad="$bad [word 29 $(word 29), BMCR $(mii 0)]"
[ "$(word 27)" = 000002a8 ] || bad="$bad [word 27 $(word 27), want PHYSID1 0x02a8]"
[ "$(word 26)" = 00000154 ] || bad="$bad [word 26 $(word 26), want PHYSID2 0x0154]"
[ "$(word 25)" = "0000$(mii 4 | cut -c3-6)" ] || bad="$bad [word 25 $(word 25), ADVERTISE $(mii 4)]"
# Word 0: the SCB command word (high half) and status (low half), whose RU status (bits 2-5) on
# an idle, up interface is "ready" (4).
st=$(word 0)
[ $(((0x$st >> 2) & 0xf)) = 4 ] || bad="$bad [SCB word $st: RU not ready]"
if [ -z "$bad" ]; then
	pass regs "716 bytes: SCB $st, PHY registers 0x1c..0 (BMCR $(mii 0), ID 0x02a8/0x0154, ADVERTISE $(mii 4)), dump buffer"
else
	fail regs "$bad"
fi

# --- EEPROM: read, write with the magic, checksum kept, refused without it --------------------
begin eeprom
ee_sum() { ethtool -e "$ifc" raw on | od -A n -t u2 -v | tr -s ' ' '\n' | awk 'NF {s = (s + $1) % 65536} END {printf "0x%04x", s}'; }
ee_byte() { ethtool -e "$ifc" offset "$1" length 1 raw on | od -A n -t x1 | tr -d ' '; }
bad=""
elen=$(ethtool -e "$ifc" raw on | wc -c)
[ "$elen" = 128 ] || bad="$bad [length $elen, want 128 (64 words)]"
[ "$(ee_sum)" = 0xbaba ] || bad="$bad [words sum to $(ee_sum)]"
orig=$(ee_byte 0x40)
new=$(printf '%02x' $(((0x$orig + 0x5a) % 256)))
ethtool -E "$ifc" magic 0x1234 offset 0x40 value 0x$new || bad="$bad [write with the magic refused]"
[ "$(ee_byte 0x40)" = "$new" ] || bad="$bad [byte 0x40 reads $(ee_byte 0x40) after writing $new]"
[ "$(ee_sum)" = 0xbaba ] || bad="$bad [after the write the words sum to $(ee_sum)]"
ethtool -e "$ifc" raw on >/tmp/ee_before
ethtool -E "$ifc" magic 0x4321 offset 0x40 value 0x00 2>/dev/null && bad="$bad [wrong magic accepted]"
ethtool -E "$ifc" magic 0x1234 offset 200 value 0x00 2>/dev/null && bad="$bad [offset 200 accepted]"
ethtool -e "$ifc" raw on | cmp -s /tmp/ee_before - || bad="$bad [a refused write (magic, offset) changed the image]"
ethtool -E "$ifc" magic 0x1234 offset 126 value 0x00 2>/dev/null && bad="$bad [checksum word written]"
if ethtool -e "$ifc" raw on | cmp -s /tmp/ee_before -; then
	:
elif [ "$drv" = e100 ]; then
	# e100.c copies the bytes into its image before e100_eeprom_save() refuses the range, so
	# a refused write to the checksum word shows in `ethtool -e` until the next probe (the
	# part is not written): the reference's defect, which e100_rs does not share.
	echo "@@INFO e100: the refused write to the checksum word changed its EEPROM image (words now sum to $(ee_sum)); the part is untouched"
else
	bad="$bad [the refused write to the checksum word changed the image]"
fi
# The part itself holds it: a fresh probe reads it back and accepts the checksum.
ip link set "$ifc" down
unload_driver "$drv"
load_driver "$drv" || bad="$bad [probe failed after the write]"
ifc=$(nic_if)
[ "$(ee_byte 0x40)" = "$new" ] || bad="$bad [after reload byte 0x40 is $(ee_byte 0x40), want $new]"
ethtool -E "$ifc" magic 0x1234 offset 0x40 value 0x$orig
[ "$(ee_byte 0x40)" = "$orig" ] && [ "$(ee_sum)" = 0xbaba ] || bad="$bad [restore failed]"
ip link set "$ifc" up
ip addr add 10.0.2.15/24 dev "$ifc"
link_wait 10
if [ -z "$bad" ]; then
	pass eeprom "128 bytes summing to 0xBABA; byte 0x40 $orig -> $new with magic 0x1234, checksum rewritten, kept across a reload; wrong magic, the checksum word and offset 200 refused"
else
	fail eeprom "$bad"
fi

# --- rings: e100.c's limits; resizing under traffic ------------------------------------------
begin rings
ring() { ethtool -g "$ifc" | awk -v sect="$1" -v k="$2:" '/^Pre-set maximums/ {s = "max"} /^Current hardware/ {s = "cur"} s == sect && $1 == k {print $2}'; }
bad=""
got="$(ring max RX)/$(ring max TX) $(ring cur RX)/$(ring cur TX)"
[ "$got" = "256/256 256/128" ] || bad="$bad [ethtool -g: max and current $got, want 256/256 256/128]"
ethtool -G "$ifc" rx 300 2>/dev/null && bad="$bad [rx 300 accepted]"
ethtool -G "$ifc" rx 8 tx 8 || bad="$bad [rx 8 tx 8 refused]"
[ "$(ring cur RX)/$(ring cur TX)" = 16/64 ] || bad="$bad [rx 8 tx 8 gave $(ring cur RX)/$(ring cur TX), want the minimums 16/64]"
ethtool -G "$ifc" rx 256 tx 128
link_wait 10
# Resize twice while a TCP transfer runs both ways: it completes, and the rings' buffers are
# all given back (kmemleak, after the driver is gone).
iperf3 -c "$HOST" -p "$IPERF_PORT" -t 8 --bidir -f m >/tmp/iperf 2>&1 &
ip_pid=$!
sleep 2
ethtool -G "$ifc" rx 64 tx 64 || bad="$bad [resize to 64/64 under traffic failed]"
sleep 2
ethtool -G "$ifc" rx 256 tx 128 || bad="$bad [resize back under traffic failed]"
wait $ip_pid
[ "$(ring cur RX)/$(ring cur TX)" = 256/128 ] || bad="$bad [now $(ring cur RX)/$(ring cur TX)]"
grep -q 'iperf Done' /tmp/iperf || bad="$bad [iperf3 did not finish: $(tail -2 /tmp/iperf | tr '\n' ' ')]"
rate=$(awk '/receiver/ {for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") v = v " " $i} END {print v}' /tmp/iperf)
ping -c 2 -W 2 "$HOST" >/dev/null || bad="$bad [no ping after the resizes]"
if [ -z "$bad" ]; then
	pass rings "max 256/256, default 256/128; rx 300 refused, rx 8 tx 8 clamped to 16/64; resized twice under a bidirectional TCP run, which finished ($rate Mbit/s)"
else
	fail rings "$bad"
fi

# --- identify: the LED register blinks, then goes back to normal -----------------------------
begin phys-id
ethtool -p "$ifc" 3 &
p_pid=$!
seen=""
for i in $(seq 20); do
	v=$(mii 0x1b)
	case " $seen " in *" $v "*) ;; *) seen="$seen $v" ;; esac
	sleep 0.1
done
wait $p_pid
after=$(mii 0x1b)
# e100.c's values for an 82559 with its 82555: on 0x0005, off 0x0004, normal 0x0000.
if echo "$seen" | grep -q 0x0005 && echo "$seen" | grep -q 0x0004 && [ "$after" = 0x0000 ]; then
	pass phys-id "LED register 0x1b took$seen while blinking, $after after"
else
	fail phys-id "LED register 0x1b took '$seen' while blinking, '$after' after (want 0x0005 and 0x0004, then 0x0000)"
fi

# --- self-test: e100.c's five tests; offline, the loopbacks through the PHY model ------------
begin self-test
T_NAMES="Link test     (on/offline)|Eeprom test   (on/offline)|Self test        (offline)|Mac loopback     (offline)|Phy loopback     (offline)"
# ethtool -t prints "NAME<tab>RESULT" lines after "The test extra info:".
t_lines() { awk '/^The test extra info:/ {x = 1; next} x && NF' | tr '\t' '~' | sed 's/ *~ */~/'; }
t_names() { t_lines | cut -d~ -f1 | paste -sd'|'; }
bad=""
ethtool -t "$ifc" online >/tmp/t_on 2>&1
grep -q '^The test result is PASS' /tmp/t_on || bad="$bad [online: $(head -1 /tmp/t_on)]"
[ "$(t_names </tmp/t_on)" = "$T_NAMES" ] || bad="$bad [names: $(t_names </tmp/t_on)]"
echo "@@INFO ethtool -t online: $(t_lines </tmp/t_on | paste -sd' ')"
dmesg -c >/dev/null
ethtool -t "$ifc" offline >/tmp/t_off 2>&1
grep -q '^The test result is PASS' /tmp/t_off || bad="$bad [offline: $(tr '\n' ' ' </tmp/t_off)]"
nz=$(t_lines </tmp/t_off | awk -F~ '$2 != 0' | paste -sd' ')
[ -z "$nz" ] || bad="$bad [failed: $nz]"
[ "$(t_lines </tmp/t_off | wc -l)" = 5 ] || bad="$bad [$(t_lines </tmp/t_off | wc -l) results, want 5]"
echo "@@INFO ethtool -t offline: $(t_lines </tmp/t_off | paste -sd' ')"
# The interface is back as it was: link, autonegotiated, and traffic flows.
link_wait 10 || bad="$bad [no link after the offline test]"
ethtool "$ifc" | grep -q 'Auto-negotiation: on' || bad="$bad [autonegotiation not restored]"
ping -c 2 -W 2 "$HOST" >/dev/null || bad="$bad [no ping after the offline test]"
if [ -z "$bad" ]; then
	pass self-test "e100.c's five names; online and offline PASS (MAC and PHY loopback through the model); link, autoneg and traffic back after"
else
	fail self-test "$bad"
fi

# --- statistics: e100.c's 31 names first, in order; the standard groups -----------------------
begin stat-names
C_NAMES="rx_packets tx_packets rx_bytes tx_bytes rx_errors tx_errors rx_dropped tx_dropped multicast collisions rx_length_errors rx_over_errors rx_crc_errors rx_frame_errors rx_fifo_errors rx_missed_errors tx_aborted_errors tx_carrier_errors tx_fifo_errors tx_heartbeat_errors tx_window_errors tx_deferred tx_single_collisions tx_multi_collisions tx_flow_control_pause rx_flow_control_pause rx_flow_control_unsupported tx_tco_packets rx_tco_packets rx_short_frame_errors rx_over_length_errors"
names=$(ethtool -S "$ifc" | awk -F: 'NR > 1 {gsub(/ /, "", $1); print $1}' | tr '\n' ' ')
first=$(echo "$names" | cut -d' ' -f1-31)
if [ "$first" = "$C_NAMES" ]; then
	pass stat-names "the C driver's 31 names in its order$([ "$drv" = e100_rs ] && echo ", then: $(echo "$names" | cut -d' ' -f32-)")"
else
	fail stat-names "got: $first"
fi

if [ "$drv" = e100_rs ]; then
	begin stat-groups
	ping -c 3 -i 0.2 "$HOST" >/dev/null
	sleep 4.5
	g=$(ethtool -S "$ifc" --all-groups 2>&1)
	p=$(ethtool -I -a "$ifc" 2>&1)
	echo "@@INFO groups: $(echo "$g" | tr -s ' \t\n' ' ' | cut -c1-600)"
	echo "@@INFO pause statistics: $(echo "$p" | tr -s ' \t\n' ' ')"
	tx_ok=$(echo "$g" | awk '$1 == "eth-mac-FramesTransmittedOK:" {print $2}')
	if [ "${tx_ok:-0}" -gt 0 ] && echo "$g" | grep -q "eth-ctrl-MACControlFramesTransmitted:" &&
		echo "$p" | grep -q "tx_pause_frames:" && echo "$p" | grep -q "rx_pause_frames:"; then
		pass stat-groups "eth-mac (FramesTransmittedOK $tx_ok), eth-ctrl and the pause statistics are reported"
	else
		fail stat-groups "eth-mac FramesTransmittedOK '$tx_ok'; --all-groups: $(echo "$g" | head -3 | tr '\n' ' '); -I -a: $(echo "$p" | tr '\n' ' ')"
	fi
fi

# --- bad input: every setter refuses out-of-range and malformed values, and changes nothing ----
begin bad-input
state() {
	ethtool "$ifc" 2>&1 | grep -vE 'Link partner|Link detected|^[[:space:]]+[0-9]+base'
	ethtool -g "$ifc" 2>&1 | sed -n '/^Current/,$p'
	ethtool -a "$ifc" 2>&1
	ethtool -e "$ifc" raw on 2>/dev/null | od -An -tx1 | tr -d ' \n' | cut -c1-128
	ip link show "$ifc" | head -1 | sed 's/ state [A-Z]*//'
}
link_wait 10
before=$(state)
bad="" n=0
refused() { n=$((n + 1)); if "$@" >/dev/null 2>&1; then bad="$bad [accepted: ${*#ethtool }]"; fi; }
refused ethtool -s "$ifc" speed 1000 duplex full autoneg off
refused ethtool -s "$ifc" speed 7 duplex full autoneg off
refused ethtool -s "$ifc" speed 100 duplex sideways autoneg off
refused ethtool -s "$ifc" advertise 0x0
if [ "$drv" = e100_rs ]; then
	refused ethtool -s "$ifc" advertise 0x20
else
	echo "@@INFO bad-input: e100's mii library accepts an advertisement of 1000baseT/Full alone (not tried here)"
fi
refused ethtool -s "$ifc" advertise 0x1000
refused ethtool -s "$ifc" port fibre
refused ethtool -s "$ifc" phyad 7
if [ "$drv" = e100_rs ]; then
	refused ethtool -s "$ifc" mdix on
else
	echo "@@INFO bad-input: e100's mii library takes a forced MDI-X setting and ignores it (not tried here)"
fi
refused ethtool -G "$ifc" rx 300
refused ethtool -G "$ifc" tx 1000
refused ethtool -G "$ifc" rx-mini 8
refused ethtool -G "$ifc" rx-jumbo 8
refused ethtool -G "$ifc" rx abc
refused ethtool -E "$ifc" magic 0xdead offset 0 value 0x12
refused ethtool -E "$ifc" magic 0x1234 offset 128 value 0x12
refused ethtool -C "$ifc" rx-usecs 10
refused ethtool -L "$ifc" combined 2
refused ip link set "$ifc" mtu 1501
refused ip link set "$ifc" mtu 67
refused ip link set "$ifc" address 01:00:5e:00:00:01
refused ip link set "$ifc" address 00:00:00:00:00:00
link_wait 10
wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier"
after=$(state)
if [ "$before" != "$after" ]; then
	echo "$before" >/tmp/state.before
	echo "$after" >/tmp/state.after
	bad="$bad [state changed: $(diff /tmp/state.before /tmp/state.after | grep '^[-+][^-+]' | head -4 | tr '\n' ' ')]"
fi
ping -c 2 -W 2 "$HOST" >/dev/null || bad="$bad [no ping after]"
if [ -z "$bad" ]; then
	pass bad-input "$n malformed or out-of-range settings refused (ethtool -s/-G/-E/-C/-L, MTU, MAC address); settings, EEPROM and traffic unchanged"
else
	fail bad-input "$bad"
fi

ip link set "$ifc" down
unload_driver "$drv"

# --- module parameters out of range or malformed ----------------------------------------------
begin bad-module-params
bad=""
mod=/mods/$drv.ko
[ "$drv" = e100 ] && insmod /mods/mii.ko 2>/dev/null
for p in debug=abc debug=1x eeprom_bad_csum_allow=maybe; do
	if insmod "$mod" "$p" 2>/dev/null; then bad="$bad [$p accepted]"; rmmod "$drv"; fi
done
for p in debug=99 debug=-7 debug=32; do
	if insmod "$mod" "$p"; then
		ifc=$(nic_if)
		l=$(ethtool "$ifc" | awk '/Current message level:/ {print $4}')
		if [ "$drv" = e100 ]; then
			# e100.c computes (1 << debug) - 1 with no range check.
			echo "@@INFO bad-module-params: e100 $p gives msglvl $l"
		else
			[ "$l" = 0x00000007 ] || bad="$bad [$p gives msglvl $l, want the default 0x00000007]"
		fi
		rmmod "$drv"
	else
		bad="$bad [$p refused: out of range means the default, as netif_msg_init has it]"
	fi
done
[ -z "$bad" ] && pass bad-module-params "debug=abc, debug=1x, eeprom_bad_csum_allow=maybe refused; debug 99, -7, 32 load$([ "$drv" = e100_rs ] && echo " and give the default level 0x7")" ||
	fail bad-module-params "$bad"

# --- CPUSaver microcode. The i82559er is an 82559 D101S: e100/d101s_ucode.bin, optional. The
# blob is the initramfs's synthetic one (scripts/initramfs.sh), copied into the firmware path
# when a test wants it; the model keeps the words of the last load (its `ucode` property). ----
UC=/lib/firmware/e100/d101s_ucode.bin
UCT=/lib/firmware-test/e100/d101s_ucode.bin
# ucode_expect DELAY BUNDLE: the 134 words a driver must load from the synthetic blob: its own,
# with the low halves of words 17, 42 and 99 (the blob's offsets) set to DELAY, BUNDLE and
# 0xffff ("bundle small frames").
ucode_expect() {
	od -An -v -tx4 -N 536 "$UCT" | tr -s ' ' '\n' | grep . | awk -v d="$1" -v b="$2" '
		{ w = $1; i = NR - 1
		  if (i == 17) w = sprintf("%s%04x", substr(w, 1, 4), d)
		  if (i == 42) w = sprintf("%s%04x", substr(w, 1, 4), b)
		  if (i == 99) w = substr(w, 1, 4) "ffff"
		  printf "%s%s", (i ? " " : ""), w }'
}
ucode_loads() { lpctl get ucode | cut -d' ' -f1; }
ucode_words() { lpctl get ucode | cut -d' ' -f2-; }
# uc_up [PARAMS]: load the driver (e100_rs with PARAMS), bring it up; the link and a ping.
uc_up() {
	dmesg -c >/dev/null
	if [ "$drv" = e100 ]; then
		insmod /mods/mii.ko 2>/dev/null
		insmod /mods/e100.ko || return 1
	else
		insmod /mods/e100_rs.ko "$@" || return 1
	fi
	ifc=$(nic_if)
	ip addr add 10.0.2.15/24 dev "$ifc" 2>/dev/null
	ip link set "$ifc" up || return 1
	link_wait 10 && wait_for 10 ping -c 1 -W 1 "$HOST"
}
uc_down() { ip link set "$ifc" down; rmmod "$drv"; }

# No blob: the interface works without; e100_rs says so once however often it comes up
# (e100.c at every bring-up).
begin ucode-missing-optional
rm -f "$UC"
n0=$(ucode_loads)
uc_up && ip link set "$ifc" down && ip link set "$ifc" up && link_wait 10 && wait_for 10 ping -c 1 -W 1 "$HOST"
ok=$?
said=$(dmesg | grep -c 'CPUSaver disabled')
n1=$(ucode_loads)
uc_down
if [ "$ok" = 0 ] && [ "$n1" = "$n0" ] && { [ "$said" = 1 ] || { [ "$drv" = e100 ] && [ "$said" -ge 1 ]; }; }; then
	pass ucode-missing-optional "no $UC: no load command, two bring-ups with link and ping; 'CPUSaver disabled' said $said time(s)"
else
	fail ucode-missing-optional "bring-ups ok: $ok; loads $n0 -> $n1; 'CPUSaver disabled' said $said time(s)"
fi

# The blob: loaded at every bring-up, patched with the defaults (interrupt delay 1536, bundle
# max 6), word for word what the model received.
begin ucode-loaded
cp "$UCT" "$UC"
n0=$(ucode_loads)
uc_up
ok=$?
n1=$(ucode_loads)
got=$(ucode_words)
want=$(ucode_expect 1536 6)
if [ "$ok" = 0 ] && [ "$n1" -gt "$n0" ] && [ "$got" = "$want" ]; then
	pass ucode-loaded "the load command carried the blob with delay 1536 and bundle 6 patched in ($((n1 - n0)) load(s)); link and ping after"
else
	fail ucode-loaded "bring-up ok: $ok; loads $n0 -> $n1; words differ: got '$(echo "$got" | cut -c1-60)...', want '$(echo "$want" | cut -c1-60)...'"
	echo "@@INFO ucode-loaded got:  $got"
	echo "@@INFO ucode-loaded want: $want"
fi
uc_down

if [ "$drv" = e100_rs ]; then
	# The module parameters go where e100.c's constants go; out of range, the defaults (and a
	# warning naming the range).
	begin ucode-params
	bad=""
	uc_up ucode_int_delay=1024 ucode_bundle_max=2 || bad="$bad [no link with the parameters]"
	[ "$(ucode_words)" = "$(ucode_expect 1024 2)" ] || bad="$bad [delay 1024, bundle 2 not what the chip got]"
	uc_down
	# e100.c's comments: delays within 0x200-0x1000, or 1; 300 is neither.
	uc_up ucode_int_delay=300 ucode_bundle_max=0 || bad="$bad [no link with refused parameters]"
	warned=$(dmesg | grep -c 'is not accepted')
	[ "$warned" = 2 ] || bad="$bad [$warned 'not accepted' warnings, want 2]"
	[ "$(ucode_words)" = "$(ucode_expect 1536 6)" ] || bad="$bad [refused: not the defaults]"
	uc_down
	if [ -z "$bad" ]; then pass ucode-params "ucode_int_delay=1024 ucode_bundle_max=2 loaded as such; 300 and 0 refused with a warning, defaults loaded"; else fail ucode-params "$bad"; fi

	# A blob of the wrong size: refused with a message, no load, and the optional microcode
	# done without (e100.c fails the bring-up instead).
	begin ucode-malformed
	head -c 538 "$UCT" >"$UC"
	n0=$(ucode_loads)
	uc_up
	ok=$?
	n1=$(ucode_loads)
	said=$(dmesg | grep -c 'malformed')
	uc_down
	if [ "$ok" = 0 ] && [ "$n1" = "$n0" ] && [ "$said" = 1 ]; then
		pass ucode-malformed "a 538-byte blob refused ('malformed' said once), no load command, link and ping without it"
	else
		fail ucode-malformed "bring-up ok: $ok; loads $n0 -> $n1; 'malformed' said $said time(s)"
	fi
fi
rm -f "$UC"

# --- a corrupted EEPROM (the model's eeprom-bad-checksum): the probe refuses it, unless
# eeprom_bad_csum_allow says to go on -------------------------------------------------------
begin eeprom-bad-checksum
if lpctl set eeprom-bad-checksum true >/dev/null; then
	dmesg -c >/dev/null
	insmod "$mod" 2>/dev/null
	refused_if=$(nic_if)
	said=$(dmesg | grep -iE 'eeprom' | grep -iE 'corrupt|checksum' | head -1)
	lsmod | grep -q "^$drv " && rmmod "$drv"
	insmod "$mod" eeprom_bad_csum_allow=1
	allowed_if=$(nic_if)
	ip link set "$allowed_if" up 2>/dev/null
	rmmod "$drv"
	lpctl set eeprom-bad-checksum false >/dev/null
	if [ -z "$refused_if" ] && [ -n "$said" ] && [ -n "$allowed_if" ]; then
		pass eeprom-bad-checksum "probe refused ('$said'); with eeprom_bad_csum_allow=1 it goes on as $allowed_if"
	else
		fail eeprom-bad-checksum "without the parameter: interface '${refused_if:-none}', message '${said:-none}'; with it: '${allowed_if:-none}'"
	fi
else
	fail eeprom-bad-checksum "the model has no eeprom-bad-checksum"
fi
kmemleak_check kmemleak-after-unload
