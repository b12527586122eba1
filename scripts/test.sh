#!/bin/bash
# 'make test': everything that must pass, in dependency order. The plan
# below names every step and boot; scripts/steps.sh runs them and
# scripts/verdict.py judges each against what is expected of it (exit
# status, TAP plan and numbering, the guest suites asked for). A step that
# the rest depends on stops the run; whatever did not run is a failure in
# the summary. Ends with 'N passed, N failed'; exits non-zero on any
# failure. build/results/report.ktap holds the whole run as nested KTAP.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/steps.sh"
# A failing step is recorded and the run goes on (or stops, below): the
# summary decides.
set +e

plan harness-test deps tree series-sync checkpatch kernel-build qemu-build \
	qemu-tests kselftest-build initramfs \
	guest-max bench-headline guest-haft-off guest-nohaft \
	guest-hafdbs1 guest-bad-override guest-unsafe-override guest-haft-no-tcr2 \
	mm-selftests-max mm-selftests-haft-off mm-selftests-compare \
	guest-memcgs guest-numa-small0 guest-numa-small1 guest-numa-nomem0 \
	guest-lowmem \
	guest-soak-max guest-soak-max-haft-off \
	kernel-build-kvm kvm-initramfs guest-kvm-max guest-kvm-haft-off \
	tree-newest kernel-build-debug guest-debug-max stock-kernel-fetch stock-max \
	stock-current-fetch stock-current-max stock-current-haft-off

# The judge itself first: each crafted failure must be caught (seconds).
host_tap harness-test "$TOP/scripts/harness-test.sh" || stop "the harness does not judge failures as failures"
host_step deps "$TOP/scripts/deps.sh" || stop "dependencies could not be installed"
host_step tree "$TOP/scripts/kernel-tree.sh" || stop "the kernel tree could not be made, or the series does not apply"
host_tap series-sync "$TOP/scripts/check-sync.sh"
host_tap checkpatch "$TOP/scripts/checkpatch.sh"
host_step kernel-build "$TOP/scripts/kernel-build.sh" default || stop "the kernel does not build"
host_step qemu-build "$TOP/scripts/qemu-build.sh" || stop "QEMU does not build"
# The emulator's FEAT_TCR2/FEAT_HAFT, bare metal, on max, haft=off, tcr2=off
# and the test-only x-haft-without-tcr2=on.
host_tap qemu-tests "$TOP/qemu/run-tests.sh"
# The series' kselftest and the mm subset, with the kernel's runner.
host_step kselftest-build "$TOP/scripts/kselftest-build.sh" || stop "the kselftests do not build"
host_step initramfs "$TOP/scripts/initramfs.sh" || stop "the initramfs could not be built"

# Guest suites, on each CPU model / command line the series must handle:
# FEAT_HAFT present and used; absent from the CPU model; present but
# turned off with arm64.nohaft, or with DBM too by id_aa64mmfr1.hafdbs=1;
# override values the kernel rejects (0: impossible, 5: above the CPU's);
# and the test-only CPU model that claims FEAT_HAFT without FEAT_TCR2,
# which must boot without HAFT (a kernel that believes HAFDBS alone takes
# an UNDEF writing TCR2_EL1 there, before the console: earlycon shows it).
suites=boot,haft,lru-nonleaf,hotplug,badinput
# On max the aging benchmark also runs, small (256 MiB, one repetition),
# so that 'make run' and 'make bench' cannot rot unnoticed.
guest guest-max -c max -r "$suites,bench-age" -t 900 \
	-a "lab.bench_mib=256 lab.bench_reps=1 lab.bench_scen=cold,sparse"
host_step bench-headline "$TOP/scripts/bench-report.py" --headline "$RES/guest-max.log"
guest guest-haft-off -c max,haft=off -r "$suites" -t 600
guest guest-nohaft -c max -a arm64.nohaft -r "$suites" -t 600
guest guest-hafdbs1 -c max -a id_aa64mmfr1.hafdbs=1 -r boot,haft -t 300
guest guest-bad-override -c max -a id_aa64mmfr1.hafdbs=0 -r boot,haft -t 300
guest guest-unsafe-override -c max -a id_aa64mmfr1.hafdbs=5 -r boot,haft -t 300
guest guest-haft-no-tcr2 -c max,x-haft-without-tcr2=on -r boot,haft -t 300 \
	-a earlycon=pl011,0x9000000
# The kernel's own mm kselftests (page tables, THP, reclaim) with and
# without FEAT_HAFT: each must pass, and the verdicts must agree.
guest mm-selftests-max -c max -r mm-selftests -t 600
guest mm-selftests-haft-off -c max,haft=off -r mm-selftests -t 600
host_tap mm-selftests-compare "$TOP/scripts/compare-mm-selftests.py" \
	"$RES/mm-selftests-max.log" "$RES/mm-selftests-haft-off.log"
