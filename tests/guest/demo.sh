#!/bin/sh
# The README's demo: load e100_rs, bring the interface up, show what the kernel and ethtool see.
. /tests/lib.sh
drv=${DRIVER:-e100_rs}
show() { echo "# $*"; "$@" 2>&1; echo; }
load_driver "$drv" || { fail demo-load "insmod $drv failed"; exit 1; }
ifc=$(nic_if)
ip link set "$ifc" up
wait_for 10 grep -qx 1 "/sys/class/net/$ifc/carrier"
echo "================ e100_rs demo ================"
echo "# dmesg | grep $drv"; dmesg | grep -E "^(\[[ 0-9.]+\] )?($drv|net $ifc)"; echo
echo "# lspci-style: $(basename "$(nic_pci)") $(cat "$(nic_pci)/vendor"):$(cat "$(nic_pci)/device") driver=$(basename "$(readlink "$(nic_pci)/driver")")"
echo
show ip link show "$ifc"
show ethtool -i "$ifc"
show ethtool "$ifc"
show ethtool -e "$ifc"
echo "=============================================="
addr=$(cat "/sys/class/net/$ifc/address")
[ "$addr" = "$MAC" ] && pass demo-mac "$ifc $addr bound to $drv" || fail demo-mac "$addr != $MAC"
