# Shared settings for the e100_rs scripts. Source it; do not run it.
# shellcheck shell=bash

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything generated lives outside the repo, in one cache directory.
CACHE=${E100_RS_CACHE:-$HOME/.cache/e100_rs}
# The kernel tree: Debian's linux-source-6.12 with our rust/ overlaid.
KSRC=${E100_RS_KDIR:-$CACHE/linux}
KTARBALL=${E100_RS_KTARBALL:-/usr/src/linux-source-6.12.tar.xz}
JOBS=${JOBS:-$(nproc)}
KMAKE=(make -C "$KSRC" LLVM=1 -j"$JOBS")

log() { printf '[%s] %s\n' "${LOG_TAG:-e100_rs}" "$*"; }
die() { printf '[%s] error: %s\n' "${LOG_TAG:-e100_rs}" "$*" >&2; exit 1; }
