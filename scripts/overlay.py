#!/usr/bin/env python3
"""Overlay the repo onto a 6.12 tree: our kernel-crate additions and the driver.

    scripts/overlay.py [--plain] REPO KERNEL-TREE

Three kinds of change:
  * files: every file under the repo's rust/ is copied to the same path under
    the kernel's rust/. Files are written only when their content differs, so
    unchanged files keep their mtime and make rebuilds stay incremental. A
    kernel file replaced this way is kept first (under .e100_rs-orig/ in the
    tree) and put back once the repo no longer has its replacement.
  * the driver: the repo's top-level .rs files and Kconfig, and its Kbuild as
    the directory's Makefile, go to drivers/net/ethernet/intel/e100_rs/ (the
    directory is ours: a file there that the repo no longer has is removed).
  * hooks: the few lines that register our files with the kernel's own files
    (module declarations in lib.rs, helper includes, bindgen headers, the
    driver's Kconfig and directory). Each hook is a marked block, replaced in
    place on every run, so the script is idempotent and a removed hook line
    disappears from the tree.

With --plain, the hooks are written without their marker comments, as a patch
for maintainers has them, plus the hooks only the patch series needs (the
driver's MAINTAINERS entry: series_hooks()). That is only possible once, on a
pristine tree: a tree with markers or with the driver's directory is refused.
scripts/patch-series.sh compares pristine + its series with pristine + this.
"""
import os
import pathlib
import subprocess
import sys

BEGIN = "e100_rs overlay: begin"
END = "e100_rs overlay: end"

# Where the driver goes in the tree.
DRIVER_DIR = "drivers/net/ethernet/intel/e100_rs"

# (file under the tree's root, comment leader, anchor line the block goes after or
# None for end of file, block lines)
HOOKS = [
    ("drivers/net/ethernet/intel/Kconfig", "#", "\t  will be called e100.", [
        "",
        'source "drivers/net/ethernet/intel/e100_rs/Kconfig"',
    ]),
    ("drivers/net/ethernet/intel/Makefile", "#", "obj-$(CONFIG_E100) += e100.o", [
        "obj-$(CONFIG_E100_RS) += e100_rs/",
    ]),
    ("rust/kernel/lib.rs", "//", "pub mod workqueue;", [
        "pub mod delay;",
        "pub mod dev_printk;",
        "pub mod devres;",
        "pub mod dma;",
        "pub mod dmi;",
        "pub mod init_ext;",
        "pub mod io;",
        "pub mod irq;",
        "pub mod module_param;",
        "#[cfg(CONFIG_PCI)]",
        "pub mod pci;",
        "pub mod revocable;",
        "pub mod transmute;",
        "pub mod vec_ext;",
    ]),
    ("rust/kernel/error.rs", "//", '    declare_err!(ENOTSUPP, "Operation is not supported.");', [
        '    declare_err!(EOPNOTSUPP, "Operation not supported on transport endpoint.");',
        '    declare_err!(EADDRNOTAVAIL, "Cannot assign requested address.");',
        '    declare_err!(ETIMEDOUT, "Connection timed out.");',
        '    declare_err!(ENOLINK, "Link has been severed.");',
    ]),
    ("rust/kernel/sync.rs", "//", None, [
        "pub mod bh;",
        "pub mod completion;",
        "pub mod rcu;",
        "pub mod spinlock_irq;",
        "pub use completion::Completion;",
        "pub use spinlock_irq::{new_spinlock_irq, SpinLockIrq};",
    ]),
    ("rust/kernel/net.rs", "//", None, [
        "pub mod dev;",
        "pub mod ethtool;",
        "pub mod napi;",
        "pub mod skbuff;",
    ]),
    ("rust/helpers/helpers.c", "//", None, [
        '#include "completion.c"',
        '#include "delay.c"',
        '#include "dma.c"',
        '#include "io.c"',
        '#include "netdevice.c"',
        '#include "pci.c"',
        '#include "rcu.c"',
        '#include "spinlock_irq.c"',
        '#include "warn.c"',
    ]),
    ("rust/bindings/bindings_helper.h", "/*", None, [
        "#include <linux/completion.h>",
        "#include <linux/delay.h>",
        "#include <linux/dma-mapping.h>",
        "#include <linux/dmi.h>",
        "#include <linux/interrupt.h>",
        "#include <linux/workqueue.h>",
        "#include <linux/etherdevice.h>",
        "#include <linux/ethtool.h>",
        "#include <linux/io.h>",
        "#include <linux/mii.h>",
        "#include <linux/moduleparam.h>",
        "#include <linux/netdevice.h>",
        "#include <linux/pci.h>",
        "#include <linux/rtnetlink.h>",
        "#include <linux/skbuff.h>",
    ]),
]


