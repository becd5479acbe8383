#!/usr/bin/env python3
"""The patch series: the overlay as `git format-patch` mails against the pristine 6.12 tree.

Called by scripts/patch-series.sh, which unpacks the pristine tree and documents the modes:

    patch-series.py generate REPO PRISTINE GITDIR OUTDIR
    patch-series.py check REPO PRISTINE WORKDIR OUTDIR
    patch-series.py paths OUTDIR          (the paths the written patches touch, one a line)

The series is defined in patches/series/: one file per patch, in file-name order (NN-*.txt),
each a header (Subject:, File:, Hook:, Misuse: lines), a blank line and the commit message's
body; cover-letter.txt is the cover letter's subject and text. See patches/series/README.md.

`generate` fails when the definition and the overlay (scripts/overlay.py) disagree: a file the
overlay writes or a hook line it inserts that is in no patch, or in two; a name in the
definition that the overlay does not have; a module file whose declaration is in another patch;
a patch whose Rust code uses one of our modules, macros, helpers or error codes that only a
later patch adds; or a final state that differs from `overlay.py --plain` on the pristine files.
"""
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

WIDTH = 72  # commit message bodies are wrapped to this (checkpatch warns past 75)


def die(msg):
    sys.exit(f"[series] error: {msg}")


def log(msg):
    print(f"[series] {msg}", flush=True)


def run(cmd, cwd=None, env=None, check=True, capture=True, inp=None):
    r = subprocess.run(cmd, cwd=cwd, env=env, text=True, input=inp,
                       stdout=subprocess.PIPE if capture else None,
                       stderr=subprocess.STDOUT if capture else None)
    if check and r.returncode != 0:
        die(f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stdout or ''}")
    return r


