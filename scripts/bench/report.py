#!/usr/bin/env python3
"""summary.md for a scripts/bench.sh results folder.

    report.py DIR

Reads DIR/count-DRIVER-RUN.json (scripts/bench/insns.py), DIR/sizes.txt and DIR/command, and
writes Markdown on stdout: instructions per packet per phase and group for both drivers (the
median of the runs, and how far the runs are apart), the ratio e100_rs / e100, the register
accesses per packet (MMIO reads and writes), the top symbols of each driver, and the module
sizes.
"""
import glob
import json
import os
import re
import statistics
import sys

from insns import demangle  # this script's directory, first on sys.path

GROUPS = [("driver", "driver module"), ("helpers", "Rust helpers"),
          ("kcrate", "kernel's Rust code"), ("mmio", "register accessor calls"),
          ("kernel", "whole kernel")]


def load_counts(d):
    runs = {}
    for p in sorted(glob.glob(os.path.join(d, "count-*-*.json"))):
        m = re.match(r"count-(.+)-(\d+)\.json$", os.path.basename(p))
        with open(p) as f:
            runs.setdefault(m.group(1), []).append(json.load(f))
    return runs


def spread(vals):
    """Largest relative distance between runs, in percent of their median."""
    med = statistics.median(vals)
    return 100 * (max(vals) - min(vals)) / med if med else 0.0


def apart(vals):
    """The 'apart' cell of one driver's row: the runs' spread in percent, or, for a row under
    one instruction a packet (a timer that ran in one run and not the other), the absolute
    difference, which a percentage of almost nothing would blow up."""
    if len(vals) < 2:
        return "-"
    if statistics.median(vals) < 1:
        return f"{max(vals) - min(vals):.2f} a packet"
    return f"{spread(vals):.2f}%"


