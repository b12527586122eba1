#!/bin/bash
# Cross-build the project's kselftest (tools/testing/selftests/mm/
# lru_gen_nonleaf, added by the series) statically for the guest through the
# selftests Makefile, and install it as build/guest-extra/bin/lru_gen_nonleaf
# (/lab/bin in the guest; run scripts/initramfs.sh afterwards).
# Only that one binary is built, not all of selftests/mm. The UAPI headers
# are installed out of tree into build/kselftest/usr.
# Usage: kselftest-build.sh [KERNEL_TREE]   (default: build/linux)
. "$(dirname "$0")/lib.sh"
need make "${CROSS}gcc"

tree=${1:-$BUILD/linux}
test=lru_gen_nonleaf
src=$tree/tools/testing/selftests/mm
out=$BUILD/kselftest
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree: run 'make tree'"
[ -f "$src/$test.c" ] ||
	die "$src/$test.c missing: the tree does not carry the selftests/mm patch of the series"
mkdir -p "$out/mm" "$BUILD/guest-extra/bin"

# UAPI headers for KHDR_INCLUDES; 'make headers' is cheap when up to date.
say "kselftest: installing UAPI headers into ${out#"$TOP"/}/usr"
run_logged "$out/headers.log" make -C "$tree" O="$out" ARCH=arm64 \
	CROSS_COMPILE="$CROSS" headers

# The selftests Makefile builds one target when given its full path. It
# writes local_config.{h,mk} (probing for liburing) next to the sources;
# both are in that directory's .gitignore.
say "kselftest: building $test (static, ARCH=arm64)"
run_logged "$out/build.log" make -C "$src" ARCH=arm64 CROSS_COMPILE="$CROSS" \
	OUTPUT="$out/mm" KHDR_INCLUDES="-isystem $out/usr/include" \
	LDFLAGS=-static "$out/mm/$test"
file "$out/mm/$test" | grep -q 'statically linked' ||
	die "$out/mm/$test is not statically linked: $(file -b "$out/mm/$test")"
install -m 755 "$out/mm/$test" "$BUILD/guest-extra/bin/$test"
say "kselftest: installed build/guest-extra/bin/$test (run scripts/initramfs.sh to pack it)"
