#!/usr/bin/env python3
"""Instructions per packet from scripts/bench/insncount.c's counts.

    insns.py --counts FILE --log GUEST_LOG --system-map System.map --driver e100_rs|e100
             [--mmio-counts FILE --mmio-log GUEST_LOG] [--json OUT] [--top N]

The plugin's FILE has a section per marker ("@mark N" ... "@end N": "address length count"
lines, count = instructions); the guest's log has the driver's packet counts per phase
("@@BENCH PHASE N name tx=.. rx=.. irq=..") and the driver modules' symbols ("@@BENCH KSYM").
Each block is attributed by its first address to the symbol that contains it:

  driver   the driver's module text: e100_rs.ko, or e100.ko and mii.ko
  helpers  rust_helper_* in the kernel (the C shims the Rust code calls)
  kcrate   the rest of the Rust code in the kernel (the kernel crate, core, alloc)
  mmio     the kernel's out-of-line register accessors (ioread8/iowrite32 and kin, lib/iomap.c):
           e100.c's register accesses, counted apart from its module (e100_rs's `Io`
           accessors are inlined into its module). Counted whoever calls them: that e100_rs's
           runs show none is what shows no other caller ran during the workloads.
  kernel   every instruction above 0xffff800000000000 (the four above included)
  user     the rest (the workload's process, the shell)

Per phase: each group's instructions per packet (the phase's packets: tx for a transmit phase,
rx for a receive phase, both for ping), per interrupt, and the driver's top symbols.

Register accesses: with mmio=on the plugin also counts, per marker section, the loads and
stores QEMU sent to a device ("io PAGE READS WRITES DEVICE" lines, by 4 KiB physical page).
The NIC's are those in its BAR 0 (the CSR), which the guest's log gives ("@@BENCH BAR 0 START
END FLAGS"): MMIO reads and writes per packet, exactly, divided by that boot's own packets.
They come from --mmio-counts and --mmio-log, a boot of their own (scripts/bench.sh: the
callbacks slow the guest, which would move the instruction counts of work that time decides),
or else from --counts and --log. Port I/O is not among them (the plugin cannot see x86
in/out). Without the BAR, or with no access in it in the whole boot, the run says "no MMIO
accesses counted" (on stderr, in its text and as "mmio_error" in the JSON) and gives no
register figures rather than zeros.
"""
import argparse
import bisect
import json
import re
import subprocess
import sys

KERNEL_BASE = 0xFFFF800000000000
MMIO_RE = re.compile(r"(ioread|iowrite)(8|16|32|64)(be)?(_rep)?$")
IRQ_RE = re.compile(r"e100_intr\b|::interrupt\b|irq_handler|handle_irq|irq::handle_callback")


def load_symbols(system_map, log):
    syms = []  # (address, name, module or "")
    with open(system_map) as f:
        for line in f:
            a, t, name = line.split()[:3]
            if t in "tTwW":
                syms.append((int(a, 16), name, ""))
    kbase = None
    phases, sections, bars = {}, {}, {}
    with open(log, errors="replace") as f:
        for line in f:
            if "@@BENCH " not in line:
                continue
            w = line[line.index("@@BENCH ") + 8:].split()
            if w[0] == "KSYM" and len(w) >= 4 and w[2] in "tTwW":
                syms.append((int(w[1], 16), w[3], w[4].strip("[]") if len(w) > 4 else ""))
            elif w[0] == "KBASE" and len(w) > 1:
                kbase = int(w[1], 16)
            elif w[0] == "BAR" and len(w) >= 4:
                bars[int(w[1])] = (int(w[2], 16), int(w[3], 16))
            elif w[0] == "SYMS":
                sections.setdefault(w[1], {})[w[2]] = int(w[3], 16)
            elif w[0] == "MEMUP" and len(w) > 1:
                phases.setdefault("memup_kb", int(w[1]))
            elif w[0] == "PHASE":
                kv = dict(x.split("=", 1) for x in w[3:6])
                phases[int(w[1])] = {"name": w[2], **{k: int(v) for k, v in kv.items()},
                                     "tool": " ".join(w[6:])}
    smap_stext = next((a for a, n, m in syms if n == "_stext" and not m), None)
    if kbase is not None and smap_stext is not None and kbase != smap_stext:
        sys.exit(f"insns.py: the guest's _stext {kbase:x} is not System.map's {smap_stext:x} (KASLR?)")
    syms.sort()
    return syms, phases, sections, bars


