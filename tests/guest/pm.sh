#!/bin/sh
# Power management, on the harness QEMU: system suspend and resume under traffic and with the
# interface down, wake-on-LAN, and the shutdown hook.
#
# Suspend is the kernel's own: /sys/power/pm_test at "platform", then "mem" into
# /sys/power/state (suspend-to-idle here: the test kernel has no ACPI). Every phase runs for
# every device (suspend, suspend_late, noirq: the PCI core saves the state and puts the device
# into D3hot, with PME# armed if it may wake the system), then after pm_test's 5 s everything
# resumes; only the idle loop itself is skipped. The model records the PMCSR writes (its `pm`
# property): D3hot entered and left, and whether PME was armed.
#
# Boots (e100test.pmboot): "main" on the i82559er (the users' NIC, which has no wake-up logic),
# "wol" on QEMU's i82558b with the model's eeprom-wol (the board wired for wake-on-LAN).
# shellcheck disable=SC1091
. /tests/lib.sh

drv=$DRIVER
boot=$(arg e100test.pmboot)
HOST=10.0.2.2
HTTP_PORT=$(arg e100test.http)
SINK_PORT=$(arg e100test.sink)
if [ -n "$(arg e100test.debug)" ]; then MIB=1; else MIB=4; fi

kmemleak_baseline
lp_open || { fail setup "no control line to the model"; exit 1; }
begin setup
if ! load_driver "$drv"; then
	fail setup "insmod $drv failed"
	exit 1
fi
ifc=$(nic_if)
pci=$(nic_pci)
ip link set lo up
ip addr add 10.0.2.15/24 dev "$ifc"
ip link set "$ifc" up
if wait_for 15 grep -qx 1 "/sys/class/net/$ifc/carrier" && wait_for 10 ping -c 1 -W 1 "$HOST"; then
	pass setup "$drv on $ifc ($(cat "$pci/device"), boot $boot)"
else
	fail setup "no link or no ping"
	exit 1
fi

# pm_field NAME: one field of the model's PMCSR record.
pm_field() { lpctl get pm | tr ' ' '\n' | sed -n "s/^$1=//p"; }
# sleep_once: one pm_test suspend and resume, which must have taken the device to D3hot and
# back; prints what went wrong, if anything.
sleep_once() {
	echo platform >/sys/power/pm_test || { echo "no /sys/power/pm_test"; return 1; }
	dmesg -c >/dev/null
	d3=$(pm_field d3hot)
	d0=$(pm_field d0)
	t0=$(date +%s)
	if ! echo mem >/sys/power/state 2>/tmp/pm.err; then
		echo "echo mem > /sys/power/state failed: $(cat /tmp/pm.err)"
		return 1
	fi
	t=$(($(date +%s) - t0))
	echo none >/sys/power/pm_test
	dmesg | grep -q "PM: suspend exit" || { echo "no 'PM: suspend exit' in the kernel log"; return 1; }
	# pm_test holds the devices suspended for 5 s of busy-waiting, calibrated at boot: under
	# TCG its wall time follows the host's load, so only "some time passed" is checked here;
	# the model's record below is the evidence.
	[ "$t" -ge 1 ] || { echo "the suspend took only $t s"; return 1; }
	[ "$(pm_field d3hot)" = $((d3 + 1)) ] && [ "$(pm_field d0)" = $((d0 + 1)) ] &&
		[ "$(pm_field state)" = D0 ] ||
		{ echo "the device did not go to D3hot and back: $(lpctl get pm) (D3hot entries were $d3)"; return 1; }
	return 0
}
cfg_count() { lpctl get config19-log | cut -d' ' -f1; }
# back: the link and a ping after a resume, within 15 s.
back() {
	wait_for 15 grep -qx 1 "/sys/class/net/$ifc/carrier" && wait_for 15 ping -c 1 -W 1 "$HOST"
}

