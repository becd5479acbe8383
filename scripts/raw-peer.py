#!/usr/bin/env python3
"""A peer station on a guest's QEMU dgram wire that sends frames no guest can.

    raw-peer.py PORT GUEST_PORT LOG

The guest's NIC is on `-netdev dgram` with local port GUEST_PORT and remote port PORT, both on
127.0.0.1: each UDP datagram is one Ethernet frame (no preamble, no FCS). This process binds
127.0.0.1:PORT and is the station at the other end, with the address 52:54:00:77:77:77. It
answers the requests of tests/guest/rawpkt.c (EtherType 0x88b5, text payload):

    SEND <seq> <dst> <n> <round>   n data frames (EtherType 0x88b6, "<seq> <i>") to dst,
                                   then "DONE <seq> <round>" (what `rawpkt request` asks)
    MALFORMED <seq>                the frames of MALFORMED below, then "DONE <seq> 0"
    QUIT                           "BYE" three times, then exit 0

A guest's own raw socket cannot put these frames on the wire: its stack refuses a frame longer
than the MTU allows, and its driver pads a short one to 60 bytes (e100_rs does; e100.c leaves
it to the chip). Frames on QEMU's wire carry no FCS, so a bad FCS is not one of them: the
harness QEMU's link partner makes those (CRC, alignment and short-frame errors on a duplex
mismatch, tests/guest/linkpartner.sh).

Every data frame of MALFORMED has its index in the byte after the EtherType (after the VLAN
tag's inner EtherType for the tagged one), so the guest can tell which arrived. Exits 1 after
120 s without a request. Logs what it sent to LOG.
"""
import socket
import sys
import time

OWN = bytes.fromhex("525400777777")
CTRL = b"\x88\xb5"
DATA = b"\x88\xb6"

# (index, total length in bytes without FCS, what it is). The largest Ethernet frame without
# FCS is 1514 bytes, 1518 with an 802.1Q tag; the shortest is 60.
MALFORMED = [
    (1, 15, "runt: header and one byte"),
    (2, 42, "runt: an ARP-sized frame without its padding"),
    (3, 59, "runt: one byte short of the minimum"),
    (4, 60, "legal: the minimum"),
    (5, 1514, "legal: the maximum untagged"),
    (6, 1518, "legal: the maximum with an 802.1Q tag"),
    (7, 1519, "oversize: one byte over the tagged maximum"),
    (8, 1600, "oversize"),
    (9, 2000, "oversize"),
    (10, 9018, "oversize: a jumbo frame"),
    (11, 16000, "oversize"),
    (12, 60000, "oversize: larger than any buffer the driver has"),
]
# Frames with no whole header (shorter than 14 bytes) and garbage at layer 3, sent too; the
# guest cannot see them at a packet socket and only has to survive them.
FRAGMENTS = [1, 6, 7, 13]


def frame(dst, etype, payload, length=None):
    f = dst + OWN + etype + payload
    if length is not None:
        f = (f + bytes(length))[:length]
    return f


def data_frame(dst, index, length):
    if index == 6:
        # 802.1Q, VID 5, then the data EtherType and the index.
        head = dst + OWN + b"\x81\x00\x00\x05" + DATA + bytes([index])
    else:
        head = dst + OWN + DATA + bytes([index])
    body = bytes((i * 7 + index) & 0xFF for i in range(max(0, length - len(head))))
    return (head + body)[:length]


def garbage_ip(dst):
    # IPv4 EtherType; version 5, a total length far past the frame's end, a bad checksum.
    return frame(dst, b"\x08\x00", bytes([0x55, 0, 0xFF, 0xFF]) + b"\xde\xad" * 20, 60)


def main():
    port, guest, logpath = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", port))
    s.settimeout(1.0)
    peer = ("127.0.0.1", guest)
    log = open(logpath, "a", buffering=1)
    last = time.time()
    while time.time() - last < 120:
        try:
            f = s.recv(70000)
        except socket.timeout:
            continue
        if len(f) < 15 or f[12:14] != CTRL or f[:6] not in (OWN, b"\xff" * 6):
            continue
        last = time.time()
        src = f[6:12]
        words = f[14:].split(b"\0", 1)[0].decode("ascii", "replace").split()
        if words[:1] == ["QUIT"]:
            for _ in range(3):
                s.sendto(frame(src, CTRL, b"BYE\0", 60), peer)
            log.write("QUIT from %s\n" % src.hex(":"))
            return 0
        if len(words) == 5 and words[0] == "SEND":
            seq, dst, n, rnd = words[1], bytes.fromhex(words[2].replace(":", "")), int(words[3]), words[4]
            for i in range(min(n, 1000)):
                s.sendto(frame(dst, DATA, ("%s %d\0" % (seq, i)).encode(), 60), peer)
                # Paced: QEMU drops what arrives while the guest's receive ring is full, and
                # a guest under TCG empties it far slower than this loop fills it.
                time.sleep(0.001)
            s.sendto(frame(src, CTRL, ("DONE %s %s\0" % (seq, rnd)).encode(), 60), peer)
            log.write("SEND %s: %d frames to %s\n" % (seq, n, dst.hex(":")))
        elif len(words) == 2 and words[0] == "MALFORMED":
            seq = words[1]
            for n in FRAGMENTS:
                s.sendto((src + OWN + DATA)[:n], peer)
            s.sendto(garbage_ip(src), peer)
            for index, length, what in MALFORMED:
                s.sendto(data_frame(src, index, length), peer)
                log.write("MALFORMED %s: #%d, %d bytes (%s)\n" % (seq, index, length, what))
            # A moment for the guest to take them before the DONE.
            time.sleep(0.2)
            s.sendto(frame(src, CTRL, ("DONE %s 0\0" % seq).encode(), 60), peer)
    log.write("no request in 120 s\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
