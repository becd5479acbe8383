#!/usr/bin/env bash
# The patch series: the kernel-crate abstractions and the driver as `git format-patch` mails
# against the pristine 6.12 tree (Debian's linux-source-6.12, KTARBALL).
#
#   scripts/patch-series.sh [OUTDIR]           write the series (default $CACHE/series)
#   scripts/patch-series.sh --check [OUTDIR]   check the written series (test results)
#   scripts/patch-series.sh --bisect [OUTDIR]  build every prefix of the written series
#
# The series is defined in patches/series/ (one file per patch: subject, files, hook lines,
# message; see patches/series/README.md). Writing it fails if the definition and
# scripts/overlay.py disagree (a file or hook line in no patch or in two, a patch that uses
# what a later one adds) or if the series' result differs from `overlay.py --plain`.
#
# --check prints one PASS/FAIL line per check (series/applies, series/reproduces-overlay,
# series/checkpatch; details indented) and exits non-zero on any FAIL.
#
# --bisect applies the patches one by one to a build tree of its own ($CACHE/linux-bisect, a
# copy of the pristine tree configured as the test kernel) and runs an incremental
# `make LLVM=1 vmlinux modules` after each (the kernel crate, its doctests, the helpers, and
# from the driver's patch on the module). One PASS/FAIL line per prefix with its time and the
# warnings that point into the series' files, then the total. Long: a cold build first, then
# a kernel-crate rebuild per patch.
#
# The pristine tree is unpacked once into $CACHE/linux-pristine and never modified (copies
# are hard links, and every file a copy changes gets an inode of its own first).
set -euo pipefail
LOG_TAG=series
. "$(dirname "$0")/common.sh"

mode=write
case "${1:-}" in
--check) mode=check; shift ;;
--bisect) mode=bisect; shift ;;
-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
-*) die "unknown option $1 (--check, --bisect)" ;;
esac
[ $# -le 1 ] || die "usage: scripts/patch-series.sh [--check|--bisect] [OUTDIR]"
OUTDIR=$(realpath -m "${1:-$CACHE/series}")
PRISTINE=$CACHE/linux-pristine

# The pristine tree, unpacked once (again if the tarball changes).
pristine_tree() {
	local stamp="$PRISTINE.stamp" want
	[ -f "$KTARBALL" ] || die "$KTARBALL missing: run scripts/deps.sh"
	want="$KTARBALL $(stat -c '%s %Y' "$KTARBALL")"
	if [ -d "$PRISTINE" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		return
	fi
	log "unpacking $(basename "$KTARBALL") into $PRISTINE (kept pristine)"
	rm -rf "$PRISTINE" "$PRISTINE.tmp" "$stamp"
	mkdir -p "$PRISTINE.tmp"
	tar -xJf "$KTARBALL" -C "$PRISTINE.tmp" --strip-components=1
	mv "$PRISTINE.tmp" "$PRISTINE"
	echo "$want" >"$stamp"
}

mkdir -p "$CACHE"
pristine_tree
PY=(python3 "$REPO/scripts/patch-series.py")

case "$mode" in
write)
	start=$(date +%s)
	"${PY[@]}" generate "$REPO" "$PRISTINE" "$CACHE/series-git" "$OUTDIR"
	log "written in $(($(date +%s) - start))s; check with: scripts/patch-series.sh --check $OUTDIR"
	;;
check)
	"${PY[@]}" check "$REPO" "$PRISTINE" "$CACHE/series-check" "$OUTDIR"
	;;
