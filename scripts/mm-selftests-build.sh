#!/bin/bash
# Cross-build a subset of the kernel's own mm kselftests
# (tools/testing/selftests/mm) statically for the guest through the
# selftests Makefile, into build/kselftest/mm, and install them into
# build/guest-extra/mm-selftests (/lab/mm-selftests in the guest; run
# scripts/initramfs.sh afterwards). guest/tests/mm-selftests runs them.
# The subset exercises page tables, THP and reclaim and works with
# configs/base.config; see MM_SELFTESTS below for what was left out.
# Usage: mm-selftests-build.sh [KERNEL_TREE]   (default: build/linux)
. "$(dirname "$0")/lib.sh"
need make "${CROSS}gcc" file

# Left out, with this kernel config and guest:
#   uffd-unit-tests, uffd-stress, pagemap_ioctl (no USERFAULTFD; pagemap_ioctl
#     then exits 0 having run nothing), map_populate (socketpair: no NET/UNIX),
#   hugetlb*, hugepage-*, thuge-gen, compaction_test (no HUGETLBFS),
#   ksm_* (no KSM), migration (no NUMA), gup_test, gup_longterm (no GUP_TEST),
#   hmm-tests (no test_hmm module), protection_keys (no POE in QEMU 7.2),
#   soft-dirty (not built for arm64), mlock-random-test (needs arm64
#   libcap), on-fault-limit (runs as another user), memfd_secret (kernel
#   direct map, not user page tables),
#   split_huge_page_test (its page-cache part writes a 4 MiB file a byte per
#     write() nine times and then skips without a large-folio filesystem:
#     over 2 minutes under TCG), virtual_address_range (maps the whole VA
#     space: too slow under TCG).
MM_SELFTESTS=${MM_SELFTESTS:-"map_fixed_noreplace mremap_dontunmap mremap_test
	madv_populate mkdirty mlock2-tests mrelease_test mdwe_test mseal_test
	droppable transhuge-stress khugepaged cow"}

tree=${1:-$BUILD/linux}
src=$tree/tools/testing/selftests/mm
out=$BUILD/kselftest
dest=$BUILD/guest-extra/mm-selftests
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree: run 'make tree'"
mkdir -p "$out/mm"

say "mm-selftests: installing UAPI headers into ${out#"$TOP"/}/usr"
run_logged "$out/headers.log" make -C "$tree" O="$out" ARCH=arm64 \
	CROSS_COMPILE="$CROSS" headers

targets=()
for t in $MM_SELFTESTS; do
	[ -f "$src/$t.c" ] || die "$src/$t.c missing"
	targets+=("$out/mm/$t")
done
# khugepaged.c in 6.12.y returns KSFT_SKIP without including kselftest.h
# (a stable backport); it alone gets the value (4) on the command line.
mk() {
	make -C "$src" -j"$JOBS" ARCH=arm64 CROSS_COMPILE="$CROSS" OUTPUT="$out/mm" \
		KHDR_INCLUDES="-isystem $out/usr/include" LDFLAGS=-static "$@"
}
say "mm-selftests: building ${#targets[@]} tests (static, ARCH=arm64)"
build() {
	local t rest=()
	for t in "${targets[@]}"; do
		if [ "${t##*/}" = khugepaged ] && ! grep -q 'kselftest\.h' "$src/khugepaged.c"; then
			mk EXTRA_CFLAGS=-DKSFT_SKIP=4 "$t" || return
		else
			rest+=("$t")
		fi
	done
	mk "${rest[@]}"
}
run_logged "$out/mm-build.log" build

# Install exactly the chosen set, so a shorter list drops old binaries.
rm -rf "$dest"
mkdir -p "$dest"
for b in "${targets[@]}"; do
	file "$b" | grep -q 'statically linked' ||
		die "$b is not statically linked: $(file -b "$b")"
	install -m 755 "$b" "$dest/"
done
say "mm-selftests: installed ${#targets[@]} tests into ${dest#"$TOP"/} (run scripts/initramfs.sh to pack them)"
