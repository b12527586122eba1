#!/bin/bash
# 'make test': everything that must pass, in dependency order. The plan
# below names every step and boot; scripts/steps.sh runs them and
# scripts/verdict.py judges each against what is expected of it (exit
# status, TAP plan and numbering, the guest suites asked for). A step that
# the rest depends on stops the run; whatever did not run is a failure in
# the summary. Ends with 'N passed, N failed'; exits non-zero on any
# failure. build/results/report.ktap holds the whole run as nested KTAP.
# Steps and boots run side by side as their inputs allow and the CPUs
# take them (run_plan in scripts/steps.sh; LAB_SLOTS): downloads beside
# builds, boots side by side. Each item's start and end are in
# build/results/times, and scripts/timing.py prints them at the end, with
# an estimate of a cold run that warns when it would pass 45 minutes on a
# machine 1.7 times slower (CI has 90).
# 'test.sh x86' ('make x86') does the same for the rows whose targets
# include x86, after deps and tree only, with its results in
# build/results/x86 (the rows are named x86/NAME), apart from make test's.
. "$(dirname "$0")/lib.sh"
target=${1:-test}
case $target in test) ;; x86) RES=${RES:-$BUILD/results/x86} ;; *) die "usage: test.sh [x86]" ;; esac
. "$TOP/scripts/steps.sh"
# A failing step is recorded and the run goes on (or stops, below): the
# summary decides.
set +e

# The plan: the host steps below, and the rows of the table of boots
# ($TOP/boots) whose targets include test, in the table's order. Before a
# row come the host steps that make its kernel and initramfs (row_needs);
# after the last row whose log it reads comes a host step that reads logs
# (late). The plan is that whole sequence, made up front; it is the order
# of the report, and the order in which ready host steps are started
# (ready rows start longest first: 'order', below).
# The kselftest's mainline form is built before the initramfs, which
# carries it (build/guest-extra/kselftest-mainline) for every row: from
# Debian's newest kernel source (scripts/mainline-tree.sh, a git tree in
# build/mainline) with that tree's selftests Makefile.
first=(harness-test deps tree series-sync checkpatch kernel-build qemu-build
	qemu-tests harness-qemu kselftest-build mainline-tree mainline-selftest-build initramfs)