def load_overlay(repo):
    spec = importlib.util.spec_from_file_location("overlay", repo / "scripts" / "overlay.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# --- the definition ------------------------------------------------------------------------

class Patch:
    def __init__(self, index, path):
        self.index = index  # 1-based position in the series
        self.path = path
        self.subject = None
        self.files = []  # repo-relative paths
        self.hooks = []  # (tree file, line text or "*")
        self.misuse = []  # tests/misuse snippet names
        self.body = ""


def parse_definition(path, index, errors):
    p = Patch(index, path)
    text = path.read_text(encoding="utf-8")
    head, sep, body = text.partition("\n\n")
    if not sep:
        errors.append(f"{path.name}: no blank line between the header and the message")
    for n, line in enumerate(head.splitlines(), 1):
        key, colon, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if not colon:
            errors.append(f"{path.name}:{n}: not a 'Key: value' header line: {line!r}")
        elif key == "Subject":
            p.subject = value.strip()
        elif key == "File":
            p.files.append(value.strip())
        elif key == "Hook":
            rel, colon2, line_text = value.partition(":")
            if not colon2:
                errors.append(f"{path.name}:{n}: Hook needs 'FILE: LINE' (or 'FILE: *')")
            p.hooks.append((rel.strip(), line_text.strip()))
        elif key == "Misuse":
            p.misuse += value.split()
        else:
            errors.append(f"{path.name}:{n}: unknown header {key!r} (Subject, File, Hook, Misuse)")
    if not p.subject:
        errors.append(f"{path.name}: no Subject")
    p.body = body.strip("\n")
    return p


def load_series(sdir, errors):
    defs = sorted(f for f in sdir.glob("*.txt") if re.match(r"\d+-", f.name))
    for f in sorted(sdir.iterdir()):
        if f not in defs and f.name not in ("cover-letter.txt", "README.md"):
            errors.append(f"{f.name}: neither a patch (NN-name.txt) nor cover-letter.txt")
    if not defs:
        die(f"no patch definitions (NN-*.txt) in {sdir}")
    return [parse_definition(f, i, errors) for i, f in enumerate(defs, 1)]


class Universe:
    """Everything the overlay writes: files and hook lines."""

    def __init__(self, ov, repo):
        self.files = {}  # repo-relative path -> tree-relative path
        for f, rel in ov.rust_files(repo):
            self.files[f"rust/{rel}"] = f"rust/{rel}"
        for name, f in ov.driver_files(repo).items():
            self.files[str(f.relative_to(repo))] = f"{ov.DRIVER_DIR}/{name}"
        self.hooks = list(ov.HOOKS) + list(ov.series_hooks(repo))
        self.hook_lines = {}  # (tree file, index in its hook) -> text
        seen = set()
        for h, (rel, _, _, lines) in enumerate(self.hooks):
            if rel in seen:
                die(f"two hooks for {rel}: the series cannot tell their lines apart")
            seen.add(rel)
            for i, line in enumerate(lines):
                self.hook_lines[(rel, i)] = line


def assign(series, uni, errors):
    """Which patch adds each file and hook line; every one exactly once."""
    owner_file, owner_hook = {}, {}
    hooks = {rel: lines for rel, _, _, lines in uni.hooks}
    for p in series:
        for f in p.files:
            if f not in uni.files:
                errors.append(f"{p.path.name}: File {f}: not a file scripts/overlay.py writes")
            elif f in owner_file:
                errors.append(f"{f} is in two patches: {series[owner_file[f] - 1].path.name} "
                              f"and {p.path.name}")
            else:
                owner_file[f] = p.index
        for rel, text in p.hooks:
            if rel not in hooks:
                errors.append(f"{p.path.name}: Hook {rel}: scripts/overlay.py has no hook there")
                continue
            if text == "*":
                idx = list(range(len(hooks[rel])))
            else:
                idx = [i for i, line in enumerate(hooks[rel]) if line.strip() == text]
                if len(idx) != 1:
                    errors.append(f"{p.path.name}: Hook {rel}: {text!r} matches {len(idx)} "
                                  f"lines of scripts/overlay.py's hook, not one")
                    continue
            for i in idx:
                if (rel, i) in owner_hook:
                    errors.append(f"hook line {rel}: {hooks[rel][i].strip()!r} is in two "
                                  f"patches: {series[owner_hook[(rel, i)] - 1].path.name} and "
                                  f"{p.path.name}")
                else:
                    owner_hook[(rel, i)] = p.index
    for f in uni.files:
        if f not in owner_file:
            errors.append(f"{f} is in no patch: add 'File: {f}' to one of patches/series/*.txt")
    for (rel, i), line in uni.hook_lines.items():
        if (rel, i) not in owner_hook:
            errors.append(f"hook line {rel}: {line.strip()!r} is in no patch: add "
                          f"'Hook: {rel}: {line.strip()}' to one of patches/series/*.txt")
    return owner_file, owner_hook


# --- static checks: what a prefix can compile ----------------------------------------------

DECL_FILES = {  # hook file -> (directory its declared modules live in, declaration pattern)
    "rust/kernel/lib.rs": ("rust/kernel", re.compile(r"^pub mod (\w+);$")),
    "rust/kernel/sync.rs": ("rust/kernel/sync", re.compile(r"^pub mod (\w+);$")),
    "rust/kernel/net.rs": ("rust/kernel/net", re.compile(r"^pub mod (\w+);$")),
    "rust/helpers/helpers.c": ("rust/helpers", re.compile(r'^#include "(\w+)\.c"$')),
}


def check_declarations(series, uni, owner_file, owner_hook, pristine, errors):
    """A new file is compiled only once its declaration (mod line, helper include) is in: both
    go in the same patch. An attribute line goes with the line it applies to, a `pub use X::`
    re-export no earlier than `pub mod X;`."""
    name = {p.index: p.path.name for p in series}
    declared = {}
    for (rel, i), line in uni.hook_lines.items():
        if (rel, i) not in owner_hook:
            continue
        line = line.strip()
        if rel in DECL_FILES:
            d, pat = DECL_FILES[rel]
            m = pat.match(line)
            if m:
                ext = ".c" if rel.endswith(".c") else ".rs"
                for cand in (f"{d}/{m.group(1)}{ext}", f"{d}/{m.group(1)}/mod.rs"):
                    if cand in uni.files:
                        declared[cand] = owner_hook[(rel, i)]
        if line.startswith("#[") and (rel, i + 1) in owner_hook:
            if owner_hook[(rel, i)] != owner_hook[(rel, i + 1)]:
                errors.append(f"{rel}: {line!r} and the line after it are in different patches")
        m = re.match(r"^pub use (\w+)::", line)
        if m:
            mods = [j for (r, j), t in uni.hook_lines.items()
                    if r == rel and t.strip() == f"pub mod {m.group(1)};"]
            for j in mods:
                if owner_hook[(rel, i)] < owner_hook[(rel, j)]:
                    errors.append(f"{rel}: {line!r} comes before 'pub mod {m.group(1)};'")
    for f, tree_rel in uni.files.items():
        if not tree_rel.startswith(("rust/kernel/", "rust/helpers/")):
            continue
        if f in declared:
            if declared[f] != owner_file[f]:
                errors.append(f"{f} is added by {name[owner_file[f]]} but declared by "
                              f"{name[declared[f]]}: they go in one patch")
        elif not (pristine / tree_rel).exists():
            errors.append(f"{f} is declared by no hook line: it would never be compiled")


def rust_code(text):
    """The lines of `text` that rustc compiles: code without comments, plus doctest code."""
    out, fence = [], False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(("///", "//!")):
            doc = s[3:].strip()
            if doc.startswith("```"):
                fence = not fence
            elif fence:
                out.append(doc[1:] if doc.startswith("#") else doc)
            continue
        fence = False
        if s.startswith("//"):
            continue
        # A trailing comment, unless the `//` is inside a string.
        m = re.search(r"\s//", line)
        if m and line[:m.start()].count('"') % 2 == 0:
            line = line[:m.start()]
        out.append(line)
    return "\n".join(out)


def expand_use(tree):
    """`a::{b, c::{d}}` -> ["a::b", "a::c::d"]."""
    tree = re.sub(r"\s+", "", tree)
    depth, i = 0, tree.find("{")
    if i < 0:
        return [tree]
    prefix, rest = tree[:i], tree[i + 1:]
    parts, cur = [], ""
    for ch in rest:
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    out = []
    for part in parts:
        if part:
            out += [prefix + x for x in expand_use(part)]
    return out


def check_dependencies(repo, series, uni, owner_file, owner_hook, errors):
    """Every patch's Rust code (doctests included) uses only our modules, macros, C helpers
    and error codes that it or an earlier patch adds."""
    units = {}  # key -> (patch, what)
    files_of = {}  # tree path -> repo path
    for f, tree_rel in uni.files.items():
        files_of[tree_rel] = f
    modpath = {}  # kernel-crate file -> its module path
    for tree_rel, f in files_of.items():
        m = re.match(r"rust/kernel/(.+)\.rs$", tree_rel)
        if m:
            mp = tuple(m.group(1).split("/"))
            modpath[f] = mp
            units[("mod",) + mp] = (owner_file[f], f)
    for f in files_of.values():
        if not f.endswith(".rs"):
            continue
        for name in re.findall(r"#\[macro_export\]\s*macro_rules!\s*(\w+)", (repo / f).read_text()):
            units[("mod", name)] = units[("macro", name)] = (owner_file[f], f)
    for f in files_of.values():
        if f.startswith("rust/helpers/") and f.endswith(".c"):
            for name in re.findall(r"\brust_helper_(\w+)\s*\(", (repo / f).read_text()):
                units[("helper", name)] = (owner_file[f], f)
    for (rel, i), line in uni.hook_lines.items():
        m = re.match(r"\s*declare_err!\((\w+),", line)
        if m and (rel, i) in owner_hook:
            units[("errno", m.group(1))] = (owner_hook[(rel, i)], f"{rel}: {m.group(1)}")
        m = re.match(r"pub use (\w+)::(?:\{(.*)\}|(\w+));", line.strip())
        if m and rel == "rust/kernel/sync.rs" and (rel, i) in owner_hook:
            for name in (m.group(2) or m.group(3)).split(","):
                units[("mod", "sync", name.strip())] = (owner_hook[(rel, i)], f"{rel}: {line}")
    path_re = re.compile(r"(?<![\w:])(\$crate|crate|kernel|super)((?:::\w+)+)")
    for p in series:
        for f in p.files:
            if not f.endswith(".rs"):
                continue
            code = rust_code((repo / f).read_text())
            in_kernel = f in modpath
            here = modpath.get(f, ())
            refs = set()
            paths = []
            for u in re.findall(r"\buse\s+([^;]+);", code):
                paths += expand_use(u)
            paths += [m.group(1) + m.group(2) for m in path_re.finditer(code)]
            for path in paths:
                seg = path.split("::")
                root, seg = seg[0], [s for s in seg[1:] if s]
                if root == "super":
                    if not in_kernel:
                        continue
                    seg = list(here[:-1]) + seg
                elif root in ("crate", "$crate"):
                    if not in_kernel:
                        continue
                elif root != "kernel":
                    continue
                for n in (2, 1):
                    if len(seg) >= n and ("mod",) + tuple(seg[:n]) in units:
                        refs.add(("mod",) + tuple(seg[:n]))
                        break
            for name in re.findall(r"\b(\w+)!", code):
                if ("macro", name) in units:
                    refs.add(("macro", name))
            for name in re.findall(r"\bbindings::(\w+)", code):
                if ("helper", name) in units:
                    refs.add(("helper", name))
            for key in [k for k in units if k[0] == "errno"]:
                if re.search(rf"\b{key[1]}\b", code):
                    refs.add(key)
            for key in sorted(refs):
                at, what = units[key]
                if at > p.index:
                    errors.append(f"{p.path.name}: {f} uses {'::'.join(key[1:])} ({what}), "
                                  f"which only the later {series[at - 1].path.name} adds")


# --- rendering -----------------------------------------------------------------------------

def wrap(body):
    """Paragraphs are re-wrapped to WIDTH; '- ' items get a hanging indent; lines that start
    with white space are kept as they are."""
    out = []
    for para in re.split(r"\n\s*\n", body.strip("\n")):
        lines = para.split("\n")
        if lines[0][:1] in (" ", "\t"):
            out.append(para)
            continue
        items, cur = [], []
        for line in lines:
            if line.startswith("- ") and cur:
                items.append(cur)
                cur = []
            cur.append(line.strip())
        items.append(cur)
        block = []
        for item in items:
            text = " ".join(item)
            hang = "  " if text.startswith("- ") else ""
            block.append(textwrap.fill(text, WIDTH, subsequent_indent=hang,
                                       break_long_words=False, break_on_hyphens=False))
        out.append("\n".join(block))
    return "\n\n".join(out)


def count_doctests(text):
    n, fence = 0, False
    for line in text.splitlines():
        m = re.match(r"\s*//[/!]\s?```(.*)$", line)
        if m:
            if not fence:
                tag = m.group(1).strip()
                if not any(t in tag for t in ("ignore", "text", "compile_fail", "no_run")):
                    n += 1
            fence = not fence
    return n


def plural(n, one, many):
    return f"no {one}" if n == 0 else f"one {one}" if n == 1 else f"{n} {many}"


def misuse_doc(repo, name):
    f = repo / "tests" / "misuse" / f"{name}.rs"
    lines = f.read_text().splitlines()
    desc = []
    for line in lines[1:]:
        if not line.startswith("//!") or not line[3:].strip():
            break
        desc.append(line[3:].strip())
    return " ".join(desc)


def counts(repo):
    """Test counts the messages cite, from the repo as it is."""
    return {
        "@TESTS@": str(manifest_count(repo)),
        "@HOST_TESTS@": str(sum(len(re.findall(r"#\[test\]", f.read_text()))
                                for f in (repo / "tests" / "host").rglob("*.rs")
                                if "target" not in f.parts)),
        "@MISUSE_COUNT@": str(len([f for f in (repo / "tests" / "misuse").glob("*.rs")
                                   if f.stem != "control"])),
    }


def render_body(repo, p, errors):
    body = p.body
    rs = [repo / f for f in p.files if f.endswith(".rs")]
    n = sum(count_doctests(f.read_text()) for f in rs)
    body = body.replace("@DOCTESTS@", plural(n, "doctest", "doctests"))
    for k, v in counts(repo).items():
        body = body.replace(k, v)
    if "@MISUSE@" in body:
        items = []
        for name in p.misuse:
            if not (repo / "tests" / "misuse" / f"{name}.rs").is_file():
                errors.append(f"{p.path.name}: Misuse {name}: no tests/misuse/{name}.rs")
                continue
            items.append(f"- {name}: {misuse_doc(repo, name)}")
        body = body.replace("@MISUSE@", "\n".join(items))
    elif p.misuse:
        errors.append(f"{p.path.name}: Misuse given but the message has no @MISUSE@")
    left = re.findall(r"@[A-Z_]+@", body)
    if left:
        errors.append(f"{p.path.name}: unknown placeholders {left}")
    return wrap(body)


def identity(repo):
    name = run(["git", "-C", str(repo), "log", "-1", "--format=%an"]).stdout.strip()
    email = run(["git", "-C", str(repo), "log", "-1", "--format=%ae"]).stdout.strip()
    date = run(["git", "-C", str(repo), "log", "-1", "--format=%cI"]).stdout.strip()
    return name, email, date


def base_version(pristine):
    mk = (pristine / "Makefile").read_text()
    v = [re.search(rf"^{k} = (\S*)", mk, re.M) for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL")]
    ver = ".".join(m.group(1) for m in v if m)
    deb = run(["dpkg-query", "-W", "-f=${Version}", "linux-source-6.12"], check=False).stdout
    deb = deb.strip() if deb and "no packages" not in deb else ""
    return ver, deb


# --- generate --------------------------------------------------------------------------------

def states(repo, pristine, ov, uni, owner_file, owner_hook, n):
    """The content of every path the series touches after patches 1..k, for k = 0..n (None:
    the file does not exist)."""
    paths = sorted(set(uni.files.values()) | {h[0] for h in uni.hooks})

    def pristine_bytes(rel):
        f = pristine / rel
        return f.read_bytes() if f.is_file() else None

    base = {rel: pristine_bytes(rel) for rel in paths}
    for rel, _, _, _ in uni.hooks:
        if base[rel] is None:
            die(f"hook file {rel} is not in the pristine tree")
    out = []
    for k in range(n + 1):
        st = dict(base)
        for f, tree_rel in uni.files.items():
            if owner_file[f] <= k:
                st[tree_rel] = (repo / f).read_bytes()
        for rel, _, anchor, lines in uni.hooks:
            sel = [line for i, line in enumerate(lines) if owner_hook[(rel, i)] <= k]
            st[rel] = ov.plain_insert(base[rel], anchor, sel)
        out.append(st)
    return out


def write_state(root, st):
    for rel, data in st.items():
        f = root / rel
        if data is None:
            if f.exists():
                f.unlink()
        else:
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_bytes(data)


def check_overlay_plain(repo, pristine, st_final, tmp):
    """`overlay.py --plain` on the pristine versions of the series' files must give the
    series' final state, file for file."""
    shutil.rmtree(tmp, ignore_errors=True)
    for rel, _ in st_final.items():
        src = pristine / rel
        if src.is_file():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, tmp / rel)
    r = run([sys.executable, str(repo / "scripts" / "overlay.py"), "--plain", str(repo),
             str(tmp)], check=False)
    if r.returncode != 0:
        die(f"overlay.py --plain failed:\n{r.stdout}")
    got = {str(f.relative_to(tmp)): f.read_bytes() for f in tmp.rglob("*") if f.is_file()}
    want = {rel: data for rel, data in st_final.items() if data is not None}
    bad = sorted(rel for rel in set(got) | set(want) if got.get(rel) != want.get(rel))
    shutil.rmtree(tmp, ignore_errors=True)
    if bad:
        die("the series does not reproduce overlay.py --plain; differing files: " +
            ", ".join(bad))


def generate(repo, pristine, gitdir, outdir):
    ov = load_overlay(repo)
    errors = []
    series = load_series(repo / "patches" / "series", errors)
    uni = Universe(ov, repo)
    owner_file, owner_hook = assign(series, uni, errors)
    if not errors:
        check_declarations(series, uni, owner_file, owner_hook, pristine, errors)
        check_dependencies(repo, series, uni, owner_file, owner_hook, errors)
    bodies = [render_body(repo, p, errors) for p in series]
    misuse_all = sorted(f.stem for f in (repo / "tests" / "misuse").glob("*.rs")
                        if f.stem != "control")
    listed = [m for p in series for m in p.misuse]
    if errors:
        die("the series definition (patches/series/) does not match the overlay:\n  " +
            "\n  ".join(errors))
    for m in misuse_all:
        if m not in listed:
            log(f"note: tests/misuse/{m}.rs is cited by no patch (Misuse: lines)")

    name, email, date = identity(repo)
    sts = states(repo, pristine, ov, uni, owner_file, owner_hook, len(series))
    check_overlay_plain(repo, pristine, sts[-1], gitdir.parent / "series-overlay-sparse")

    # A scratch repository holding only the files the series touches: their pristine
    # versions, then one commit per patch. The diffs are those against the whole tree.
    shutil.rmtree(gitdir, ignore_errors=True)
    gitdir.mkdir(parents=True)
    env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email,
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date,
               GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    g = ["git", "-C", str(gitdir)]
    run(g + ["init", "-q", "-b", "series"], env=env)
    write_state(gitdir, sts[0])
    ver, deb = base_version(pristine)
    run(g + ["add", "-A"], env=env)
    run(g + ["commit", "-q", "--allow-empty", "-m",
             f"Linux {ver} (Debian linux-source-6.12 {deb}): the files the series touches"],
        env=env)
    base = run(g + ["rev-parse", "HEAD"]).stdout.strip()
    for p, body, st in zip(series, bodies, sts[1:]):
        write_state(gitdir, st)
        run(g + ["add", "-A"], env=env)
        msg = f"{p.subject}\n\n{body}\n\nSigned-off-by: {name} <{email}>\n"
        r = run(g + ["commit", "-q", "-F", "-"], env=env, inp=msg, check=False)
        if r.returncode != 0:
            die(f"{p.path.name}: commit failed (does the patch change anything?):\n{r.stdout}")

    outdir.mkdir(parents=True, exist_ok=True)
    for f in outdir.glob("[0-9][0-9][0-9][0-9]-*.patch"):
        f.unlink()
    prefix = os.environ.get("E100_RS_SERIES_PREFIX", "PATCH")
    run(g + ["format-patch", "-q", "--cover-letter", "--numbered", f"--subject-prefix={prefix}",
             "-o", str(outdir), f"{base}..HEAD"], env=env)
    cover = sorted(outdir.glob("0000-*.patch"))[0]
    write_cover(repo, pristine, cover, series, ver, deb)
    out = sorted(outdir.glob("[0-9][0-9][0-9][0-9]-*.patch"))
    log(f"{len(out) - 1} patches and a cover letter in {outdir}")
    for f in out:
        print(f"  {f.name}")


def manifest_count(repo):
    """How many tests a full run of scripts/test.sh reports (two drivers: e100 and e100_rs)."""
    n = 0
    for line in (repo / "tests" / "manifest.txt").read_text().splitlines():
        f = line.split()
        if len(f) >= 3 and not line.startswith("#"):
            n += 2 if f[1] == "all" else 1
    return n


def write_cover(repo, pristine, cover, series, ver, deb):
    tpl = (repo / "patches" / "series" / "cover-letter.txt").read_text(encoding="utf-8")
    head, _, body = tpl.partition("\n\n")
    subject = head.partition("Subject:")[2].strip()
    sha = run(["git", "-C", str(repo), "rev-parse", "--short=12", "HEAD"]).stdout.strip()
    dirty = run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"]
                ).stdout.strip()
    doctests = sum(count_doctests((repo / f).read_text()) for p in series for f in p.files
                   if f.startswith("rust/") and f.endswith(".rs"))
    result = os.environ.get("E100_RS_SERIES_RESULT", "").strip()
    subs = dict(counts(repo))
    subs.update({
        "@BASE@": f"Linux {ver}, as Debian's linux-source-6.12 {deb} ships it" if deb
                  else f"Linux {ver}",
        "@COMMIT@": sha + (" (with uncommitted changes)" if dirty else ""),
        "@PATCHES@": str(len(series)),
        "@DOCTESTS@": str(doctests),
        "@RESULT@": result or "This letter does not quote a run's result: the generator "
                              "cannot know it. Run scripts/test.sh at the commit above.",
    })
    for k, v in subs.items():
        body = body.replace(k, v)
    left = re.findall(r"@[A-Z_]+@", body)
    if left:
        die(f"cover-letter.txt: unknown placeholders {left}")
    text = cover.read_text(encoding="utf-8")
    if "*** SUBJECT HERE ***" not in text or "*** BLURB HERE ***" not in text:
        die(f"{cover}: not git format-patch's cover letter template")
    text = text.replace("*** SUBJECT HERE ***", subject)
    text = text.replace("*** BLURB HERE ***", wrap(body))
    cover.write_text(text, encoding="utf-8")


