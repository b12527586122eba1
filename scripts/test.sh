#!/bin/bash
# 'make test': everything that must pass, in dependency order. Each step is
# judged by scripts/check-log.py into build/results/counts; a step that the
# rest depends on stops the run (with its log) but the summary line still
# comes. Ends with 'N passed, N failed'; exits non-zero on any failure.
. "$(dirname "$0")/lib.sh"
res=$BUILD/results
mkdir -p "$res"
rm -f "$res"/counts "$res"/*.log "$res"/*.tap

summary() {
	awk '{ p += $2; f += $3; s += $4 } END {
		printf "\n"; printf "%d passed, %d failed", p, f; if (s) printf ", %d skipped", s; printf "\n"
		exit f > 0 }' "$res/counts"
}
# host_step NAME CMD... : a host-side step; its TAP (or just its exit
# status) is recorded. Returns the command's status.
host_step() {
	local name=$1 rc=0
	shift
	"$@" >"$res/$name.tap" 2>&1 || rc=$?
	grep -qE '^(not )?ok\b' "$res/$name.tap" ||
		{ [ $rc = 0 ] && echo "ok - $name" || echo "not ok - $name (exit $rc)"; } >>"$res/$name.tap"
	[ $rc = 0 ] || tail -n 30 "$res/$name.tap" | grep -vE '^(not )?ok\b' >&2 || true
	python3 "$TOP/scripts/check-log.py" --host "$res/$name.tap" "$name" || rc=1
	return $rc
}
stop() { say "test: stopping: $1"; summary; exit 1; }

host_step deps "$TOP/scripts/deps.sh" || stop "dependencies could not be installed"
host_step tree "$TOP/scripts/kernel-tree.sh" || stop "the kernel tree could not be made, or the series does not apply"
host_step series-sync "$TOP/scripts/check-sync.sh" || true
host_step checkpatch "$TOP/scripts/checkpatch.sh" || true
host_step kernel-build "$TOP/scripts/kernel-build.sh" default || stop "the kernel does not build"
host_step qemu-build "$TOP/scripts/qemu-build.sh" || stop "QEMU does not build"
# The emulator's FEAT_TCR2/FEAT_HAFT, bare metal, on max, haft=off, tcr2=off.
host_step qemu-tests "$TOP/qemu/run-tests.sh" || true
host_step kselftest-build "$TOP/scripts/kselftest-build.sh" || stop "the kselftest does not build"
host_step mm-selftests-build "$TOP/scripts/mm-selftests-build.sh" || true
host_step initramfs "$TOP/scripts/initramfs.sh" || stop "the initramfs could not be built"

# Guest suites, on each CPU model / command line the series must handle:
# FEAT_HAFT present and used; absent from the CPU model; present but
# turned off with arm64.nohaft; and an override value the kernel rejects.
suites=boot,haft,lru-nonleaf,hotplug,badinput
# On max the aging benchmark also runs, small (256 MiB, one repetition),
# so that 'make run' and 'make bench' cannot rot unnoticed.
"$TOP/scripts/boot.sh" -c max -r "$suites,bench-age" -t 900 -n guest-max \
	-a "lab.bench_mib=256 lab.bench_reps=1 lab.bench_scen=cold,sparse" || true
host_step bench-headline "$TOP/scripts/bench-report.py" --headline "$res/guest-max.log" || true
"$TOP/scripts/boot.sh" -c max,haft=off -r "$suites" -t 600 -n guest-haft-off || true
"$TOP/scripts/boot.sh" -c max -a arm64.nohaft -r "$suites" -t 600 -n guest-nohaft || true
"$TOP/scripts/boot.sh" -c max -a id_aa64mmfr1.hafdbs=1 -r boot,haft -t 300 -n guest-bad-override || true
"$TOP/scripts/boot.sh" -c max -a id_aa64mmfr1.hafdbs=5 -r boot,haft -t 300 -n guest-unsafe-override || true
# The kernel's own mm kselftests (page tables, THP, reclaim) with and
# without FEAT_HAFT: each must pass, and the verdicts must agree.
"$TOP/scripts/boot.sh" -c max -r mm-selftests -t 600 -n mm-selftests-max || true
"$TOP/scripts/boot.sh" -c max,haft=off -r mm-selftests -t 600 -n mm-selftests-haft-off || true
host_step mm-selftests-compare "$TOP/scripts/compare-mm-selftests.py" \
	"$res/mm-selftests-max.log" "$res/mm-selftests-haft-off.log" || true
# Short soak on both CPU models ('make soak DURATION=3600' is the long one).
"$TOP/scripts/soak.sh" 45 guest-soak || true
# The debug kernel (configs/debug.config: DEBUG_VM, DEBUG_VM_PGTABLE,
# PAGE_TABLE_CHECK, lockdep, KASAN, KFENCE, ...): boot, HAFT, the
# kselftest, and a short soak (with hotplug, then the kselftest pinned to
# CPU1), with zero splats. Everything is several times slower on it under
# TCG: smaller sets and stressors, and RCU's stall timeout at 120 s (a
# preempted nice-19 khugepaged on the one CPU left during hotplug once
# starved for 26 s: an emulation-speed artefact, not a lockup).
if host_step kernel-build-debug "$TOP/scripts/kernel-build.sh" debug; then
	"$TOP/scripts/boot.sh" -k debug -c max -r boot,haft,lru-nonleaf,soak -t 1800 -n guest-debug-max \
		-a "lab.lru_args=-s,256 lab.soak_seconds=60 rcupdate.rcu_cpu_stall_timeout=120" || true
fi
# Debian's own 6.12 kernel (no series) still boots on the patched QEMU.
if host_step stock-kernel-fetch "$TOP/scripts/stock-kernel.sh"; then
	"$TOP/scripts/boot.sh" -K "$("$TOP/scripts/stock-kernel.sh" 2>/dev/null)" \
		-c max -r boot -t 300 -n stock-max || true
fi

summary