bisect)
	BTREE=$(realpath -m "$CACHE/linux-bisect")
	blog=$CACHE/series-bisect
	mapfile -t patches < <(find "$OUTDIR" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort)
	[ "${#patches[@]}" -gt 0 ] || die "no patches in $OUTDIR (write them first)"
	# The build tree: a real copy (it is built in), made once; the files the series touches
	# are put back to their pristine state before each run, so it starts from prefix 0.
	if [ ! -f "$BTREE/.e100_rs-bisect-tree" ]; then
		log "copying the pristine tree to $BTREE (once)"
		rm -rf "$BTREE"
		cp -a "$PRISTINE" "$BTREE"
		touch "$BTREE/.e100_rs-bisect-tree"
	fi
	while IFS= read -r rel; do
		if [ -f "$PRISTINE/$rel" ]; then
			cmp -s "$PRISTINE/$rel" "$BTREE/$rel" || cp -p "$PRISTINE/$rel" "$BTREE/$rel"
		else
			rm -f "$BTREE/$rel"
		fi
	done < <("${PY[@]}" paths "$OUTDIR" | sort -u)
	rm -rf "$blog"
	mkdir -p "$blog"
	total=0 failed=0
	for k in $(seq 0 "${#patches[@]}"); do
		if [ "$k" -eq 0 ]; then
			name="0000 (pristine $(basename "$KTARBALL"))"
		else
			p=${patches[$((k - 1))]}
			name=$(basename "$p" .patch)
			if ! (cd "$BTREE" && GIT_CEILING_DIRECTORIES=$(dirname "$BTREE") git apply "$p") >"$blog/$name.apply.log" 2>&1; then
				echo "FAIL series/bisect/$name does not apply: $(head -3 "$blog/$name.apply.log" | tr '\n' ' ')"
				failed=$((failed + 1))
				break
			fi
		fi
		# Configure at the start and whenever a patch touches a Kconfig file (the driver's
		# E100_RS only exists from its patch on).
		if [ "$k" -eq 0 ] || grep -q '^diff --git a/.*Kconfig' "$p"; then
			kconfigure "$BTREE" >"$blog/${name%% *}.config.log" 2>&1 ||
				die "configuring $BTREE failed; see $blog/${name%% *}.config.log"
		fi
		start=$(date +%s)
		rc=0
		make -C "$BTREE" LLVM=1 -j"$JOBS" vmlinux modules >"$blog/${name%% *}.log" 2>&1 || rc=$?
		el=$(($(date +%s) - start))
		total=$((total + el))
		warn=$(grep -E '(warning|error)(\[[^]]*\])?:' -A3 "$blog/${name%% *}.log" |
			grep -cE '^ *--> (rust/(kernel|helpers|bindings)/|drivers/net/ethernet/intel/e100_rs/)|^(rust/(helpers|kernel)|drivers/net/ethernet/intel/e100_rs)/[^:]*:[0-9]+:[0-9]+: (warning|error)' || true)
		if [ "$rc" -eq 0 ]; then
			echo "PASS series/bisect/${name%% *} built in ${el}s ($warn warnings in the series' files)"
		else
			echo "FAIL series/bisect/${name%% *} make failed (rc $rc) after ${el}s: $(grep -m1 -E 'error(\[|:)' "$blog/${name%% *}.log" || true); log $blog/${name%% *}.log"
			failed=$((failed + 1))
		fi
	done
	# With the whole series in, every option of the test kernel's fragments must have stuck
	# (CONFIG_E100_RS=m among them).
	if [ "$failed" -eq 0 ]; then
		missing=$(kconfig_missing "$BTREE")
		if [ -n "$missing" ]; then
			echo "FAIL series/bisect/config options that did not stick: $missing"
			failed=$((failed + 1))
		fi
		grep -q '^CONFIG_E100_RS=m$' "$BTREE/.config" && [ -f "$BTREE/drivers/net/ethernet/intel/e100_rs/e100_rs.ko" ] ||
			{ echo "FAIL series/bisect/driver e100_rs.ko was not built"; failed=$((failed + 1)); }
	fi
	log "bisect: $((${#patches[@]} + 1)) builds (pristine + ${#patches[@]} prefixes), $failed failed, ${total}s of make; logs in $blog"
	[ "$failed" -eq 0 ]
	;;
esac