def group_of(name, module, driver_mods):
    if module:
        return "driver" if module in driver_mods else "other-module"
    if name.startswith("rust_helper_"):
        return "helpers"
    if name.startswith("_R"):
        return "kcrate"
    if MMIO_RE.match(name):
        return "mmio"
    return "kernel-c"


def demangle(names):
    if not names:
        return {}
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                             text=True, check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return {n: n for n in names}
    # Drop the crates' disambiguators ("kernel[5f2e...]::") and generic noise.
    return {n: re.sub(r"\[[0-9a-f]+\]", "", d) for n, d in zip(names, out)}


def read_counts(path):
    """The plugin's sections: {mark: {block address: instructions}}, and the I/O accesses
    {mark: {page: (reads, writes, device)}}, the whole boot's under "total"."""
    marks, io, cur, cur_io = {}, {}, None, None
    with open(path) as f:
        for line in f:
            if line.startswith("@mark "):
                m = int(line.split()[1])
                cur, cur_io = marks.setdefault(m, {}), io.setdefault(m, {})
            elif line.startswith("@iototal"):
                cur, cur_io = None, io.setdefault("total", {})
            elif line.startswith("@end "):
                cur, cur_io = None, None
            elif line.startswith("io ") and cur_io is not None:
                _, page, r, w, dev = line.split(maxsplit=4)
                cur_io[int(page, 16)] = (int(r), int(w), dev.strip())
            elif cur is not None:
                a, n, c = line.split()
                a = int(a, 16)
                cur[a] = cur.get(a, 0) + int(c)
    return marks, io


def in_bar(pages, bar):
    """Reads, writes and the device names of the pages of `pages` inside `bar` (start, end)."""
    r = w = 0
    devs = set()
    for page, (pr, pw, dev) in pages.items():
        if bar[0] <= page + 0xFFF and page <= bar[1]:
            r, w = r + pr, w + pw
            devs.add(dev)
    return r, w, devs


def mmio_error(io, bars):
    """Why the run has no register counts (None: it has them)."""
    if "total" not in io:
        return ("the plugin's counts have no I/O section (counted without mmio=on, or by a "
                "plugin from before it counted register accesses)")
    if 0 not in bars or bars[0][0] == 0:
        return "the guest's log does not say where the NIC's BAR 0 is (@@BENCH BAR 0)"
    r, w, _ = in_bar(io["total"], bars[0])
    if r + w == 0:
        busiest = sorted(io["total"].items(), key=lambda kv: -(kv[1][0] + kv[1][1]))
        seen = ", ".join(f"{p:x} {d} {r + w}" for p, (r, w, d) in busiest[:6]) or "none"
        if len(busiest) > 6:
            seen += f", and {len(busiest) - 6} more"
        return (f"no access in BAR 0 ({bars[0][0]:x}-{bars[0][1]:x}) in the whole boot "
                f"(I/O pages seen, the busiest first, with their accesses: {seen})")
    return None


