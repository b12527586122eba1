#!/bin/bash
# Build the mainline form of the series' kselftest, lru_gen_nonleaf
# (upstream/lru-gen-selftest/, a patch for Debian's newest kernel source),
# with that tree's own selftests Makefile, statically for the lab's
# busybox-only arm64 guest.
#
# The patches go on the branch 'lru-gen-selftest' from 'base' of the
# mainline tree of scripts/mainline-tree.sh, by 'git am' in a sparse
# worktree of that tree (WORK/src, WORK being lru-gen-selftest/ beside the
# tree), so that the tree's own checkout, which check.sh builds kernels
# from, is never switched. As mainline-tree.sh does for tcr2-fix, the
# branch is made again when the patches change, and commits made on it by
# hand are kept once they are exported to upstream/lru-gen-selftest/
# (refused otherwise). Then, out of tree in WORK/obj:
#   - 'make headers' for arm64: the UAPI headers in WORK/obj/usr/include,
#     which the selftests Makefile uses with O= (KHDR_INCLUDES);
#   - 'make -C tools/testing/selftests TARGETS=mm install' with the mm
#     Makefile's lists given on the command line, which overrides them (as
#     in scripts/kselftest-build.sh, with the $(OUTPUT)/ prefix lib.mk
#     would otherwise add): only lru_gen_nonleaf is built, linked with
#     LDFLAGS=-static, and only it, run_vmtests.sh and ksft_lru_gen.sh
#     (with mm's settings and config and the kselftest runner) are
#     installed into OUT.
# The build must give no compiler warning, and the program must be a
# static aarch64 executable. In the guest: 'cd OUT/mm && ./ksft_lru_gen.sh'
# or 'OUT/run_kselftest.sh -t mm:ksft_lru_gen.sh'.
# Usage: [SERIES=damon-young] mainline-selftest-build.sh [TREE [OUT]]
#   (defaults: build/mainline/linux and build/kselftest-mainline)
# SERIES=NAME builds the branch NAME instead: upstream/lru-gen-selftest/
# and then upstream/NAME/ (an RFC whose test extends the kselftest), in
# WORK=NAME/ beside the tree.
. "$(dirname "$0")/lib.sh"
need git make rsync file "${CROSS}gcc"

tree=$(realpath "${1:-$BUILD/mainline/linux}")
out=$(realpath -m "${2:-$BUILD/kselftest-mainline}")
series=${SERIES:-lru-gen-selftest}
[[ "$series" =~ ^[a-z0-9-]+$ ]] || die "SERIES='$series' is not a directory name of upstream/"
work=$(dirname "$tree")/$series
src=$work/src
obj=$work/obj
stamp=$work/applied
branch=$series
if ! [ -d "$tree/.git" ] || ! git -C "$tree" rev-parse -q --verify base >/dev/null; then
	die "no mainline tree with a 'base' tag at $tree: run scripts/mainline-tree.sh"
