#!/usr/bin/env python3
"""Per-instruction view of one driver function from scripts/bench/insncount.c's counts.

    annotate.py --counts FILE --log GUEST_LOG --ko MODULE.ko --phase NAME --func SUBSTRING
                [--tree DEPTH]

Disassembles the module's functions whose (demangled) name contains SUBSTRING and prints
each instruction with how many times per packet it ran in phase NAME (tx-1400, rx-1400, ...):
the plugin counts per translated block, a block's count divided by its length is how often
each of its instructions ran. The module's .text address comes from the guest log
("@@BENCH SYMS <module> .text ADDR"). Relocations are shown so calls name their targets.

--tree DEPTH: instead of the disassembly, the same counts summed by inlined call path, the
outermost DEPTH functions of it (poll_callback > poll > clean > status > ...): in a Rust
module nearly everything is inlined into the two callbacks, so per-symbol counts say little.
It needs MODULE.ko with line tables: scripts/bench.sh builds one with the measured module's
code and leaves it beside the counts, as e100_rs.lines.ko in the results folder (not committed;
a module from another build gives wrong paths silently), and llvm-addr2line (Debian's llvm).
"""
import argparse
import gzip
import json
import re
import subprocess
import sys


def opener(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--counts", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--ko", required=True)
    ap.add_argument("--phase", required=True)
    ap.add_argument("--func", required=True)
    ap.add_argument("--tree", type=int, metavar="DEPTH")
    a = ap.parse_args()
    # bench.sh names its copy with line tables e100_rs.lines.ko.
    mod = re.sub(r"(\.lines)?\.ko$", "", a.ko.rsplit("/", 1)[-1])
    base, mark, pkts = None, None, None
    with open(a.log, errors="replace") as f:
        for line in f:
            if "@@BENCH " not in line:
                continue
            w = line[line.index("@@BENCH ") + 8:].split()
            if w[0] == "SYMS" and w[1] == mod and w[2] == ".text":
                base = int(w[3], 16)
            elif w[0] == "PHASE" and w[2] == a.phase:
                mark = int(w[1])
                kv = dict(x.split("=", 1) for x in w[3:6])
                pkts = int(kv["rx"] if a.phase.startswith("rx") else kv["tx"])
    if base is None or mark is None:
        sys.exit("annotate.py: no module address or no such phase in the log")
    if not pkts:
        sys.exit(f"annotate.py: phase {a.phase} counted no packets")
    # Instructions executed per address: each block's count spread over its instructions.
    blocks = []
    cur = False
    with opener(a.counts) as f:
        for line in f:
            if line.startswith("@mark "):
                cur = int(line.split()[1]) == mark
            elif line.startswith("@end "):
                cur = False
            elif cur:
                ad, n, c = line.split()
                blocks.append((int(ad, 16) - base, int(n), int(c) // int(n)))
    dis = subprocess.run(["objdump", "-d", "-r", "-C", "--no-show-raw-insn", "-j", ".text",
                          a.ko], capture_output=True, text=True, check=True).stdout
    # Instruction offsets in order, to walk a block's n instructions from its start.
    insn_re = re.compile(r"^\s+([0-9a-f]+):\s+(.*)$")
    order, text = [], {}
    for line in dis.splitlines():
        m = insn_re.match(line)
        if m:
            off = int(m.group(1), 16)
            order.append(off)
            text[off] = m.group(2)
    index = {off: i for i, off in enumerate(order)}
    runs = {}
    for off, n, execs in blocks:
        i = index.get(off)
        if i is None:
            continue
        for j in range(i, min(i + n, len(order))):
            runs[order[j]] = runs.get(order[j], 0) + execs
    if a.tree:
        tree(a, runs, dis, pkts)
        return
    show, total = False, 0.0
    for line in dis.splitlines():
        if re.match(r"^[0-9a-f]+ <", line):
            show = a.func in line
            if show:
                print("\n" + line)
            continue
        if not show:
            continue
        m = insn_re.match(line)
        if m:
            r = runs.get(int(m.group(1), 16), 0) / pkts
            total += r
            print(f"{r:8.2f} {line}" if r else f"         {line}")
        elif line.strip():
            print(f"         {line}")
    print(f"\n{total:.1f} instructions per packet in functions matching {a.func!r}")


def short(name):
    """A demangled function name without its generic arguments and leading path: the last two
    path components (`RxRing::clean`, `Nic::poll`)."""
    prev = None
    while prev != name:
        prev, name = name, re.sub(r"<[^<>]*>", "", name)
    return "::".join(name.split("::")[-2:]).lstrip(":")


def tree(a, runs, dis, pkts):
    """Prints the instructions per packet of the functions matching --func, by inlined call
    path (outermost first, --tree functions deep), largest first."""
    fn_of, cur = {}, None
    for line in dis.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.*)>:", line)
        if m:
            cur = m.group(2)
            continue
        m = re.match(r"^\s+([0-9a-f]+):", line)
        if m:
            fn_of[int(m.group(1), 16)] = cur
    addrs = [off for off in runs if runs[off] and a.func in (fn_of.get(off) or "")]
    if not addrs:
        sys.exit(f"annotate.py: nothing of {a.func!r} ran in {a.phase}")
    out = subprocess.run(["llvm-addr2line", "-e", a.ko, "-i", "-f", "-C", "--output-style=JSON"],
                         input="".join(f"{off:#x}\n" for off in addrs), capture_output=True,
                         text=True, check=True).stdout.splitlines()
    if len(out) != len(addrs):
        sys.exit("annotate.py: llvm-addr2line answered for fewer addresses than asked")
    paths, unknown = {}, 0
    for off, line in zip(addrs, out):
        frames = json.loads(line).get("Symbol", [])
        # llvm-addr2line lists the innermost inlined function first.
        names = [short(f.get("FunctionName", "?")) for f in reversed(frames)]
        if not names or names == ["??"]:
            unknown += runs[off]
        key = " > ".join(names[:a.tree]) or "??"
        paths[key] = paths.get(key, 0) + runs[off]
    total = sum(paths.values())
    if unknown > total / 2:
        print("annotate.py: most addresses have no line information: is the module built with "
              "line tables (scripts/bench.sh's e100_rs.lines.ko in the results folder)?",
              file=sys.stderr)
    try:
        for key, n in sorted(paths.items(), key=lambda kv: -kv[1]):
            if n / pkts >= 0.5:
                print(f"{n / pkts:8.1f} {key}")
    except BrokenPipeError:  # the reader (head) has seen enough
        sys.exit(0)
    print(f"\n{total / pkts:.1f} instructions per packet in functions matching {a.func!r} "
          f"(paths under 0.5 a packet not listed)")


if __name__ == "__main__":
    main()
