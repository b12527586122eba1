#!/bin/bash
# 'make check': the compile-only gates that rebuild most of the kernel each
# and so do not fit in CI's budget. Run it before changing patches/.
#  1. bisect: every prefix of the series builds with the default fragment;
#  2. variants: the series builds with ARM64_HAFT=n, TRANSPARENT_HUGEPAGE=n,
#     LRU_GEN=n, and 52-bit VA/LPA2;
#  3. W=1: the C files the series touches have no more W=1 warnings than
#     on the base.
# Prints TAP and ends with 'N passed, N failed'.
. "$(dirname "$0")/lib.sh"
tree=$BUILD/linux
wt=$BUILD/check-tree
pass=0 fail=0
result() { # result OK DESC
	if [ "$1" = 0 ]; then echo "ok - $2"; pass=$((pass + 1)); else echo "not ok - $2"; fail=$((fail + 1)); fi
}
if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" base
fi
commits=$(git -C "$tree" rev-list --reverse base..HEAD)
[ -n "$commits" ] || die "no series applied in build/linux"

for c in $commits; do
	subj=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach "$c"
	rc=0
	KTREE=$wt KOUT=$BUILD/check-bisect "$TOP/scripts/kernel-build.sh" default >"$BUILD/check-bisect.log" 2>&1 || rc=$?
	[ $rc = 0 ] || tail -n 30 "$BUILD/check-bisect.log" | sed 's/^/# /'
	result $rc "bisect: builds at '$subj'"
done

for v in nohaft nothp nolrugen va52; do
	rc=0
	"$TOP/scripts/kernel-build.sh" "$v" >"$BUILD/check-$v.log" 2>&1 || rc=$?
	[ $rc = 0 ] || tail -n 30 "$BUILD/check-$v.log" | sed 's/^/# /'
	result $rc "variant $v builds"
done

objs=$(git -C "$tree" diff --name-only --diff-filter=M base HEAD -- '*.c' ':!tools' | sed 's/\.c$/.o/')
if [ -n "$objs" ]; then
	count() { grep -E 'warning:' "$1" | grep -F -f <(echo "$objs" | sed 's/\.o$/.c/') | sort -u | wc -l; }
	git -C "$wt" checkout -q --detach base
	KTREE=$wt KOUT=$BUILD/check-w1 "$TOP/scripts/kernel-build.sh" default W=1 $objs >"$BUILD/check-w1-base.log" 2>&1 || true
	git -C "$wt" checkout -q --detach "$(git -C "$tree" rev-parse HEAD)"
	rc=0
	KTREE=$wt KOUT=$BUILD/check-w1 "$TOP/scripts/kernel-build.sh" default W=1 $objs >"$BUILD/check-w1.log" 2>&1 || rc=$?
	b=$(count "$BUILD/check-w1-base.log") s=$(count "$BUILD/check-w1.log")
	echo "# W=1 warnings in touched files: base $b, series $s"
	[ $rc = 0 ] && [ "$s" -le "$b" ] || rc=1
	result $rc "W=1: no new warnings in $(echo $objs | wc -w) touched C file(s)"
fi
echo "1..$((pass + fail))"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