# --- check -----------------------------------------------------------------------------------

def patch_paths(patch):
    paths = []
    for line in patch.read_text(encoding="utf-8", errors="replace").splitlines():
        m = re.match(r"^diff --git a/(\S+) b/(\S+)$", line)
        if m:
            paths += [m.group(1), m.group(2)]
    return list(dict.fromkeys(paths))


def patches_in(outdir):
    ps = sorted(f for f in outdir.glob("[0-9][0-9][0-9][0-9]-*.patch")
                if not f.name.startswith("0000-"))
    if not ps:
        die(f"no patches in {outdir} (run scripts/patch-series.sh {outdir} first)")
    return ps


def hardlink_copy(src, dst):
    shutil.rmtree(dst, ignore_errors=True)
    dst.parent.mkdir(parents=True, exist_ok=True)
    run(["cp", "-al", str(src), str(dst)])


def break_link(f):
    """Give `f` an inode of its own, so that writing it leaves the pristine tree alone."""
    if f.is_file() and f.stat().st_nlink > 1:
        tmp = f.with_name(f.name + ".series-tmp")
        shutil.copy2(f, tmp)
        tmp.replace(f)


def result(ok, name, detail):
    print(f"{'PASS' if ok else 'FAIL'} {name} {detail}", flush=True)
    return ok