late=(bench-headline mm-selftests-compare results-collect)
declare -A reads=(
	# The headline of the small aging benchmark guest-max runs, so that
	# 'make run' and 'make bench' cannot rot unnoticed.
	[bench-headline]="guest-max"
	# The kernel's own mm kselftests with and without FEAT_HAFT: each must
	# pass, and the verdicts must agree.
	[mm-selftests-compare]="mm-selftests-max mm-selftests-haft-off"
	# The facts results/README.md and the cover letter quote, read from
	# this run's logs into build/results/test.json ('make results'
	# publishes them), so that the reading cannot rot unnoticed.
	[results-collect]="guest-max guest-memcgs guest-lowmem guest-soak-max guest-soak-max-haft-off guest-kvm-max stock-current-max"
)
[ "$target" = test ] || first=(deps tree) late=()
# row_needs ROW : the host steps that make ROW's kernel and initramfs, in
# order (the default kernel and the lab's initramfs are in 'first').
row_needs() {
	boot_row "$1"
	case $ROW_KERNEL in
	default) ;;
	# The debug kernel (configs/debug.config) on the newest 6.12.y, and
	# 16 KiB pages: rows of make check since issue 45 (check.sh's debug
	# and p16k gates); a test row may still name them.
	newest/debug+nostats) echo tree-newest kernel-build-debug ;;
	p16k) echo kernel-build-p16k ;;
	# Debian's own 6.12 (no series) and its current kernel (mainline with
	# its own FEAT_HAFT support): kernels nobody here wrote.
	stock:6.12) echo stock-kernel-fetch ;;
	stock:current) echo stock-current-fetch ;;
	# Debian's amd64 kernels on Debian's qemu-system-x86 (deps-x86), with
	# the kselftest and an initramfs built for x86-64.
	x86:6.12) echo deps-x86 kselftest-build-x86 initramfs-x86 x86-kernel-fetch ;;
	x86:current) echo deps-x86 kselftest-build-x86 initramfs-x86 x86-current-fetch ;;
	*) die "test.sh builds no kernel '$ROW_KERNEL' (row $1 of ${BOOTS#"$TOP"/})" ;;
	esac
	case ",$ROW_SUITES," in
	*,lru-mainline,*) echo mainline-tree mainline-selftest-build ;;
	esac
	case "+$ROW_MACHINE+" in
	*+initrd=kvm+*) echo kvm-fetch kvm-initramfs ;;
	*+initrd=apps+*)
		case $ROW_KERNEL in
		x86:*) echo apps-initramfs-x86 ;;
		*) echo apps-fetch apps-initramfs ;;
		esac
		;;
	*+initrd=*) die "test.sh makes no initramfs for row $1 ($ROW_MACHINE)" ;;
	esac
}
# host NAME : run the host step NAME
host() {
	case $1 in
	# The judge itself first: each crafted failure must be caught (seconds).
	harness-test) host_tap harness-test "$TOP/scripts/harness-test.sh" --no-qemu ;;
	# ... and its cases that ask the lab's QEMU, once it is built.
	harness-qemu) host_tap harness-qemu "$TOP/scripts/harness-test.sh" --qemu ;;
	deps) host_step deps "$TOP/scripts/deps.sh" ;;
	tree) host_step tree "$TOP/scripts/kernel-tree.sh" ;;
	series-sync) host_tap series-sync "$TOP/scripts/check-sync.sh" ;;
	checkpatch) host_tap checkpatch "$TOP/scripts/checkpatch.sh" ;;
	kernel-build) host_step kernel-build "$TOP/scripts/kernel-build.sh" default ;;
	qemu-build) host_step qemu-build "$TOP/scripts/qemu-build.sh" ;;
	# The emulator's FEAT_TCR2/FEAT_HAFT, bare metal, on max, haft=off,
	# tcr2=off and the test-only x-haft-without-tcr2=on.
	qemu-tests) host_tap qemu-tests "$TOP/qemu/run-tests.sh" ;;
	# The series' kselftest and the mm subset, with the kernel's runner.
	kselftest-build) host_step kselftest-build "$TOP/scripts/kselftest-build.sh" ;;
	mainline-tree) host_step mainline-tree "$TOP/scripts/mainline-tree.sh" ;;
	mainline-selftest-build) host_step mainline-selftest-build "$TOP/scripts/mainline-selftest-build.sh" \
		"$BUILD/mainline/linux" "$BUILD/guest-extra/kselftest-mainline" ;;
	initramfs) host_step initramfs "$TOP/scripts/initramfs.sh" ;;
	kernel-build-p16k) host_step kernel-build-p16k "$TOP/scripts/kernel-build.sh" p16k ;;
	# The KVM host rows' initramfs: Debian's arm64 QEMU for the inner
	# guest, whose kernel is the default one (a KVM host too).
	kvm-initramfs) host_step kvm-initramfs "$TOP/scripts/kvm-initramfs.sh" default ;;
	# Debian's servers for the real-application benchmark (bench-apps).
	# Their packages (and the KVM rows' QEMU) are fetched early, beside the
	# builds; the initramfs step then only packs them.
	apps-fetch) host_step apps-fetch "$TOP/scripts/apps-initramfs.sh" --fetch ;;
	kvm-fetch) host_step kvm-fetch "$TOP/scripts/kvm-initramfs.sh" --fetch ;;
	apps-initramfs) host_step apps-initramfs "$TOP/scripts/apps-initramfs.sh" ;;
	apps-initramfs-x86) host_step apps-initramfs-x86 env LAB_ARCH=x86 "$TOP/scripts/apps-initramfs.sh" ;;
	tree-newest) host_step tree-newest env BASE=newest BUILD="$BUILD/newest" "$TOP/scripts/kernel-tree.sh" ;;
	kernel-build-debug) host_step kernel-build-debug env BUILD="$BUILD/newest" "$TOP/scripts/kernel-build.sh" debug+nostats ;;
	stock-kernel-fetch) host_step stock-kernel-fetch "$TOP/scripts/stock-kernel.sh" ;;
	stock-current-fetch) host_step stock-current-fetch "$TOP/scripts/stock-kernel.sh" current ;;
	deps-x86) host_step deps-x86 env LAB_ARCH=x86 "$TOP/scripts/deps.sh" ;;
	kselftest-build-x86) host_step kselftest-build-x86 env LAB_ARCH=x86 "$TOP/scripts/kselftest-build.sh" ;;
	initramfs-x86) host_step initramfs-x86 env LAB_ARCH=x86 "$TOP/scripts/initramfs.sh" ;;
	x86-kernel-fetch) host_step x86-kernel-fetch env LAB_ARCH=x86 "$TOP/scripts/stock-kernel.sh" ;;
	x86-current-fetch) host_step x86-current-fetch env LAB_ARCH=x86 "$TOP/scripts/stock-kernel.sh" current ;;
	bench-headline) host_step bench-headline "$TOP/scripts/bench-report.py" --headline "$RES/guest-max.log" ;;
	results-collect) host_step results-collect python3 "$TOP/scripts/results.py" collect "$RES" "$RES/test.json" ;;
	mm-selftests-compare) host_tap mm-selftests-compare "$TOP/scripts/compare-mm-selftests.py" \
		"$RES/mm-selftests-max.log" "$RES/mm-selftests-haft-off.log" ;;
	*) die "test.sh has no host step '$1'" ;;
	esac
}

