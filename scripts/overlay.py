#!/usr/bin/env python3
"""Overlay the repo's rust/ tree (our kernel-crate additions) onto a 6.12 tree.

Two kinds of change:
  * files: every file under the repo's rust/ is copied to the same path under
    the kernel's rust/. Files are written only when their content differs, so
    unchanged files keep their mtime and make rebuilds stay incremental.
  * hooks: the few lines that register our files with the kernel's own files
    (module declarations in lib.rs, helper includes, bindgen headers). Each hook
    is a marked block, replaced in place on every run, so the script is
    idempotent and a removed hook line disappears from the tree.
"""
import pathlib
import sys

BEGIN = "e100_rs overlay: begin"
END = "e100_rs overlay: end"

# (file under rust/, comment leader, anchor line the block goes after or None
# for end of file, block lines)
HOOKS = [
    ("kernel/lib.rs", "//", "pub mod workqueue;", [
        "pub mod cpu;",
        "pub mod delay;",
        "pub mod dev_printk;",
        "pub mod devres;",
        "pub mod dma;",
        "pub mod init_ext;",
        "pub mod io;",
        "pub mod irq;",
        "pub mod module_param;",
        "#[cfg(CONFIG_PCI)]",
        "pub mod pci;",
        "pub mod revocable;",
        "pub mod transmute;",
    ]),
    ("kernel/error.rs", "//", '    declare_err!(ENOTSUPP, "Operation is not supported.");', [
        '    declare_err!(EOPNOTSUPP, "Operation not supported on transport endpoint.");',
        '    declare_err!(EADDRNOTAVAIL, "Cannot assign requested address.");',
        '    declare_err!(ETIMEDOUT, "Connection timed out.");',
        '    declare_err!(ENOLINK, "Link has been severed.");',
    ]),
    ("kernel/sync.rs", "//", None, [
        "pub mod bh;",
        "pub mod completion;",
        "pub mod rcu;",
        "pub mod spinlock_irq;",
        "pub use completion::Completion;",
        "pub use spinlock_irq::{new_spinlock_irq, SpinLockIrq};",
    ]),
    ("kernel/net.rs", "//", None, [
        "pub mod dev;",
        "pub mod ethtool;",
        "pub mod napi;",
        "pub mod skbuff;",
    ]),
    ("helpers/helpers.c", "//", None, [
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
    ("bindings/bindings_helper.h", "/*", None, [
        "#include <linux/completion.h>",
        "#include <linux/delay.h>",
        "#include <linux/dma-mapping.h>",
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


def write_if_changed(path: pathlib.Path, data: bytes) -> bool:
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".e100_rs-tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return True


def marker(leader: str, text: str) -> str:
    return f"/* {text} */" if leader == "/*" else f"// {text}"


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


def main() -> None:
    ours, theirs = (pathlib.Path(p) for p in sys.argv[1:3])
    changed = []
    for f in sorted(ours.rglob("*")):
        if not f.is_file() or f.name.endswith((".md", "~")):
            continue
        rel = f.relative_to(ours)
        if write_if_changed(theirs / rel, f.read_bytes()):
            changed.append(str(rel))
    for hook in HOOKS:
        if apply_hook(theirs, *hook):
            changed.append(hook[0] + " (hook)")
    print("[overlay] " + (", ".join(changed) if changed else "tree up to date"))


if __name__ == "__main__":
    main()
