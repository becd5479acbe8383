#!/usr/bin/env python3
"""Checks a pcap (from QEMU's filter-dump) for what the guest's driver put on the wire.

Every frame sent by the guest (source MAC one of --mac: the NIC's address and any address the
suite changed it to) is judged:

- junk: longer than its content needs. A frame needs 14 bytes of Ethernet header plus its
  IPv4 datagram (total length), IPv6 datagram (40 + payload length) or ARP packet (28), or
  60 bytes if that is less (the Ethernet minimum, before the FCS). Anything longer carries
  junk after the datagram, such as the bytes QEMU's eepro100 model appends when a driver
  leaves a stale second TBD in an extended TCB. Frames of other EtherTypes have no length of
  their own and are judged only for runts.
- runt: shorter than 60 bytes. QEMU's model does not pad what the driver hands it, so a frame
  the driver did not pad leaves short.

filter-dump records the original length of each frame even when it keeps fewer bytes
(maxlen), so captures can be truncated.

Prints one line, "frames=N sent=N judged=N junk=N max_excess=N runts=N min_len=N", and exits
0; exits 2 with a message if the file is missing or not a pcap.
"""
import argparse
import struct
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pcap", nargs="+")
    ap.add_argument("--mac", action="append", required=True)
    a = ap.parse_args()
    macs = {bytes(int(x, 16) for x in m.split(":")) for m in a.mac}
    frames = sent = judged = junk = max_excess = runts = 0
    min_len = None
    for path in a.pcap:
        try:
            data = open(path, "rb").read()
        except OSError as e:
            print(f"pcap-check: {e}", file=sys.stderr)
            return 2
        if len(data) < 24:
            print(f"pcap-check: {path}: too short for a pcap", file=sys.stderr)
            return 2
        magic = struct.unpack("<I", data[:4])[0]
        if magic in (0xA1B2C3D4, 0xA1B23C4D):
            endian = "<"
        elif magic in (0xD4C3B2A1, 0x4D3CB2A1):
            endian = ">"
        else:
            print(f"pcap-check: {path}: not a pcap (magic {magic:#x})", file=sys.stderr)
            return 2
        off = 24
        while off + 16 <= len(data):
            _, _, caplen, origlen = struct.unpack(endian + "IIII", data[off:off + 16])
            pkt = data[off + 16:off + 16 + caplen]
            off += 16 + caplen
            frames += 1
            if len(pkt) < 14 or pkt[6:12] not in macs:
                continue
            sent += 1
            min_len = origlen if min_len is None else min(min_len, origlen)
            if origlen < 60:
                runts += 1
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
    print(f"frames={frames} sent={sent} judged={judged} junk={junk} max_excess={max_excess} "
          f"runts={runts} min_len={min_len if min_len is not None else 0}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