def packets(ph):
    """What a phase's counts are divided by: its packets, or for idle-Ns its seconds."""
    n = ph["name"]
    m = re.match(r"idle-(\d+)s$", n)
    if m:
        return int(m.group(1))
    if n.startswith("tx"):
        return ph["tx"]
    if n.startswith("rx"):
        return ph["rx"]
    return ph["tx"] + ph["rx"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--counts", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--system-map", required=True)
    ap.add_argument("--driver", required=True)
    ap.add_argument("--mmio-counts", help="the register accesses' boot (default: --counts)")
    ap.add_argument("--mmio-log", help="its guest log (default: --log)")
    ap.add_argument("--json")
    ap.add_argument("--top", type=int, default=8)
    a = ap.parse_args()
    driver_mods = {"e100_rs"} if a.driver == "e100_rs" else {"e100", "mii"}
    syms, phases, sections, bars = load_symbols(a.system_map, a.log)
    addrs = [s[0] for s in syms]
    marks, io = read_counts(a.counts)
    mphases = phases
    if a.mmio_counts:
        _, io = read_counts(a.mmio_counts)
        _, mphases, _, bars = load_symbols(a.system_map, a.mmio_log or a.log)
    result = {"driver": a.driver, "phases": {}}
    err = mmio_error(io, bars)
    result["mmio_error"] = err
    if err:
        print(f"insns.py: {a.driver}: NO MMIO ACCESSES COUNTED: {err}", file=sys.stderr)
    else:
        result["bar0"] = [f"{bars[0][0]:x}", f"{bars[0][1]:x}"]
        result["bar0_device"] = sorted(in_bar(io["total"], bars[0])[2])
    memup = phases.pop("memup_kb", None)
    result["memory_up_kb"] = memup
    for m, ph in sorted(phases.items()):
        counts = marks.get(m)
        if counts is None:
            print(f"phase {m} {ph['name']}: no counts from the plugin", file=sys.stderr)
            continue
        groups = {"driver": 0, "helpers": 0, "kcrate": 0, "mmio": 0, "kernel": 0, "user": 0}
        by_sym, sym_group = {}, {}
        kernel_sym = {}  # every kernel symbol, for the whole kernel's top list
        for addr, c in counts.items():
            if addr < KERNEL_BASE:
                groups["user"] += c
                continue
            groups["kernel"] += c
            i = bisect.bisect_right(addrs, addr) - 1
            if i < 0:
                continue
            _, name, mod = syms[i]
            kernel_sym[name] = kernel_sym.get(name, 0) + c
            g = group_of(name, mod, driver_mods)
            if g in groups:
                groups[g] += c
            if g in ("driver", "helpers", "kcrate"):
                by_sym[name] = by_sym.get(name, 0) + c
                sym_group[name] = g
        n = packets(ph)
        names = demangle(list(by_sym))
        top = sorted(by_sym.items(), key=lambda kv: -kv[1])[: a.top]
        ktop = sorted(kernel_sym.items(), key=lambda kv: -kv[1])[:15]
        ktop_names = demangle([s for s, _ in ktop])
        # The interrupt path: the driver's hard-interrupt handler (e100_intr; e100_rs's
        # Nic::interrupt and the abstraction's trampoline, kernel::irq::handle_callback, into
        # which the compiler may inline it), per interrupt.
        irq_insns = sum(c for s, c in by_sym.items()
                        if sym_group[s] == "driver" and IRQ_RE.search(names.get(s, s)))
        mmio = None
        if not err and m in mphases and m in io:
            r, w, _ = in_bar(io[m], bars[0])
            mn = packets(mphases[m])
            mmio = {"reads": r, "writes": w, "packets": mn,
                    "reads_per_packet": r / mn if mn else None,
                    "writes_per_packet": w / mn if mn else None}
        result["phases"][ph["name"]] = {
            "packets": n, "unit": "second" if ph["name"].startswith("idle") else "packet",
            "tx": ph["tx"], "rx": ph["rx"], "irq": ph["irq"], "tool": ph["tool"],
            "instructions": groups,
            "irq_handler_per_irq": irq_insns / ph["irq"] if ph["irq"] else None,
            "per_packet": {g: (v / n if n else None) for g, v in groups.items()},
            # The driver's register accesses (loads and stores in BAR 0), None if not counted.
            "mmio_accesses": mmio,
            "top": [{"symbol": names.get(s, s), "group": sym_group[s],
                     "per_packet": c / n if n else None, "instructions": c} for s, c in top],
            "kernel_top": [{"symbol": ktop_names.get(s, s), "per_packet": c / n if n else None}
                           for s, c in ktop],
            # Every kernel symbol that ran at least once a packet, for the report's
            # differences between the drivers (raw names: the two runs are matched by name).
            "kernel_syms": {s: c / n for s, c in kernel_sym.items() if n and c >= n},
        }
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    if err:
        print(f"{a.driver}: NO MMIO ACCESSES COUNTED: {err}")
    else:
        print(f"{a.driver}: register accesses: BAR 0 {result['bar0'][0]}-{result['bar0'][1]} "
              f"({', '.join(result['bar0_device'])})")
    for name, r in result["phases"].items():
        pp = r["per_packet"]
        ih = r["irq_handler_per_irq"]
        print(f"{a.driver} {name}: {r['packets']} {r['unit']}s, {r['irq']} interrupts"
              + (f" ({ih:,.0f} instructions each in the handler)" if ih else "")
              + f"; per {r['unit']}: "
              + ", ".join(f"{g} {v:,.0f}" for g, v in pp.items() if v is not None))
        mm = r["mmio_accesses"]
        if mm and r["packets"]:
            print(f"    MMIO per {r['unit']}: {mm['reads_per_packet']:.3f} reads, "
                  f"{mm['writes_per_packet']:.3f} writes ({mm['reads']} and {mm['writes']})")
        for t in r["top"]:
            print(f"    {t['per_packet']:10,.1f}  {t['group']:7}  {t['symbol'][:110]}")


if __name__ == "__main__":
    main()
