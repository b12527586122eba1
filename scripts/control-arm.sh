#!/bin/bash
# The kselftest's control arm: the series' lru_gen_nonleaf with the two
# fixes that made it stop flaking taken out again -- one 1 ms sleep before
# each walk instead of waiting for a context switch, and DAMON's modules
# left running -- built beside the test as lru_gen_nonleaf.control
# (build/guest-extra[-x86]/kselftest/mm; run scripts/initramfs.sh after).
# The guest runs it with lab.lru_bin=lru_gen_nonleaf.control, so that
# scripts/flake-loop.sh can alternate it with the test as shipped in one
# loop: -a lab.lru_bin=lru_gen_nonleaf.control -a -
# LAB_ARCH=x86 builds the x86-64 one with the host's compiler.
# Usage: control-arm.sh [KERNEL_TREE]   (default: build/linux)
. "$(dirname "$0")/lib.sh"
if [ "$LAB_ARCH" = arm64 ]; then
	cc=${CROSS}gcc sfx=
else
	cc=gcc sfx=-$LAB_ARCH
fi
need perl "$cc"
tree=$(realpath "${1:-$BUILD/linux}")
sel=$tree/tools/testing/selftests
out=$BUILD/guest-extra$sfx/kselftest/mm
hdr=$BUILD/kselftest$sfx/usr/include
[ -d "$out" ] && [ -d "$hdr" ] || die "no kselftest build in $out (run scripts/kselftest-build.sh first)"
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
mkdir -p "$work/mm"
cp "$sel/kselftest.h" "$work/"
cp "$sel"/mm/{lru_gen_nonleaf.c,vm_util.c,vm_util.h,thp_settings.c,thp_settings.h} "$work/mm/"
cp "$sel"/cgroup/cgroup_util.{c,h} "$work/mm/"
c=$work/mm/lru_gen_nonleaf.c
perl -0pi -e 's/\tswitches = nr_switches\(\);\n\twhile \(nr_switches\(\) == switches\) \{\n.*?\n\t\}\n/\tusleep(1000);\t\/* the control arm: one sleep, no wait for a switch *\/\n/s;
	s/\n\tpause_damon\(\);\n/\n\t\/* the control arm: DAMON left running *\/\n/' "$c"
n=$(grep -c 'the control arm' "$c" || true)
[ "$n" = 2 ] || die "control arm: expected to change two places of $sel/mm/lru_gen_nonleaf.c, changed $n"
# cgroup_util.c includes its headers through ../; give it the same layout
mkdir -p "$work/clone3" && cp "$sel/clone3/clone3_selftests.h" "$work/clone3/"
"$cc" -static -O2 -Wall -DKSFT_SKIP=4 -I"$hdr" -I"$work/mm" -o "$out/lru_gen_nonleaf.control" \
	"$c" "$work/mm/vm_util.c" "$work/mm/thp_settings.c" "$work/mm/cgroup_util.c" 2>"$work/cc.log" ||
	{ cat "$work/cc.log"; die "control arm: the build failed"; }
say "control arm: $out/lru_gen_nonleaf.control (no switch wait, DAMON left running)"