def check(repo, pristine, work, outdir):
    patches = patches_in(outdir)
    ok_all = True
    work.mkdir(parents=True, exist_ok=True)

    # 1. The patches apply, in order, without fuzz, to a copy of the pristine tree; and as
    # mails (git am) to a repository of the pristine files they touch, each with its sign-off.
    applied = work / "applied"
    hardlink_copy(pristine, applied)
    why = ""
    for p in patches:
        for rel in patch_paths(p):
            break_link(applied / rel)
        # The ceiling keeps git from taking a repository above the copy for its own.
        r = run(["git", "apply", "--whitespace=nowarn", str(p)], cwd=applied, check=False,
                env=dict(os.environ, GIT_CEILING_DIRECTORIES=str(work)))
        if r.returncode != 0:
            why = f"{p.name} does not apply: {r.stdout.strip().splitlines()[0:3]}"
            break
    if not why:
        why = git_am_check(pristine, work / "am", patches)
    ok_apply = result(not why, "series/applies",
                      why or f"{len(patches)} patches apply in order to a pristine copy (git "
                             f"apply, no fuzz) and as mails (git am), each signed off by its "
                             f"author")
    ok_all &= ok_apply

    # 2. Pristine + series == pristine + overlay.py --plain, over the whole tree.
    plain = work / "overlay-plain"
    hardlink_copy(pristine, plain)
    r = run([sys.executable, str(repo / "scripts" / "overlay.py"), "--plain", str(repo),
             str(plain)], check=False)
    if r.returncode != 0:
        ok_all &= result(False, "series/reproduces-overlay", f"overlay.py --plain failed: "
                                                             f"{r.stdout.strip()}")
    elif not ok_apply:
        ok_all &= result(False, "series/reproduces-overlay", "the series did not apply")
    else:
        r = run(["diff", "-r", "--no-dereference", "-q", str(applied), str(plain)], check=False)
        diffs = r.stdout.strip().splitlines()
        ok_all &= result(r.returncode == 0, "series/reproduces-overlay",
                         "pristine + series and pristine + overlay.py --plain are identical "
                         "(diff -r, whole tree)" if r.returncode == 0 else
                         f"{len(diffs)} differences, first: {diffs[:3]}")

    # 3. checkpatch.pl --strict, run from the pristine tree: no error in any patch.
    tot = [0, 0, 0]
    bad = []
    for p in patches:
        r = run(["perl", "scripts/checkpatch.pl", "--strict", "--color=never", "--showfile",
                 str(p)], cwd=pristine, check=False)
        m = re.search(r"total: (\d+) errors, (\d+) warnings, (?:(\d+) checks, )?", r.stdout)
        if not m:
            bad.append(f"{p.name}: checkpatch gave no totals")
            print(r.stdout)
            continue
        e, w, c = (int(x or 0) for x in m.groups())
        tot = [tot[0] + e, tot[1] + w, tot[2] + c]
        print(f"  checkpatch {p.name}: {e} errors, {w} warnings, {c} checks")
        for line in r.stdout.splitlines():
            if re.match(r"^(?:\S+:\d+: )?(?:ERROR|WARNING|CHECK):", line):
                print("    " + line)
        if e:
            bad.append(p.name)
    ok_all &= result(not bad, "series/checkpatch",
                     f"{len(patches)} patches: {tot[0]} errors, {tot[1]} warnings, {tot[2]} "
                     f"checks (scripts/checkpatch.pl --strict)" +
                     (f"; errors in {', '.join(bad)}" if bad else ""))
    if ok_all:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"  (trees kept for inspection in {work}: hard links into the pristine tree, "
              f"do not edit them in place)")
    return ok_all