# critical[STEP]: why the run stops when STEP fails; nothing after it
# could mean anything.
declare -A critical=(
	[harness-test]="the harness does not judge failures as failures"
	[deps]="dependencies could not be installed"
	[tree]="the kernel tree could not be made, or the series does not apply"
	[kernel-build]="the kernel does not build"
	[qemu-build]="QEMU does not build"
	[kselftest-build]="the kselftests do not build"
	[initramfs]="the initramfs could not be built"
)
# step_needs STEP : the host steps that must have passed before STEP
# starts (its inputs). The late steps read rows' logs instead (reads).
step_needs() {
	case $1 in
	# deps runs beside the harness's own test (its packages download
	# while the judge is judged); every row still needs both.
	harness-test | deps) ;;
	tree | qemu-build | mainline-tree | tree-newest | deps-x86 | stock-kernel-fetch | stock-current-fetch | apps-fetch | kvm-fetch) echo deps ;;
	series-sync | checkpatch | kernel-build | kselftest-build | kernel-build-[!d]*) echo tree ;;
	kernel-build-debug) echo tree-newest ;;
	qemu-tests | harness-qemu) echo qemu-build ;;
	mainline-selftest-build) echo mainline-tree ;;
	initramfs) echo kselftest-build ;;
	kvm-initramfs) echo initramfs kvm-fetch "$(row_kernel_step "${kvm_kernel:-}")" ;;
	apps-initramfs) echo initramfs apps-fetch ;;
	kselftest-build-x86) echo tree deps-x86 ;;
	initramfs-x86) echo kselftest-build-x86 ;;
	apps-initramfs-x86) echo initramfs-x86 ;;
	x86-kernel-fetch | x86-current-fetch) echo deps-x86 ;;
	esac
}
# step_after STEP : steps that must have ended, passed or not, before STEP
# starts: what STEP reads if it is there, or a work directory it shares.
step_after() {
	case $1 in
	# The initramfs carries the mainline form when it was built.
	initramfs) echo mainline-selftest-build ;;
	# The x86 builds share build/initramfs-tools and the guest package
	# cache with the arm64 ones.
	kselftest-build-x86) echo kselftest-build ;;
	initramfs-x86) echo initramfs ;;
	esac
}
# row_kernel_step KERNEL : the host step that builds a row kernel
row_kernel_step() {
	case $1 in
	default) echo kernel-build ;;
	p16k) echo kernel-build-p16k ;;
	newest/debug+nostats) echo kernel-build-debug ;;
	esac
}
# How many of the host's CPUs a step keeps busy: a build runs make -j
# $JOBS; a boot, a QEMU test or a script about one; a download (the 'net'
# steps, one at a time) almost none. make test runs steps side by side
# while their weights fit in LAB_SLOTS (default: one more than the CPUs:
# a boot's second vCPU and a build's link and packing phases leave a CPU
# idle much of the time).
LAB_SLOTS=${LAB_SLOTS:-$(($(nproc) + 1))}
weight() {
	case $1 in
	deps | deps-x86 | *-fetch) echo 0 ;;
	kernel-build* | qemu-build | kselftest-build* | mainline-selftest-build)
		echo $((JOBS < LAB_SLOTS ? JOBS : LAB_SLOTS)) ;;
	*) echo 1 ;;
	esac
}
# The steps that use the network (and the host's apt, for deps) go one at
# a time, beside everything else.
is_net() {
	case $1 in
	deps | deps-x86 | *-fetch | tree-newest | mainline-tree) return 0 ;;
	esac
	return 1
}

