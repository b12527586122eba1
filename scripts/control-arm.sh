#!/bin/bash
# The kselftest's control arm: the test as it was before the two fixes
# that made it stop flaking -- waiting for a context switch before each
# walk (f150901) and pausing DAMON's modules (89c4545) -- taken from this
# repository's git history, not re-made by editing today's test. The last
# version before f150901 (REV, default dfe06e2) has the DAMON pause but
# keeps DAMON running with -d, so the guest runs it as
#   lab.lru_bin=lru_gen_nonleaf.control lab.lru_args=-d
# (scripts/flake-loop.sh: -a lab.lru_bin=lru_gen_nonleaf.control,lab.lru_args=-d),
# which is the old test with neither fix, run as the suite runs the test
# as shipped. It is built with its own helper (lru_gen_util.c of that
# revision) and today's vm_util, thp_settings and cgroup_util, into
# build/guest-extra[-x86]/kselftest/mm (run scripts/initramfs.sh after).
# LAB_ARCH=x86 builds the x86-64 one with the host's compiler.
# Usage: control-arm.sh [REV]
. "$(dirname "$0")/lib.sh"
if [ "$LAB_ARCH" = arm64 ]; then
	cc=${CROSS}gcc sfx=
else
	cc=gcc sfx=-$LAB_ARCH
fi
need git "$cc"
rev=${1:-dfe06e2}
tree=$BUILD/linux
sel=$tree/tools/testing/selftests
out=$BUILD/guest-extra$sfx/kselftest/mm
hdr=$BUILD/kselftest$sfx/usr/include
[ -d "$out" ] && [ -d "$hdr" ] || die "no kselftest build in $out (run scripts/kselftest-build.sh first)"
git -C "$TOP" rev-parse -q --verify "$rev^{commit}" >/dev/null ||
	die "control arm: $rev is not a commit of this repository (a shallow clone? git fetch --unshallow)"
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
mkdir -p "$work/mm"
for f in lru_gen_nonleaf.c lru_gen_util.c lru_gen_util.h; do
	git -C "$TOP" show "$rev:tools/testing/selftests/mm/$f" >"$work/mm/$f" ||
		die "control arm: $rev has no tools/testing/selftests/mm/$f"
done
grep -q nr_switches "$work/mm/lru_gen_nonleaf.c" &&
	die "control arm: $rev already waits for a context switch (f150901 or later): not the old test"
cp "$sel/kselftest.h" "$work/"
cp "$sel"/mm/{vm_util.c,vm_util.h,thp_settings.c,thp_settings.h} "$work/mm/"
cp "$sel"/cgroup/cgroup_util.{c,h} "$work/mm/"
# cgroup_util.c includes its headers through ../; give it the same layout
mkdir -p "$work/clone3" && cp "$sel/clone3/clone3_selftests.h" "$work/clone3/"
"$cc" -static -O2 -Wall -DKSFT_SKIP=4 -I"$hdr" -I"$work/mm" -o "$out/lru_gen_nonleaf.control" \
	"$work/mm/lru_gen_nonleaf.c" "$work/mm/lru_gen_util.c" "$work/mm/vm_util.c" \
	"$work/mm/thp_settings.c" "$work/mm/cgroup_util.c" 2>"$work/cc.log" ||
	{ cat "$work/cc.log"; die "control arm: the build failed"; }
say "control arm: $out/lru_gen_nonleaf.control, the test of $rev (run it with lab.lru_args=-d: DAMON left running)"