def maintainer(repo: pathlib.Path) -> str:
    """The driver's maintainer: the repo's commit identity (as the series' author)."""
    try:
        out = subprocess.run(["git", "-C", str(repo), "log", "-1", "--format=%an <%ae>"],
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        out = ""
    if not out:
        sys.exit(f"overlay: no commit identity in {repo} (git log) for the MAINTAINERS entry")
    return out


def series_hooks(repo: pathlib.Path) -> list:
    """Hooks only the patch series has (--plain): nothing the build needs."""
    return [
        # After INTEL PMT DRIVERS, before INTEL PRO/WIRELESS (sections are sorted).
        ("MAINTAINERS", "#", "F:\tdrivers/platform/x86/intel/pmt/", [
            "",
            "INTEL PRO/100 ETHERNET DRIVER IN RUST (E100_RS)",
            f"M:\t{maintainer(repo)}",
            "L:\tnetdev@vger.kernel.org",
            "L:\trust-for-linux@vger.kernel.org",
            "S:\tMaintained",
            f"F:\t{DRIVER_DIR}/",
        ]),
    ]


def plain_insert(data: bytes, anchor, lines) -> bytes:
    """`data` (a pristine file) with `lines` after the line `anchor` (None: at the end), as
    --plain writes them: no markers, every other byte as it was. No lines: `data` itself."""
    if not lines:
        return data
    if not data.endswith(b"\n"):
        data += b"\n"
    src = data[:-1].split(b"\n")
    if anchor is None:
        at = len(src)
    else:
        a = anchor.encode()
        if src.count(a) != 1:
            sys.exit(f"overlay: anchor {anchor!r} found {src.count(a)} times, not once")
        at = src.index(a) + 1
    src[at:at] = [line.encode() for line in lines]
    return b"\n".join(src) + b"\n"


def write_if_changed(path: pathlib.Path, data: bytes) -> bool:
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".e100_rs-tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def marker(leader: str, text: str) -> str:
    return f"/* {text} */" if leader == "/*" else f"{leader} {text}"


def apply_hook(root: pathlib.Path, rel, leader, anchor, lines) -> bool:
    path = root / rel
    src = path.read_text().splitlines()
    b, e = marker(leader, BEGIN), marker(leader, END)
    if b in src:
        i, j = src.index(b), src.index(e)
        del src[i:j + 1]
        at = i
    elif anchor is None:
        at = len(src)
    else:
        if anchor not in src:
            sys.exit(f"overlay: anchor {anchor!r} not found in {path}")
        at = src.index(anchor) + 1
    src[at:at] = [b, *lines, e]
    return write_if_changed(path, ("\n".join(src) + "\n").encode())


def rust_files(repo: pathlib.Path) -> list:
    """The files copied into the tree's rust/: (file in the repo, path under rust/)."""
    ours = repo / "rust"
    return [(f, f.relative_to(ours)) for f in sorted(ours.rglob("*"))
            if f.is_file() and not f.name.endswith((".md", "~"))]


# Where the tree's own versions of the files the overlay replaced are kept.
ORIG_DIR = ".e100_rs-orig"

# Files the overlay replaced before it kept the originals: put back from the kernel
# tarball (E100_RS_KTARBALL, as scripts/common.sh sets it) once, in a tree that still has ours.
RETIRED = {"kernel/sync/lock/spinlock.rs": b"raw_lock("}


def restore_retired(tree: pathlib.Path, ours: set) -> list:
    """The tree's own rust/ files back where the repo no longer replaces them."""
    restored = []
    orig = tree / ORIG_DIR
    for f in sorted(orig.rglob("*")) if orig.is_dir() else []:
        rel = f.relative_to(orig)
        if f.is_file() and rel not in ours:
            write_if_changed(tree / "rust" / rel, f.read_bytes())
            f.unlink()
            restored.append(f"rust/{rel} (kernel's own, back)")
    tarball = os.environ.get("E100_RS_KTARBALL", "/usr/src/linux-source-6.12.tar.xz")
    for rel, mark in RETIRED.items():
        path = tree / "rust" / rel
        if pathlib.Path(rel) in ours or not path.is_file() or mark not in path.read_bytes():
            continue
        top = subprocess.run(["tar", "-tJf", tarball], capture_output=True, check=True,
                             text=True).stdout.split("\n", 1)[0].split("/")[0]
        data = subprocess.run(["tar", "-xJOf", tarball, f"{top}/rust/{rel}"],
                              capture_output=True, check=True).stdout
        write_if_changed(path, data)
        restored.append(f"rust/{rel} (kernel's own, from {pathlib.Path(tarball).name})")
    return restored


def driver_files(repo: pathlib.Path) -> dict:
    """The driver directory's files: name in the tree -> file in the repo."""
    files = {f.name: f for f in sorted(repo.glob("*.rs"))}
    files["Kconfig"] = repo / "Kconfig"
    files["Makefile"] = repo / "Kbuild"
    return files


def check_pristine(tree: pathlib.Path, hooks) -> None:
    """--plain writes hook lines without markers, so it cannot find them again: it runs
    only on a tree nothing was overlaid on."""
    for rel, leader, _, _ in hooks:
        text = (tree / rel).read_bytes()
        if marker(leader, BEGIN).encode() in text:
            sys.exit(f"overlay: --plain needs a pristine tree; {tree / rel} has overlay markers")
    if (tree / DRIVER_DIR).exists():
        sys.exit(f"overlay: --plain needs a pristine tree; {tree / DRIVER_DIR} exists")


def main() -> None:
    args = sys.argv[1:]
    plain = bool(args) and args[0] == "--plain"
    if plain:
        args = args[1:]
    if len(args) != 2:
        sys.exit("usage: overlay.py [--plain] REPO KERNEL-TREE")
    repo, tree = (pathlib.Path(p) for p in args)
    if not (tree / "rust" / "kernel" / "lib.rs").is_file():
        sys.exit(f"overlay: {tree} is not a kernel tree with Rust support")
    if plain:
        hooks = HOOKS + series_hooks(repo)
        check_pristine(tree, hooks)
    changed = []
    ours = rust_files(repo)
    # The originals can only be kept from a tree nothing was overlaid on yet.
    fresh = marker("//", BEGIN).encode() not in (tree / "rust/kernel/lib.rs").read_bytes()
    for f, rel in ours:
        dest, keep = tree / "rust" / rel, tree / ORIG_DIR / rel
        if fresh and not plain and dest.is_file() and not keep.exists():
            keep.parent.mkdir(parents=True, exist_ok=True)
            keep.write_bytes(dest.read_bytes())
        if write_if_changed(dest, f.read_bytes()):
            changed.append(f"rust/{rel}")
    if not plain:
        changed += restore_retired(tree, {rel for _, rel in ours})
    ddir = tree / DRIVER_DIR
    files = driver_files(repo)
    for name, f in files.items():
        if write_if_changed(ddir / name, f.read_bytes()):
            changed.append(f"{DRIVER_DIR}/{name}")
    for f in sorted(ddir.iterdir()):
        # Only sources: the build's own files (objects, .cmd files) stay.
        if f.is_file() and f.name not in files and (f.suffix == ".rs" or f.name in ("Kconfig", "Makefile", "Kbuild")):
            f.unlink()
            changed.append(f"{DRIVER_DIR}/{f.name} (removed)")
    if plain:
        for rel, _, anchor, lines in hooks:
            path = tree / rel
            if write_if_changed(path, plain_insert(path.read_bytes(), anchor, lines)):
                changed.append(rel + " (hook, plain)")
    else:
        for hook in HOOKS:
            if apply_hook(tree, *hook):
                changed.append(hook[0] + " (hook)")
    print("[overlay] " + (", ".join(changed) if changed else "tree up to date"))


if __name__ == "__main__":
    main()