# The kselftest away from the lab's defaults: 500 memcgs before it starts
# (lru_gen_full over 1 MB); two NUMA nodes with node 0 or node 1 small, or
# node 0 without memory; too little memory for its 1 GiB set (it must
# skip, saying why). Without LRU_GEN_STATS: guest-debug-max and
# the stock-current boots below.
guest guest-memcgs -c max -r lru-nonleaf -t 600 -a "lab.memcgs=500 lab.lru_args=-s,256"
NUMA=256,2816 guest guest-numa-small0 -c max -r lru-nonleaf -t 900
NUMA=2816,256 guest guest-numa-small1 -c max -r lru-nonleaf -t 900
NUMA=0,3072 guest guest-numa-nomem0 -c max -r lru-nonleaf -t 900
MEM=768M guest guest-lowmem -c max -r lru-nonleaf -t 300 -a lab.lru_expect=skip
# Short soak on both CPU models ('make soak DURATION=3600' is the long
# one); its boots are guest-soak-max and guest-soak-max-haft-off.
[ -n "$STOPPED" ] || "$TOP/scripts/soak.sh" 45 guest-soak || true
# A KVM host (configs/kvm.config, booted at EL2 with VHE) running an
# inner guest under Debian's arm64 QEMU with -accel kvm -cpu host: our
# kernel and the lab's initramfs inside (guest/tests/kvm). The inner guest
# must detect FEAT_HAFT exactly when the outer CPU has it and pass the
# kselftest (128 MiB), before and after the host took a CPU offline and
# back and put both vCPUs on it; on max the host also ages the VMM's
# memory with 0x0003 and 0x0007 alternated (guest/tests/kvm-age).
if host_step kernel-build-kvm "$TOP/scripts/kernel-build.sh" kvm &&
	host_step kvm-initramfs "$TOP/scripts/kvm-initramfs.sh" kvm; then
	VIRT=1 INITRD="$BUILD/initramfs-kvm.cpio" guest guest-kvm-max -k kvm -c max \
		-r boot,haft,kvm -t 1500 -a lab.kvm_age=3
	VIRT=1 INITRD="$BUILD/initramfs-kvm.cpio" guest guest-kvm-haft-off -k kvm \
		-c max,haft=off -r boot,haft,kvm -t 1500
fi
# The debug kernel (configs/debug.config: DEBUG_VM, DEBUG_VM_PGTABLE,
# PAGE_TABLE_CHECK, lockdep, KASAN, KFENCE, ...), built from the newest
# linux-source-6.12 Debian ships (BASE=newest: 6.12.118 from
# trixie-security, a second tree in build/newest) with LRU_GEN_STATS off
# as distributions build it (configs/nostats.config). So one more full
# build (a new 6.12.y changes headers most files include) proves three
# things: the series applies to and builds on that tree, the kselftest
# reads the cumulative walk counters, and nothing splats under the debug
# checks. It runs boot, HAFT, the kselftest and a short soak (with
# hotplug, then the kselftest pinned to CPU1), with zero splats.
# Everything is several times slower on it under TCG: smaller sets and
# stressors, and RCU's stall timeout at 120 s (a preempted nice-19
# khugepaged on the one CPU left during hotplug once starved for 26 s: an
# emulation-speed artefact, not a lockup).
if host_step tree-newest env BASE=newest BUILD="$BUILD/newest" "$TOP/scripts/kernel-tree.sh" &&
	host_step kernel-build-debug env BUILD="$BUILD/newest" "$TOP/scripts/kernel-build.sh" debug+nostats; then
	guest guest-debug-max -K "$BUILD/newest/kernel-debug+nostats/arch/arm64/boot/Image" \
		-c max -r boot,haft,lru-nonleaf,soak -t 1800 \
		-a "lab.lru_args=-s,256 lab.soak_seconds=60 rcupdate.rcu_cpu_stall_timeout=120"
fi
# Debian's own 6.12 kernel (no series) still boots on the patched QEMU.
if host_step stock-kernel-fetch "$TOP/scripts/stock-kernel.sh"; then
	guest stock-max -K "$("$TOP/scripts/stock-kernel.sh" 2>/dev/null)" -c max -r boot -t 300
fi
# Debian's current arm64 kernel (sid or trixie-backports; mainline with
# its own FEAT_HAFT support, LRU_GEN_STATS off, 52-bit VA with 5 levels):
# the kselftest must pass, or skip its non-leaf cases, on a kernel nobody
# here wrote, and mainline's FEAT_HAFT code cross-checks the emulator.
if host_step stock-current-fetch "$TOP/scripts/stock-kernel.sh" current; then
	img=$("$TOP/scripts/stock-kernel.sh" current 2>/dev/null)
	guest stock-current-max -K "$img" -c max -r boot,haft,lru-nonleaf -t 900
	guest stock-current-haft-off -K "$img" -c max,haft=off -r boot,haft,lru-nonleaf -t 900
fi

summary