fi
patches=("$TOP"/upstream/lru-gen-selftest/*.patch)
[ -f "${patches[0]}" ] || die "no patches in upstream/lru-gen-selftest/"
if [ "$series" != lru-gen-selftest ]; then
	more=()
	for p in "$TOP/upstream/$series"/*.patch; do
		[[ "$p" == *-cover-letter.patch ]] || [ ! -f "$p" ] || more+=("$p")
	done
	[ ${#more[@]} -gt 0 ] || die "no patches in upstream/$series/"
	patches+=("${more[@]}")
fi
based_on=$(cat "$(dirname "$tree")/linux.base" 2>/dev/null || echo "the tree's 'base'")
G() { git -C "$tree" -c user.name=lab -c user.email=lab@localhost "$@"; }
W() { git -C "$src" -c user.name=lab -c user.email=lab@localhost "$@"; }
# ids : the stable patch ids of the patches on stdin, in order
ids() { git patch-id --stable | cut -d' ' -f1 | paste -sd' ' -; }
mkdir -p "$work"
# The sparse checkout, the headers and the objects take about 300 MB.
disk_room "mainline kselftest" "$work:600" "$out:20"

# The worktree: made again when the tree was (a new 'base').
if [ "$(git -C "$src" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != "$tree/.git" ]; then
	say "mainline kselftest: sparse worktree of $tree in $src"
	rm -rf "$src" "$stamp"
	G worktree prune
	G worktree add -q --no-checkout --detach "$src" base
	new=1
fi
# What 'make headers' and the selftests use (the mm Makefile names
# mm/gup_test.h); cone mode adds the top-level files (Makefile). Set before
# a new worktree's first checkout, which then writes only these (a full one
# took minutes on a busy host).
W sparse-checkout set --cone arch/arm64 include mm scripts tools usr
[ -z "${new:-}" ] || W reset -q --hard base

want=$(hash_of "${patches[@]}")
have='' head=''
[ ! -f "$stamp" ] || read -r have head <"$stamp" || true
at=$(G rev-parse -q --verify "refs/heads/$branch" || true)
if [ -n "$at" ] && [ "$at" != "${head:-}" ]; then
	[ "$(G format-patch --stdout "base..$branch" | ids)" = "$(cat "${patches[@]}" | ids)" ] ||
		die "branch $branch of $tree has commits that are not in upstream/ (lru-gen-selftest/${more:+ and $series/}); export them with git format-patch, after removing the old files, or delete the branch"
	echo "$want $at" >"$stamp"
	have=$want head=$at
fi
if [ -z "$at" ] || [ "${have:-}" != "$want" ]; then
	say "mainline kselftest: applying ${#patches[@]} patch(es) from upstream/lru-gen-selftest/${more:+ and upstream/$series/} on branch $branch"
	rm -f "$stamp"
	W am --abort >/dev/null 2>&1 || true
	W checkout -q -B "$branch" base
	am_all "$src" "of upstream/ does not apply to $based_on: rebase it on this source" "${patches[@]}"
	echo "$want $(W rev-parse HEAD)" >"$stamp"
fi
# Detached, so that the branch stays free to be checked out in the tree.
W checkout -q --detach "$branch"
sel=$src/tools/testing/selftests
if ! [ -f "$sel/mm/lru_gen_nonleaf.c" ] || ! [ -f "$sel/mm/ksft_lru_gen.sh" ]; then
	die "branch $branch lacks tools/testing/selftests/mm/lru_gen_nonleaf.c or ksft_lru_gen.sh"
fi

say "mainline kselftest: UAPI headers (arm64) into $obj/usr"
run_logged "$work/headers.log" make -C "$src" O="$obj" ARCH=arm64 \
	CROSS_COMPILE="$CROSS" headers

# mm/ writes local_config.{h_gen,mk} next to its sources (in the worktree).
rm -rf "$out"
say "mainline kselftest: building lru_gen_nonleaf (static, ARCH=arm64) into $out"
run_logged "$work/build.log" make -C "$sel" TARGETS=mm ARCH=arm64 \
	CROSS_COMPILE="$CROSS" O="$obj" LDFLAGS=-static \
	TEST_GEN_FILES="$obj/kselftest/mm/lru_gen_nonleaf" TEST_GEN_PROGS= \
	TEST_GEN_MODS_DIR= TEST_PROGS=ksft_lru_gen.sh TEST_FILES=run_vmtests.sh \
	KSFT_INSTALL_PATH="$out" install
if grep -nE 'warning:|redefined' "$work/build.log"; then
	die "the build of lru_gen_nonleaf gave warnings (above; $work/build.log)"
fi

b=$out/mm/lru_gen_nonleaf
desc=$(file -b "$b" 2>/dev/null || true)
[[ "$desc" == *"ELF 64-bit LSB executable, ARM aarch64"*"statically linked"* ]] ||
	die "$b is not a static aarch64 executable: ${desc:-missing}"
for f in mm/run_vmtests.sh mm/ksft_lru_gen.sh mm/settings run_kselftest.sh kselftest/runner.sh; do
	[ -f "$out/$f" ] || die "$out/$f was not installed"
done
grep -qx 'mm:ksft_lru_gen.sh' "$out/kselftest-list.txt" ||
	die "$out/kselftest-list.txt does not list mm:ksft_lru_gen.sh"
say "mainline kselftest: $b ($desc)"
say "mainline kselftest: installed with run_vmtests.sh, ksft_lru_gen.sh and the kselftest runner into $out (branch $branch at $(G rev-parse --short "$branch") on $based_on)"
