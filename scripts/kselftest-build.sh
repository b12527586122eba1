#!/bin/bash
# Cross-build the mm kselftests the lab runs -- the series' lru_gen_nonleaf
# and a subset of the kernel's own (page tables, THP, reclaim) -- statically
# for the guest, and install them the kernel's way: 'make -C
# tools/testing/selftests TARGETS=mm install' into build/guest-extra/kselftest
# (/lab/kselftest in the guest; run scripts/initramfs.sh afterwards). That
# brings run_kselftest.sh, kselftest/runner.sh, kselftest-list.txt,
# mm/run_vmtests.sh and mm/settings along. guest/tests/lru-nonleaf runs
# 'run_vmtests.sh -t lru_gen'; guest/tests/mm-selftests runs the runner.
# The UAPI headers come from an out-of-tree 'make headers' into
# build/kselftest/usr; objects go to build/kselftest/kselftest/mm.
#
# Only the programs in KSELFTESTS are built: TEST_GEN_FILES and
# TEST_GEN_PROGS are given on the command line, which overrides the mm
# Makefile's lists. It also overrides lib.mk's step that prefixes them
# with $(OUTPUT)/, so they are given with that prefix already (bare
# names would quietly build nothing). TEST_GEN_PROGS are what
# kselftest-list.txt names besides run_vmtests.sh: mseal_test and
# droppable, which no run_vmtests.sh category runs in 6.12.
#
# Left out, with this kernel config and guest:
#   uffd-unit-tests, uffd-stress, pagemap_ioctl (no USERFAULTFD; pagemap_ioctl
#     then exits 0 having run nothing), map_populate (socketpair: no NET/UNIX),
#   hugetlb*, hugepage-*, thuge-gen, compaction_test (hugetlbfs is in the
#     config only because run_vmtests.sh refuses to start without it),
#   ksm_* (no KSM), migration (no NUMA), gup_test, gup_longterm (no GUP_TEST),
#   hmm-tests (no test_hmm module), protection_keys (no POE in QEMU 7.2),
#   soft-dirty (not built for arm64), mlock-random-test (needs arm64
#   libcap), on-fault-limit (runs as another user through sudo; without
#   sudo run_vmtests.sh skips it), memfd_secret (kernel direct map, not user
#   page tables),
#   split_huge_page_test (its page-cache part writes a 4 MiB file a byte per
#     write() nine times and then skips without a large-folio filesystem:
#     over 2 minutes under TCG), virtual_address_range (maps the whole VA
#     space: too slow under TCG).
# run_vmtests.sh still names the left-out programs of the categories the
# guest picks; guest/tests/mm-selftests says how each of those ends.
#
# LAB_ARCH=x86: the same for the x86-64 boots, with the host's compiler
# (ARCH=x86), lru_gen_nonleaf alone (they run only guest/tests/lru-nonleaf),
# into build/guest-extra-x86/kselftest; objects in build/kselftest-x86.
# Usage: kselftest-build.sh [KERNEL_TREE]   (default: build/linux)
. "$(dirname "$0")/lib.sh"
sfx= kver=(ARCH=arm64 CROSS_COMPILE="$CROSS")
if [ "$LAB_ARCH" = arm64 ]; then
	need make rsync file "${CROSS}gcc"
else
	need make rsync file gcc
	sfx=-$LAB_ARCH kver=(ARCH="$LAB_ARCH")
	KSELFTESTS=${KSELFTESTS:-lru_gen_nonleaf} KSELFTEST_PROGS=${KSELFTEST_PROGS-}
fi

