#!/usr/bin/env python3
"""Control line between a test guest and the harness QEMU's link-partner model.

    lp-bridge.py DIR

QEMU serves QMP on DIR/qmp.sock and the guest's second serial port (/dev/ttyS1) on
DIR/lpctl.sock (scripts/qemu-run.sh --lp-dir). The guest writes one request per line:

    ID get PROP            -> qom-get /machine/peripheral/nic0 PROP
    ID set PROP VALUE      -> qom-set (VALUE: true/false, a number, or a string)
    ID link up|down        -> set_link n0 (the QEMU monitor's link switch on the NIC's
                              backend: frames are lost both ways, the PHY sees nothing)

and reads one answer line, "ID OK", "ID OK <value>" or "ID ERR <message>" (ID is any word
the guest chose; it lets the guest skip a late answer to an earlier request). Every exchange is
logged to stdout, so the run's results folder shows what each test asked of the model.
The bridge ends when QEMU closes either socket.
"""
import json
import os
import socket
import sys
import time

NIC = "/machine/peripheral/nic0"


def connect(path, deadline):
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.time() > deadline:
                raise
            time.sleep(0.05)


class Qmp:
    def __init__(self, sock):
        self.f = sock.makefile("rw", encoding="utf-8", newline="\n")
        self.recv()  # greeting
        self.cmd("qmp_capabilities")

    def recv(self):
        while True:
            line = self.f.readline()
            if not line:
                raise EOFError("QMP closed")
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def cmd(self, name, /, **args):
        self.f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.f.flush()
        return self.recv()


def value(text):
    if text in ("true", "false"):
        return text == "true"
    for base in (0, 10):
        try:
            return int(text, base)
        except ValueError:
            pass
    return text


def answer(qmp, line):
    words = line.split(None, 2)
    if len(words) == 2 and words[0] == "get":
        r = qmp.cmd("qom-get", path=NIC, property=words[1])
    elif len(words) == 3 and words[0] == "set":
        r = qmp.cmd("qom-set", path=NIC, property=words[1], value=value(words[2]))
    elif len(words) == 2 and words[0] == "link" and words[1] in ("up", "down"):
        r = qmp.cmd("set_link", name="n0", up=words[1] == "up")
    else:
        return "ERR bad request: " + line
    if "error" in r:
        return "ERR " + r["error"].get("desc", "?")
    ret = r.get("return")
    if ret is None or ret == {}:
        return "OK"
    if isinstance(ret, bool):
        return "OK " + ("true" if ret else "false")
    return "OK " + str(ret)


def main():
    d = sys.argv[1]
    deadline = time.time() + 30
    qmp = Qmp(connect(os.path.join(d, "qmp.sock"), deadline))
    ctl = connect(os.path.join(d, "lpctl.sock"), deadline)
    buf = b""
    while True:
        data = ctl.recv(4096)
        if not data:
            return
        buf += data
        while b"\n" in buf:
            raw, buf = buf.split(b"\n", 1)
            line = raw.decode("utf-8", "replace").strip()
            if not line:
                continue
            rid, _, req = line.partition(" ")
            try:
                out = rid + " " + answer(qmp, req)
            except EOFError:
                return
            except Exception as e:  # a bad request or reply must not end the bridge
                out = f"{rid} ERR {type(e).__name__}: {e}"
            print(f"{time.monotonic():.3f} {line} -> {out}", flush=True)
            ctl.sendall(out.encode() + b"\n")


if __name__ == "__main__":
    try:
        main()
    except (EOFError, ConnectionError, OSError) as e:
        print(f"bridge ended: {e}", flush=True)
