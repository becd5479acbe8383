#!/usr/bin/env python3
"""Checks a pcap (from QEMU's filter-dump) for frames longer than their payload needs.

A frame needs 14 bytes of Ethernet header plus its IP datagram (IPv4 total length, or IPv6's
40-byte header plus payload length), or 60 bytes if that is less (the Ethernet minimum, before
the FCS). Anything longer carries junk after the datagram, such as the bytes QEMU's eepro100
model appends when a driver leaves a stale second TBD in an extended TCB.

Only frames sent by the guest (source MAC = --mac) are judged: QEMU's user networking pads
nothing, but frames it sends are not the driver's doing.

Prints "<frames> <judged> <junk> <max_excess>" and exits 0.
"""
import argparse
import struct


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pcap")
    ap.add_argument("--mac", required=True)
    a = ap.parse_args()
    mac = bytes(int(x, 16) for x in a.mac.split(":"))
    data = open(a.pcap, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    endian = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    off = 24
    frames = judged = junk = max_excess = 0
    while off + 16 <= len(data):
        _, _, caplen, origlen = struct.unpack(endian + "IIII", data[off:off + 16])
        pkt = data[off + 16:off + 16 + caplen]
        off += 16 + caplen
        frames += 1
        if len(pkt) < 14 or pkt[6:12] != mac:
            continue
        ethertype = struct.unpack("!H", pkt[12:14])[0]
        if ethertype == 0x0800 and len(pkt) >= 18:
            need = 14 + struct.unpack("!H", pkt[16:18])[0]
        elif ethertype == 0x86DD and len(pkt) >= 20:
            need = 14 + 40 + struct.unpack("!H", pkt[18:20])[0]
        elif ethertype == 0x0806:
            need = 14 + 28
        else:
            continue
        judged += 1
        allowed = max(need, 60)
        if origlen > allowed:
            junk += 1
            max_excess = max(max_excess, origlen - allowed)
    print(frames, judged, junk, max_excess)


if __name__ == "__main__":
    main()