KSELFTESTS=${KSELFTESTS:-"lru_gen_nonleaf map_fixed_noreplace mremap_dontunmap
	mremap_test madv_populate mkdirty mlock2-tests mrelease_test mdwe_test
	transhuge-stress khugepaged cow"}
KSELFTEST_PROGS=${KSELFTEST_PROGS-"mseal_test droppable"}

tree=$(realpath "${1:-$BUILD/linux}")
src=$tree/tools/testing/selftests
out=$BUILD/kselftest$sfx
obj=$out/kselftest/mm # what the selftests Makefile makes of O=$out
dest=$BUILD/guest-extra$sfx/kselftest
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree: run 'make tree'"
[ -f "$src/mm/lru_gen_nonleaf.c" ] ||
	die "$src/mm/lru_gen_nonleaf.c missing: the tree does not carry the selftests/mm patch of the series"
grep -q 'lru_gen_nonleaf' "$src/mm/run_vmtests.sh" ||
	die "$src/mm/run_vmtests.sh has no lru_gen category: the tree does not carry the whole selftests/mm patch"
gen=() progs=()
for t in $KSELFTESTS; do
	[ -f "$src/mm/$t.c" ] || die "$src/mm/$t.c missing"
	gen+=("$obj/$t")
done
for t in $KSELFTEST_PROGS; do
	[ -f "$src/mm/$t.c" ] || die "$src/mm/$t.c missing"
	progs+=("$obj/$t")
done
mkdir -p "$out"

# UAPI headers; with O=$out the selftests Makefile uses $out/usr/include
# (KHDR_INCLUDES). 'make headers' is cheap when up to date.
say "kselftest: installing UAPI headers into ${out#"$TOP"/}/usr"
run_logged "$out/headers.log" make -C "$tree" O="$out" "${kver[@]}" headers

# khugepaged.c in 6.12.y returns KSFT_SKIP without including kselftest.h
# (a stable backport). It is given the value (4) on the command line; the
# programs that do include kselftest.h see the same definition again.
extra=
grep -q 'kselftest\.h' "$src/mm/khugepaged.c" || extra=-DKSFT_SKIP=4

# Install exactly the chosen set, so a shorter list drops old binaries.
# mm/ writes local_config.{h,mk} (probing for liburing) next to the
# sources; both are in that directory's .gitignore.
rm -rf "$dest"
say "kselftest: building $((${#gen[@]} + ${#progs[@]})) mm programs (static, ${kver[0]}) into ${dest#"$TOP"/}"
run_logged "$out/build.log" make -C "$src" -j"$JOBS" TARGETS=mm \
	"${kver[@]}" O="$out" LDFLAGS=-static \
	EXTRA_CFLAGS="$extra" TEST_GEN_FILES="${gen[*]}" \
	TEST_GEN_PROGS="${progs[*]}" KSFT_INSTALL_PATH="$dest" install
! grep -n 'redefined' "$out/build.log" ||
	die "a macro was redefined building the selftests (see above and $out/build.log)"
# The series' test builds without a warning (the kernel's own may warn:
# mremap_test does with some compilers).
! grep -n -E '^(lru_gen_nonleaf|cgroup_util)\.[ch]:[0-9:]+ warning:' "$out/build.log" ||
	die "lru_gen_nonleaf builds with warnings (see above and $out/build.log)"

# What must be there, and nothing unplanned: every program the lab runs,
# statically linked, and the kernel's runner and list.
for f in run_kselftest.sh kselftest/runner.sh kselftest-list.txt mm/run_vmtests.sh mm/settings; do
	[ -f "$dest/$f" ] || die "$dest/$f was not installed"
done
n=0
for t in $KSELFTESTS $KSELFTEST_PROGS; do
	b=$dest/mm/$t
	[ -x "$b" ] || die "$b was not installed"
	file "$b" | grep -q 'statically linked' ||
		die "$b is not statically linked: $(file -b "$b")"
	n=$((n + 1))
done
extra_bins=$(cd "$dest/mm" && file -- * | grep -c ELF)
[ "$extra_bins" = $n ] || die "$dest/mm has $extra_bins programs, $n expected"
# run_vmtests.sh also runs these left-out programs in the categories
# guest/tests/mm-selftests picks (mmap, mlock, thp). Each becomes a script
# that ends as a kselftest skip (exit 4) giving the reason, instead of a
# missing file (exit 127, a failure).
declare -A stubs=(
	[map_populate]="not built for the lab: socketpair() needs CONFIG_UNIX"
	[mlock-random-test]="not built for the lab: needs an arm64 libcap"
	[split_huge_page_test]="not built for the lab: its page-cache part takes over 2 minutes under TCG"
)
[ "$LAB_ARCH" = arm64 ] || stubs=() # the x86 boots run lru_gen alone
for t in "${!stubs[@]}"; do
	[ ! -e "$dest/mm/$t" ] || die "$dest/mm/$t exists: drop it from the skip stubs"
	printf '#!/bin/sh\necho "1..0 # SKIP %s"\nexit 4\n' "${stubs[$t]}" >"$dest/mm/$t"
	chmod 755 "$dest/mm/$t"
done
say "kselftest: installed $n programs and the kselftest runner into ${dest#"$TOP"/} ($(tr '\n' ' ' <"$dest/kselftest-list.txt"))"
rm -rf "$BUILD/guest-extra/bin/lru_gen_nonleaf" "$BUILD/guest-extra/mm-selftests"
say "kselftest: run scripts/initramfs.sh to pack them"