if [ "$boot" = main ]; then
	# --- suspend and resume in the middle of a download: the download completes intact, an
	# upload after too; the interface comes back up by itself. -------------------------------
	begin suspend-resume-under-traffic
	c0=$(cfg_count)
	down_start $((MIB * 4))
	sleep 1
	err=$(sleep_once)
	c1=$(cfg_count)
	# The driver's resume brought the MAC up again: Configure ran (no callbacks, no Configure).
	[ "$c1" -gt "$c0" ] || err="${err:+$err; }no Configure across the suspend ($c0 -> $c1): the hardware was not brought up again"
	down_check
	d=$res
	if [ -z "$err" ] && back; then
		up_start "$MIB"
		up_check
		u=$res
	else
		u="not tried"
	fi
	flags=$(ip link show "$ifc" | head -1)
	case "$err|$d|$u" in
	"|ok "*"|ok "*) pass suspend-resume-under-traffic "suspended to D3hot 1 s into a $((MIB * 4)) MiB download, which completed intact; $((c1 - c0)) Configure(s) at resume; then $MIB MiB up intact" ;;
	*) fail suspend-resume-under-traffic "${err:+$err; }download: $d; upload: $u; $flags" ;;
	esac

	# --- the device went to D3hot and back, and nothing the driver counts went wrong. ------
	begin suspend-resume-d3hot
	st=$(lpctl get pm)
	txe=$(cat "/sys/class/net/$ifc/statistics/tx_errors")
	if [ "$(pm_field d3hot)" -ge 1 ] && [ "$(pm_field state)" = D0 ] && [ "$txe" = 0 ]; then
		pass suspend-resume-d3hot "model's PMCSR record: $st; tx_errors $txe"
	else
		fail suspend-resume-d3hot "model's PMCSR record: $st (want D3hot entered and back in D0); tx_errors $txe"
	fi

	# --- three more in a row, then traffic both ways. -----------------------------------------
	begin suspend-resume-repeated
	err=""
	for i in 1 2 3; do
		e=$(sleep_once) || { err="cycle $i: $e"; break; }
		back || { err="cycle $i: no link or ping after resume"; break; }
	done
	if [ -z "$err" ]; then intact; r=$res; else r=$err; fi
	if [ "$r" = ok ]; then pass suspend-resume-repeated "3 cycles, then $MIB MiB each way intact"; else fail suspend-resume-repeated "$r"; fi

	# --- suspended with the interface down: it stays down, and comes up afterwards. -------------
	begin suspend-resume-while-down
	ip link set "$ifc" down
	err=$(sleep_once)
	state=$(ip link show "$ifc" | head -1)
	ip link set "$ifc" up
	if [ -n "$err" ]; then
		fail suspend-resume-while-down "$err"
	else
		case "$state" in
		*"<"*UP*">"*) fail suspend-resume-while-down "the interface came back up by itself: $state" ;;
		*)
			if back; then intact; else res="no link or ping after ifup"; fi
			if [ "$res" = ok ]; then pass suspend-resume-while-down "stayed down; after ifup $MIB MiB each way intact"; else fail suspend-resume-while-down "$res"; fi
			;;
		esac
	fi

	# --- wake-on-LAN on the 82559ER, with the EEPROM saying the board is wired for it. --------
	[ "$drv" = e100_rs ] && begin wol-82559er
	lpctl set eeprom-wol true >/dev/null
	ip link set "$ifc" down
	unload_driver "$drv"
	load_driver "$drv"
	ifc=$(nic_if)
	sup=$(ethtool "$ifc" | sed -n 's/^[[:space:]]*Supports Wake-on: //p')
	if ethtool -s "$ifc" wol g 2>/dev/null; then took=accepted; else took=refused; fi
	lpctl set eeprom-wol false >/dev/null
	if [ "$drv" = e100_rs ]; then
		if [ "$sup" = d ] && [ "$took" = refused ]; then
			pass wol-82559er "the 82559ER cannot wake on a magic packet: Supports Wake-on: $sup, wol g refused"
		else
			fail wol-82559er "Supports Wake-on: '$sup', wol g $took (want d, refused)"
		fi
	else
		# Not a test of e100: e100.c's choice, for the record.
		echo "@@INFO wol-82559er: e100 offers '$sup' on the 82559ER (a magic-packet wake-up the part does not have), wol g $took"
	fi
	ip addr add 10.0.2.15/24 dev "$ifc" 2>/dev/null
	ip link set "$ifc" up
	back || echo "@@INFO no link after the reload"
fi

