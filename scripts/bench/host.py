#!/usr/bin/env python3
"""The benchmark's host side of scripts/bench/udpb.c, on 127.0.0.1 only.

    host.py PORT        serve until killed

A datagram "fetch COUNT SIZE GAP_US" (GAP_US may have a fraction) is answered with COUNT
datagrams of SIZE bytes (64 at least), sent to its source GAP_US microseconds apart, from a
thread of its own, then a trailer "end COUNT SECONDS". The schedule is fixed (a late datagram
does not shift the rest: a rate is held); from PACED_US on, no datagram goes less than half a gap
after the one before, so a late one is caught up with gradually and frames meant to be taken one
at a time are never sent together. "report" is answered with "report N": the sink datagrams
counted from that source since its last report. Any other datagram is a sink's: counted, never
answered. Each fetch and each second with sink traffic is logged on stdout.
"""
import socket
import sys
import threading
import time


# The gap from which a fetch is paced: the instruction counts' paced receive phases ask for 2.5
# ms, and a late send caught up with at once put two frames into one poll (the first of two
# counting runs of each driver had 2.7-4.7% fewer interrupts than frames; scripts/bench/count.sh
# now reports that). The sweep's slowest step (10 Mbit/s of 1400-byte datagrams) asks for 1.12
# ms and --overload-only for at most that: they keep the plain fixed schedule.
PACED_US = 2000


def serve_fetch(sock, peer, count, size, gap):
    payload = bytes([0xA5]) * size
    spacing = gap / 2 if gap >= PACED_US / 1e6 else 0
    t0 = time.monotonic()
    last = t0 - gap
    for i in range(count):
        delay = max(t0 + i * gap, last + spacing) - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        try:
            sock.sendto(payload, peer)
        except OSError as e:  # a full socket buffer on the host: the datagram is lost here
            print(f"fetch {peer}: send {i}: {e}", flush=True)
        last = time.monotonic()
    took = time.monotonic() - t0
    # The trailer (3 times: it may be lost like any datagram): what was sent, in how long.
    # Under 64 bytes, and a fetch's datagrams are asked for at 64 bytes or more.
    for _ in range(3):
        time.sleep(0.05)
        sock.sendto(f"end {count} {took:.6f}".encode(), peer)
    print(f"fetch {peer}: {count} x {size} B in {took:.3f} s", flush=True)


def main():
    port = int(sys.argv[1])
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    sock.bind(("127.0.0.1", port))
    sink, last = 0, time.monotonic()
    per_peer = {}  # sink datagrams per source, until it asks for "report"
    while True:
        data, peer = sock.recvfrom(65536)
        words = data.split()
        if len(words) == 4 and words[0] == b"fetch":
            count, size, gap = int(words[1]), int(words[2]), float(words[3])
            size = max(size, 64)
            threading.Thread(target=serve_fetch, args=(sock, peer, count, size, gap / 1e6),
                             daemon=True).start()
            continue
        if data == b"report":
            sock.sendto(f"report {per_peer.pop(peer, 0)}".encode(), peer)
            continue
        per_peer[peer] = per_peer.get(peer, 0) + 1
        sink += 1
        if time.monotonic() - last >= 1:
            print(f"sink: {sink} datagrams", flush=True)
            last = time.monotonic()


if __name__ == "__main__":
    main()