def load_wall(d):
    """{metric: {driver: [value per round, in round order]}} from the wall-clock logs."""
    vals, errors = {}, []
    for p in sorted(glob.glob(os.path.join(d, "wall-*-*.log")),
                    key=lambda p: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", p)]):
        m = re.match(r"wall-(e100_rs|e100)-(\d+)", os.path.basename(p))
        if not m:
            continue
        with open(p, errors="replace") as f:
            for line in f:
                if "@@BENCH M " in line:
                    w = line[line.index("@@BENCH M ") + 10:].split()
                    try:
                        vals.setdefault(w[0], {}).setdefault(m.group(1), []).append(float(w[1]))
                    except (IndexError, ValueError):
                        pass
                elif "@@BENCH ERROR" in line:
                    errors.append(f"{os.path.basename(p)}: {line.strip()}")
    # The counting boots' errors too (a failed phase, an ethtool setting not taken, paced
    # frames not taken alone), and the boots made again because their paced frames were not
    # (bench.sh keeps what each such boot said in count-DRIVER-RUN.retried).
    for p in sorted(glob.glob(os.path.join(d, "count-*-*.log"))):
        with open(p, errors="replace") as f:
            errors += [f"{os.path.basename(p)}: {line.strip()}" for line in f
                       if "@@BENCH ERROR" in line]
    for p in sorted(glob.glob(os.path.join(d, "count-*-*.retried"))):
        with open(p, errors="replace") as f:
            errors += [f"{os.path.basename(p)}: {line.strip()} (not counted: made again)"
                       for line in f if line.strip()]
    return vals, errors


def ratio_ci(a, b, n=10000, seed=1):
    """Bootstrap 95% interval of median(a) / median(b), resampling each within itself."""
    import numpy as np
    rng = np.random.default_rng(seed)
    a, b = np.asarray(a), np.asarray(b)
    ra = np.median(rng.choice(a, (n, len(a))), axis=1)
    rb = np.median(rng.choice(b, (n, len(b))), axis=1)
    ok = rb != 0
    r = ra[ok] / rb[ok]
    return float(np.percentile(r, 2.5)), float(np.percentile(r, 97.5))


def wall_table(vals):
    from scipy.stats import mannwhitneyu
    out = ["| metric | e100 median [min-max] | e100_rs median [min-max] | e100_rs / e100 | 95% CI "
           "(bootstrap) | Mann-Whitney p |", "|---|---:|---:|---:|---|---:|"]
    for name in vals:
        c, rs = vals[name].get("e100", []), vals[name].get("e100_rs", [])
        cell = lambda v: (f"{statistics.median(v):.4g} [{min(v):.4g}-{max(v):.4g}] (n={len(v)})"
                          if v else "-")
        if c and rs and statistics.median(c) != 0:
            ratio = f"{statistics.median(rs) / statistics.median(c):.3f}"
            lo, hi = ratio_ci(rs, c)
            ci = f"{lo:.3f}-{hi:.3f}"
            p = f"{mannwhitneyu(rs, c, alternative='two-sided').pvalue:.3f}" if min(len(c), len(rs)) > 1 else "-"
        else:
            ratio, ci, p = "-", "-", "-"
        out.append(f"| {name} | {cell(c)} | {cell(rs)} | {ratio} | {ci} | {p} |")
    return out


def charts(d, vals, runs):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    made = []
    tput = [m for m in ("tcp-tx-mbps", "tcp-rx-mbps", "bidir-tx-mbps", "bidir-rx-mbps",
                        "pair-tx-mbps", "pair-rx-mbps", "wire-tcp-tx-mbps", "wire-tcp-rx-mbps")
            if m in vals]
    if tput:
        fig, axes = plt.subplots(1, len(tput), figsize=(3 * len(tput), 3.2), squeeze=False)
        for ax, m in zip(axes[0], tput):
            for drv, mk in (("e100", "o"), ("e100_rs", "s")):
                v = vals[m].get(drv, [])
                ax.plot(range(1, len(v) + 1), v, marker=mk, label=drv)
            ax.set_title(m, fontsize=9)
            ax.set_xlabel("round")
            ax.set_ylim(bottom=0)
        axes[0][0].set_ylabel("Mbit/s")
        axes[0][0].legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(d, "throughput.png"), dpi=90)
        made.append("throughput.png")
    if runs:
        phases = [p for p in runs.get("e100_rs", [{}])[0].get("phases", {}) if not p.startswith("idle")]
        fig, ax = plt.subplots(figsize=(8, 3.5))
        width = 0.38
        for k, drv in enumerate(("e100", "e100_rs")):
            if drv not in runs:
                continue
            bottom = [0.0] * len(phases)
            for g, label in GROUPS[:4]:
                # A phase some run lacks (a folder of runs from before it was added) counts
                # from the runs that have it.
                v = [statistics.median([r["phases"][p]["per_packet"].get(g) or 0
                                        for r in runs[drv] if p in r["phases"]] or [0])
                     for p in phases]
                if not any(v):
                    continue
                ax.bar([i + (k - 0.5) * width for i in range(len(phases))], v, width,
                       bottom=bottom, label=f"{drv}: {label}")
                bottom = [b + x for b, x in zip(bottom, v)]
        ax.set_xticks(range(len(phases)))
        ax.set_xticklabels(phases, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("instructions per packet")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(d, "instructions.png"), dpi=90)
        made.append("instructions.png")
    return made


def mmio_of(run, phase, key):
    """A run's MMIO reads or writes ("reads", "writes") per packet in a phase, or None."""
    m = run["phases"].get(phase, {}).get("mmio_accesses")
    return m[key + "_per_packet"] if m else None


def mmio_table(runs, phases):
    """MMIO reads and writes per packet per phase (insns.py's `mmio_accesses`), the median of
    each driver's runs that counted them; a run that did not is said, loudly, not shown as 0."""
    out = ["### Register accesses per packet (insncount plugin, exact counts)\n"]
    counted, bars = {}, set()
    for drv in ("e100", "e100_rs"):
        counted[drv] = []
        for k, r in enumerate(runs.get(drv, []), 1):
            err = r.get("mmio_error", "counts made before the plugin counted register accesses")
            if err:
                out.append(f"**No MMIO accesses counted for {drv}, run {k}**: {err}. "
                           "Its register figures are left out.\n")
            else:
                counted[drv].append(r)
                bars.add(f"{'-'.join(r['bar0'])} ({', '.join(r['bar0_device'])})")
    if not counted["e100"] and not counted["e100_rs"]:
        return out + [""]
    out.append("Loads and stores to the NIC's BAR 0 (the 4 KiB CSR), each counted by the plugin "
               "as QEMU hands it to the device, whichever code made it (only the driver does), "
               "per packet of the phase (idle: per second), in a boot of their own beside each "
               "instruction-count boot (the plugin's memory callbacks slow the guest); the "
               "median of the runs that counted them. Port I/O (x86 in/out, BAR 1) is not "
               f"seen by the plugin; both drivers use BAR 0. BAR 0: {'; '.join(sorted(bars))}.\n")
    out.append("| phase | counted | e100 | e100_rs | e100_rs / e100 | apart (e100, e100_rs) |")
    out.append("|---|---|---:|---:|---:|---|")
    for ph in phases:
        unit = "second" if ph.startswith("idle") else "packet"
        for key, label in (("reads", "MMIO reads"), ("writes", "MMIO writes")):
            vals = {drv: [x for x in (mmio_of(r, ph, key) for r in counted[drv])
                          if x is not None] for drv in counted}
            med = {drv: statistics.median(v) if v else None for drv, v in vals.items()}
            c, rs = med["e100"], med["e100_rs"]
            ratio = f"{rs / c:.2f}" if c and rs is not None else "-"
            fmt = lambda x: f"{x:,.2f}" if x is not None else "not counted"
            gap = ", ".join(apart(vals[k]) for k in ("e100", "e100_rs"))
            out.append(f"| {ph} | {label}/{unit} | {fmt(c)} | {fmt(rs)} | {ratio} | {gap} |")
    out.append("")
    return out


