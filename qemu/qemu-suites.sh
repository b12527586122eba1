#!/bin/bash
# QEMU's own suites on the lab's QEMU build ($QEMU_DIR/build): the
# aarch64-softmmu system TCG tests (what 'make check-tcg' runs for that
# target, the queue's pie-dirty and haft among them) and the
# arm-cpu-features qtest. One TAP line per test, then the plan; exits
# non-zero on any failure. 'make check' runs it (scripts/check.sh, check
# 'qemu'); logs in build/qemu-suites/.
#
# Not 'make check-tcg' itself: that asks ninja for 'all' (every tool and
# test of the configuration) first. Debian's +ds tarball has no network
# ROMs and -M virt adds a virtio NIC that wants efi-virtio.rom, so both
# suites run QEMU through a wrapper that adds -nic none, as the lab does.
. "$(dirname "$0")/../scripts/lib.sh"
need "${CROSS}gcc" make ninja
qemu_tools_env
b=$QEMU_DIR/build
[ -x "$QEMU" ] || die "$QEMU missing: run 'make qemu'"
[ -f "$b/tests/tcg/aarch64-softmmu/config-target.mak" ] ||
	die "$b has no aarch64-softmmu TCG tests configured (no ${CROSS}gcc when it was configured?)"
out=$BUILD/qemu-suites
mkdir -p "$out/bin"
# qtest wants the binary's name to end in -system-<arch>
wrap=$out/bin/qemu-system-aarch64
printf '#!/bin/sh\nexec "%s" "$@" -nic none\n' "$QEMU" >"$wrap"
chmod +x "$wrap"

say "qemu-suites: system TCG tests (aarch64-softmmu), log $out/tcg.log"
(cd "$b" && make -k run-tcg-tests-aarch64-softmmu QEMU="$wrap") >"$out/tcg.log" 2>&1 || true
tests=$(sed -n 's/^  TEST  *\(.*\) on aarch64$/\1/p' "$out/tcg.log")
[ -n "$tests" ] || { tail -n 20 "$out/tcg.log" | sed 's/^/# /'; die "no TCG test ran"; }
for t in $tests; do
	rc=0
	grep -q "\[Makefile:[0-9]*: run-$t\] Error" "$out/tcg.log" && rc=1
	tap_result $rc "check-tcg aarch64-softmmu: $t"
done
sed -n 's/^  SKIPPED *\(.*\) on aarch64 because \(.*\)$/# skipped: \1 (\2)/p' "$out/tcg.log"

say "qemu-suites: arm-cpu-features qtest, log $out/qtest.tap"
ninja -C "$b" tests/qtest/arm-cpu-features >"$out/qtest-build.log" 2>&1 ||
	die "could not build the arm-cpu-features qtest; see $out/qtest-build.log"
QTEST_QEMU_BINARY=$wrap "$b/tests/qtest/arm-cpu-features" --tap -k >"$out/qtest.tap" 2>&1 </dev/null || true
while read -r st name; do
	tap_result "$st" "qtest arm-cpu-features: $name"
done < <(sed -n -e 's/^ok [0-9]* \(.*\)/0 \1/p' -e 's/^not ok [0-9]* \(.*\)/1 \1/p' "$out/qtest.tap")
grep -q '^1\.\.' "$out/qtest.tap" || tap_result 1 "qtest arm-cpu-features: ran to its plan (see $out/qtest.tap)"

tap_plan
[ "$TAP_FAILED" = 0 ] || { echo "# $TAP_FAILED of $TAP_N failed" >&2; exit 1; }