rows=$(boot_rows "$target") || exit 1
[ -n "$rows" ] || die "no row of ${BOOTS#"$TOP"/} is for $target"
# The plan: the host steps and the rows in dependency order (the order of
# report.ktap and of the summary); what runs when is decided below.
# needs[X]: what must have passed for X to start; after[X]: what must
# have ended.
declare -A is_row=() needs=() after=() in_seq=()
seq=()
add() { [ -n "${in_seq[$1]:-}" ] || { seq+=("$1"); in_seq[$1]=1; }; }
for s in "${first[@]}"; do add "$s"; done
core=()
for s in "${first[@]}"; do [ -z "${critical[$s]:-}" ] || core+=("$s"); done
for r in $rows; do
	is_row[$r]=1
	rn=$(row_needs "$r") || exit 1
	boot_row "$r"
	[ "${ROW_MACHINE#*initrd=kvm}" = "$ROW_MACHINE" ] || kvm_kernel=$ROW_KERNEL
	for s in $rn; do add "$s"; done
	# A row needs the core steps (critical: any of them failing stops the
	# run) that exist in this target, and its own.
	needs[$r]="${core[*]} $rn"
	add "$r"
	for s in "${late[@]}"; do
		ready=1
		for x in ${reads[$s]}; do [ -n "${is_row[$x]:-}" ] || ready=0; done
		[ $ready = 0 ] || add "$s"
	done
done
for s in "${late[@]}"; do
	[ -n "${in_seq[$s]:-}" ] || die "$s reads the logs of '${reads[$s]}', not all of them rows for test in ${BOOTS#"$TOP"/}"
	after[$s]=${reads[$s]}
done
# results-collect writes build/results/test.json from every row's log:
# after all of them, not only those it must find facts in.
[ -z "${in_seq[results-collect]:-}" ] || after[results-collect]="${!is_row[*]}"
for s in "${seq[@]}"; do
	[ -z "${is_row[$s]:-}" ] || continue
	if [ -z "${after[$s]:-}" ]; then
		# Only what this target plans (make x86 has no kselftest-build).
		for x in $(step_after "$s"); do
			[ -z "${in_seq[$x]:-}" ] || after[$s]="${after[$s]:-} $x"
		done
	fi
	for x in $(step_needs "$s"); do
		# A need outside this target's plan (make x86 has no kernel-build)
		# is nobody's to meet.
		[ -z "${in_seq[$x]:-}" ] || needs[$s]="${needs[$s]:-} $x"
	done
done
plan "${seq[@]}"
# Ready rows start longest first, by their time in the last published
# runs (results/timing.json: the warm run's, else the cold run's; a row
# in neither counts 60 s), so that no long boot is left to run alone at
# the end; host steps keep the plan's order. The report keeps it too.
mapfile -t order < <(for s in "${seq[@]}"; do [ -n "${is_row[$s]:-}" ] || echo "$s"; done
	python3 - "$TOP/results/timing.json" "${!is_row[@]}" <<'PY'
import json, sys
try:
    with open(sys.argv[1]) as f:
        pub = json.load(f)
except (OSError, ValueError):
    pub = {}
t = {}
for kind in ("cold", "warm"):
    for k, v in ((pub.get(kind) or {}).get("steps") or {}).items():
        t[k] = v[1]
print("\n".join(sorted(sys.argv[2:], key=lambda x: (-t.get(x, 60), x))))
PY
)
[ ${#order[@]} = ${#seq[@]} ] || {
	warn "could not order the rows by their published times (results/timing.json): starting them in the plan's order"
	order=("${seq[@]}")
}

# Cold: nothing built or fetched yet, as on CI's fresh machine.
cold=no
[ -d "$CACHE/ccache" ] || cold=yes
printf 'cold %s\nslots %s\ncpus %s\ncommit %s\ndate %s\ntarget %s\n' "$cold" "$LAB_SLOTS" "$(nproc)" \
	"$(git -C "$TOP" rev-parse --short=12 HEAD 2>/dev/null)" "$(date -u +%F)" "$target" >"$RES/run-info"
# A row that 'make soak' also runs goes through scripts/soak.sh (45 s).
run_item() {
	if [ -z "${is_row[$1]:-}" ]; then
		host "$1"
		return
	fi
	boot_row "$1"
	if [[ ",$ROW_TARGETS," == *,soak,* ]]; then
		guest "$1" "$TOP/scripts/soak.sh" 45 "$1"
	else
		guest "$1"
	fi
}
run_plan
python3 "$TOP/scripts/timing.py" report "$RES" || true
summary