def kernel_differences(runs, phases, n=12):
    """Per phase, the `n` kernel symbols whose per-packet counts differ most between the
    drivers' first runs (from insns.py's `kernel_syms`; none for counts made before it)."""
    out = []
    if "e100" not in runs or "e100_rs" not in runs:
        return out
    for ph in phases:
        a = runs["e100"][0]["phases"].get(ph, {}).get("kernel_syms")
        b = runs["e100_rs"][0]["phases"].get(ph, {}).get("kernel_syms")
        if a is None or b is None or ph.startswith("idle"):
            continue
        names = set(a) | set(b)
        top = sorted(names, key=lambda s: (-abs(b.get(s, 0) - a.get(s, 0)), s))[:n]
        nice = demangle(top)
        total = sum(b.values()) - sum(a.values())
        short = lambda x: x if len(x) <= 48 else "…" + x[-47:]
        out.append(f"- **{ph}** (every symbol that ran once a packet, summed: {total:+,.0f}): "
                   + ", ".join(f"`{short(nice[s])}` {b.get(s, 0) - a.get(s, 0):+,.0f}"
                               for s in top))
    return out


def main():
    d = sys.argv[1]
    out = []
    cmds = open(os.path.join(d, "command")).read().split("\n") if os.path.exists(
        os.path.join(d, "command")) else ["?"]
    out.append("Produced by " + ", then ".join(f"`{c.strip()}`" for c in cmds if c.strip())
               + " (the repository's commit is in the folder's git history).\n")
    runs = load_counts(d)
    if runs:
        nruns = min(len(v) for v in runs.values())
        out.append("### Instructions per packet (insncount plugin, exact counts)\n")
        out.append(f"Median of {nruns} runs per driver; 'apart' is the largest difference "
                   "between runs in percent (in instructions a packet for a row under one). "
                   "The driver module is e100_rs.ko, or e100.ko + mii.ko; register accessor calls are the kernel's out-of-line "
                   "`ioread*`/`iowrite*` the driver calls for its register accesses (e100.c's; "
                   "e100_rs's are inlined into its module; counts made before that row existed "
                   "have neither it nor the sum after it, and count e100.c's accessors under the "
                   "whole kernel only); the whole kernel includes all of these. Each row is "
                   "rounded on its own, so a sum may differ by one from its rounded parts.\n")
        out.append("| phase | counted | e100 | e100_rs | e100_rs / e100 | apart (e100, e100_rs) |")
        out.append("|---|---|---:|---:|---:|---|")
        phases = list(runs.get("e100_rs", runs.get("e100"))[0]["phases"])
        for ph in phases:
            for g, label in GROUPS:
                vals = {}
                for drv in ("e100", "e100_rs"):
                    v = [r["phases"][ph]["per_packet"][g] for r in runs.get(drv, [])
                         if ph in r["phases"]
                         and r["phases"][ph]["per_packet"].get(g) is not None]
                    vals[drv] = v
                if g in ("helpers", "kcrate") and not any(vals["e100_rs"]):
                    continue
                if g == "mmio" and not any(vals["e100"]) and not any(vals["e100_rs"]):
                    continue
                c = statistics.median(vals["e100"]) if vals["e100"] else None
                rs = statistics.median(vals["e100_rs"]) if vals["e100_rs"] else None
                ratio = f"{rs / c:.2f}" if c and rs else "-"
                gap = ", ".join(apart(vals[k]) for k in ("e100", "e100_rs"))
                fmt = lambda x: f"{x:,.0f}" if x is not None else "-"
                out.append(f"| {ph} | {label} | {fmt(c)} | {fmt(rs)} | {ratio} | {gap} |")
                if g == "mmio":
                    # The driver's own work: its module, the Rust code and helpers it calls,
                    # and the register accessors it calls, per run, then the median.
                    own = {}
                    for drv in ("e100", "e100_rs"):
                        own[drv] = [sum(r["phases"][ph]["per_packet"].get(k) or 0
                                        for k in ("driver", "helpers", "kcrate", "mmio"))
                                    for r in runs.get(drv, []) if ph in r["phases"]
                                    and r["phases"][ph]["per_packet"].get("driver") is not None]
                    c = statistics.median(own["e100"]) if own["e100"] else None
                    rs = statistics.median(own["e100_rs"]) if own["e100_rs"] else None
                    ratio = f"{rs / c:.2f}" if c and rs else "-"
                    gap = ", ".join(apart(own[k]) for k in ("e100", "e100_rs"))
                    out.append(f"| {ph} | **the driver's, in all** (module, helpers, kernel's "
                               f"Rust code, accessor calls; each run summed, then the median) | "
                               f"{fmt(c)} | {fmt(rs)} | {ratio} | {gap} |")
        out.append("")
        out.extend(mmio_table(runs, phases))
        for drv in ("e100", "e100_rs"):
            if drv not in runs:
                continue
            out.append(f"### Top symbols, {drv} (run 1, instructions per packet)\n")
            for ph, r in runs[drv][0]["phases"].items():
                top = ", ".join(f"`{t['symbol'][:70]}` {t['per_packet']:,.0f}"
                                for t in r["top"][:6])
                out.append(f"- **{ph}** ({r['packets']} {r.get('unit', 'packet')}s, {r['irq']} interrupts): {top}")
            out.append("")
        diffs = kernel_differences(runs, phases)
        if diffs:
            out.append("### Where the whole kernel differs (run 1, instructions per packet)\n")
            out.append("The kernel symbols whose counts differ most between the drivers "
                       "(e100_rs minus e100; symbols that ran at least once a packet with "
                       "either): the drivers' own code and what each makes the rest of the "
                       "kernel do (GRO or not, BQL, locks, allocations).\n")
            out.extend(diffs)
            out.append("")
        out.append("### Top symbols of the whole kernel (run 1, instructions per packet)\n")
        out.append("What the rest of the kernel does per packet with each driver (allocations, "
                   "the memset of receive buffers, GRO or not, the stack).\n")
        for ph in phases:
            for drv in ("e100", "e100_rs"):
                if drv in runs and ph in runs[drv][0]["phases"]:
                    kt = runs[drv][0]["phases"][ph].get("kernel_top", [])[:8]
                    out.append(f"- **{ph}**, {drv}: " + ", ".join(
                        f"`{t['symbol'][:40]}` {t['per_packet']:,.0f}" for t in kt))
        out.append("")
    vals, errors = load_wall(d)
    if vals:
        out.append("### Wall-clock rounds\n")
        out.append("Each round boots each driver once (e100_rs, then e100), same QEMU and pinning. "
                   "QEMU is not rate limited: these figures measure emulation plus driver cost, "
                   "on this machine.\n")
        out.extend(wall_table(vals))
        out.append("")
    if errors:
        out.append("Errors reported by the guests:\n")
        out.extend(f"- {e}" for e in errors)
        out.append("")
    for png in charts(d, vals, runs):
        out.append(f"![{png}]({png})\n")
    if runs:
        mem = {drv: [r.get("memory_up_kb") for r in runs[drv] if r.get("memory_up_kb") is not None]
               for drv in runs}
        if any(mem.values()):
            out.append("### Memory taken by bringing the interface up\n")
            out.append("MemFree before and after `ip link set up` (caches dropped), per counting "
                       "boot: the rings, the receive buffers and the coherent blocks, with "
                       "the page allocator's granularity.\n")
            for drv in ("e100", "e100_rs"):
                if mem.get(drv):
                    out.append(f"- {drv}: " + ", ".join(f"{v} kB" for v in mem[drv]))
            out.append("")
    sz = os.path.join(d, "sizes.txt")
    if os.path.exists(sz):
        out.append("### Module sizes (`size`)\n")
        out.append("```")
        out.append(open(sz).read().strip())
        out.append("```")
    print("\n".join(out))


if __name__ == "__main__":
    main()