def git_am_check(pristine, amdir, patches):
    shutil.rmtree(amdir, ignore_errors=True)
    amdir.mkdir(parents=True)
    env = dict(os.environ, GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1",
               GIT_COMMITTER_NAME="series check", GIT_COMMITTER_EMAIL="check@localhost",
               GIT_AUTHOR_NAME="series check", GIT_AUTHOR_EMAIL="check@localhost")
    g = ["git", "-C", str(amdir)]
    run(g + ["init", "-q", "-b", "check"], env=env)
    for p in patches:
        for rel in patch_paths(p):
            src = pristine / rel
            if src.is_file() and not (amdir / rel).exists():
                (amdir / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, amdir / rel)
    run(g + ["add", "-A"], env=env)
    run(g + ["commit", "-q", "--allow-empty", "-m", "pristine"], env=env)
    r = run(g + ["am", "-q"] + [str(p) for p in patches], env=env, check=False)
    if r.returncode != 0:
        return f"git am failed: {r.stdout.strip().splitlines()[:3]}"
    log_ = run(g + ["log", "--reverse", "--format=%an <%ae>%x00%B%x01", "HEAD~%d..HEAD"
                    % len(patches)], env=env).stdout
    for n, entry in enumerate(log_.split("\x01")[:-1], 1):
        author, _, body = entry.strip("\n").partition("\x00")
        if f"Signed-off-by: {author}" not in body:
            return f"patch {n}: no Signed-off-by from its author {author}"
    return ""


def main():
    if len(sys.argv) < 2:
        die(__doc__)
    mode, args = sys.argv[1], [pathlib.Path(a) for a in sys.argv[2:]]
    if mode == "generate" and len(args) == 4:
        generate(*args)
    elif mode == "check" and len(args) == 4:
        sys.exit(0 if check(*args) else 1)
    elif mode == "paths" and len(args) == 1:
        for p in patches_in(args[0]):
            for rel in patch_paths(p):
                print(rel)
    else:
        die("usage: patch-series.py generate|check REPO PRISTINE DIR OUTDIR | paths OUTDIR")


if __name__ == "__main__":
    main()