if [ "$boot" = wol ]; then
	# --- the EEPROM's default (word 0x0A bit 5, the model's eeprom-wol): magic packet offered
	# and on, and the device set to wake the system. -------------------------------------------
	begin wol-eeprom-default
	sup=$(ethtool "$ifc" | sed -n 's/^[[:space:]]*Supports Wake-on: //p')
	cur=$(ethtool "$ifc" | sed -n 's/^[[:space:]]*Wake-on: //p')
	wk=$(cat "$pci/power/wakeup" 2>/dev/null)
	if [ "$sup" = g ] && [ "$cur" = g ] && [ "$wk" = enabled ]; then
		pass wol-eeprom-default "Supports Wake-on: $sup, Wake-on: $cur, power/wakeup $wk"
	else
		fail wol-eeprom-default "Supports Wake-on: '$sup', Wake-on: '$cur', power/wakeup '$wk' (want g, g, enabled)"
	fi

	# cfglog: how many Configure commands the model has taken, then byte 19 of the last eight,
	# oldest first. since BEFORE AFTER: the bytes of the commands AFTER has and BEFORE had not.
	cfglog() { lpctl get config19-log; }
	since() {
		echo "$2" | awk -v b="${1%% *}" '{ n = $1 - b; if (n > NF - 1) n = NF - 1
			for (i = NF - n + 1; i <= NF; i++) printf "%s%s", (i > NF - n + 1 ? " " : ""), $i }'
	}
	magic_on() { # magic_on BYTES: whether one of them enables magic packets (bit 1 clear)
		for b in $1; do [ $((0x$b & 2)) -eq 0 ] && return 0; done
		return 1
	}

	# --- suspended with wake-on-LAN on: Configure enables magic packets for the sleep, and the
	# running interface has it off again after. -------------------------------------------------
	begin wol-armed-for-suspend
	before=$(cfglog)
	pme0=$(pm_field pme_armed)
	err=$(sleep_once)
	after=$(cfglog)
	pme1=$(pm_field pme_armed)
	# The PCI core enables PME# before it writes D3hot: the device was put to sleep able to
	# wake the system.
	[ "$pme1" = $((pme0 + 1)) ] || err="${err:+$err; }D3hot entered without PME_En: $(lpctl get pm) (armed entries were $pme0)"
	back || err="${err:+$err; }no link or ping after resume"
	new=$(since "$before" "$after")
	last=${after##* }
	if [ "$drv" = e100_rs ]; then
		if [ -z "$err" ] && magic_on "$new" && ! magic_on "${before#* }" && ! magic_on "$last"; then
			pass wol-armed-for-suspend "Configure byte 19 while running: [${before#* }], across the suspend: [$new] (magic packet on for the sleep, off again after); D3hot with PME_En"
		else
			fail wol-armed-for-suspend "${err:+$err; }byte 19 while running: [${before#* }], across the suspend: [$new]"
		fi
	else
		echo "@@INFO wol-armed-for-suspend: e100 Configure byte 19 across the suspend: [$new]"
		if [ -z "$err" ]; then pass wol-armed-for-suspend "e100: D3hot with PME_En, resumed (e100.c leaves Configure alone: [$new])"; else fail wol-armed-for-suspend "$err"; fi
	fi

	# --- wake-on-LAN off: the device no longer wakes, and the sleep's Configure keeps magic off.
	begin wol-off
	ethtool -s "$ifc" wol d
	cur=$(ethtool "$ifc" | sed -n 's/^[[:space:]]*Wake-on: //p')
	wk=$(cat "$pci/power/wakeup" 2>/dev/null)
	before=$(cfglog)
	pme0=$(pm_field pme_armed)
	err=$(sleep_once)
	after=$(cfglog)
	[ "$(pm_field pme_armed)" = "$pme0" ] || err="${err:+$err; }D3hot entered with PME_En although wake-up is off: $(lpctl get pm)"
	back || err="${err:+$err; }no link or ping after resume"
	new=$(since "$before" "$after")
	if [ "$drv" = e100_rs ]; then
		if [ -z "$err" ] && [ "$cur" = d ] && [ "$wk" = disabled ] && [ -n "$new" ] && ! magic_on "$new"; then
			pass wol-off "Wake-on: $cur, power/wakeup $wk; byte 19 across a suspend: [$new] (magic packet never on); D3hot without PME_En"
		else
			fail wol-off "${err:+$err; }Wake-on '$cur', power/wakeup '$wk', byte 19 across a suspend: [$new]"
		fi
	else
		if [ -z "$err" ] && [ "$cur" = d ] && [ "$wk" = disabled ]; then pass wol-off "e100: Wake-on: $cur, power/wakeup $wk; D3hot without PME_En"; else fail wol-off "${err:+$err; }Wake-on '$cur', power/wakeup '$wk'"; fi
	fi

	# --- and on again, by the user: the device wakes again. -------------------------------------
	begin wol-on-again
	ethtool -s "$ifc" wol g
	cur=$(ethtool "$ifc" | sed -n 's/^[[:space:]]*Wake-on: //p')
	wk=$(cat "$pci/power/wakeup" 2>/dev/null)
	if ethtool -s "$ifc" wol u 2>/dev/null; then u=accepted; else u=refused; fi
	if [ "$cur" = g ] && [ "$wk" = enabled ] && [ "$u" = refused ]; then
		pass wol-on-again "Wake-on: $cur, power/wakeup $wk; wol u (unicast) refused: magic packet is all the 8255x has"
	else
		fail wol-on-again "Wake-on '$cur', power/wakeup '$wk', wol u $u"
	fi

	# --- a new binding with wake-up already enabled on the device (left by this one): the
	# probe must not trip over it, and the EEPROM's default holds again. ------------------------
	begin wol-reload
	ip link set "$ifc" down
	unload_driver "$drv"
	if load_driver "$drv" && [ -n "$(nic_if)" ]; then
		ifc=$(nic_if)
		cur=$(ethtool "$ifc" | sed -n 's/^[[:space:]]*Wake-on: //p')
		wk=$(cat "$pci/power/wakeup" 2>/dev/null)
		ip addr add 10.0.2.15/24 dev "$ifc"
		ip link set "$ifc" up
		if back && [ "$cur" = g ] && [ "$wk" = enabled ]; then
			pass wol-reload "unloaded and loaded again with power/wakeup enabled: probed, Wake-on: $cur, link and ping"
		else
			fail wol-reload "after the reload: Wake-on '$cur', power/wakeup '$wk', link or ping missing"
		fi
	else
		fail wol-reload "the probe failed with wake-up already enabled: $(dmesg | tail -2 | tr '\n' ' ')"
		exit 1
	fi

	# --- suspended with the interface down and wake-on-LAN on: armed all the same; after the
	# resume the interface comes up and works. ------------------------------------------------
	begin wol-suspend-while-down
	ip link set "$ifc" down
	before=$(cfglog)
	err=$(sleep_once)
	after=$(cfglog)
	new=$(since "$before" "$after")
	ip link set "$ifc" up
	if back; then intact; else res="no link or ping after ifup"; fi
	if [ "$drv" = e100_rs ]; then
		magic_on "$new" || err="${err:+$err; }magic packet not enabled for the sleep: [$new]"
	fi
	if [ -z "$err" ] && [ "$res" = ok ]; then
		pass wol-suspend-while-down "down, wake-on-LAN on: Configure byte 19 across the suspend [$new]; after ifup $MIB MiB each way intact"
	else
		fail wol-suspend-while-down "${err:+$err; }after ifup: $res"
	fi
fi

# --- nothing leaked (the driver unloaded first, so a ring left behind would show).
wol_now=$(ethtool "$ifc" | sed -n 's/^[[:space:]]*Wake-on: //p')
ip link set "$ifc" down
unload_driver "$drv"
kmemleak_check "kmemleak-after-pm"

# --- the shutdown hook runs when the guest reboots after @@DONE: its message (e100_rs prints
# one at message level "wol") is checked by the host, and the log must stay clean to the end.
# Loaded again (up, with the wake-on-LAN setting it had).
load_driver "$drv"
ifc=$(nic_if)
ip link set "$ifc" up
[ "$wol_now" = g ] && ethtool -s "$ifc" wol g 2>/dev/null
ethtool -s "$ifc" msglvl 0x4007 2>/dev/null
echo "@@SHUTDOWN expected driver=$drv wol=$(ethtool "$ifc" | sed -n 's/^[[:space:]]*Wake-on: //p')"
