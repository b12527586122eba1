#!/bin/bash
# 'make test': everything that must pass, in dependency order. The plan
# below names every step and boot; scripts/steps.sh runs them and
# scripts/verdict.py judges each against what is expected of it (exit
# status, TAP plan and numbering, the guest suites asked for). A step that
# the rest depends on stops the run; whatever did not run is a failure in
# the summary. Ends with 'N passed, N failed'; exits non-zero on any
# failure. build/results/report.ktap holds the whole run as nested KTAP.
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

# The run: the host steps below, and the rows of the table of boots
# ($TOP/boots) whose targets include test, in the table's order. Before a
# row come the host steps that make its kernel and initramfs (row_needs);
# after the last row whose log it reads comes a host step that reads logs
# (late). The plan is that whole sequence, made up front.
# The kselftest's mainline form is built before the initramfs, which
# carries it (build/guest-extra/kselftest-mainline) for every row: from
# Debian's newest kernel source (scripts/mainline-tree.sh, a git tree in
# build/mainline) with that tree's selftests Makefile.
first=(harness-test deps tree series-sync checkpatch kernel-build qemu-build
	qemu-tests kselftest-build mainline-tree mainline-selftest-build initramfs)
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
	# A KVM host (configs/kvm.config, booted at EL2 with VHE) and its
	# initramfs with Debian's arm64 QEMU for the inner guest.
	kvm) echo kernel-build-kvm ;;
	# The debug kernel (configs/debug.config: DEBUG_VM, PAGE_TABLE_CHECK,
	# lockdep, KASAN, ...) with LRU_GEN_STATS off as distributions build
	# it, on the newest linux-source-6.12 Debian ships (BASE=newest, a
	# second tree in build/newest): the series applies to and builds on
	# that tree, and nothing splats under the debug checks.
	newest/debug+nostats) echo tree-newest kernel-build-debug ;;
	# 16 KiB pages (configs/p16k.config): the kselftest sizes its set
	# from the PMD span (32 MiB). The 64 KiB build is make check's.
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
	*+initrd=kvm+*) echo kvm-initramfs ;;
	*+initrd=apps+*)
		case $ROW_KERNEL in
		x86:*) echo apps-initramfs-x86 ;;
		*) echo apps-initramfs ;;
		esac
		;;
	*+initrd=*) die "test.sh makes no initramfs for row $1 ($ROW_MACHINE)" ;;
	esac
}
# host NAME : run the host step NAME
host() {
	case $1 in
	# The judge itself first: each crafted failure must be caught (seconds).
	harness-test) host_tap harness-test "$TOP/scripts/harness-test.sh" || stop "the harness does not judge failures as failures" ;;
	deps) host_step deps "$TOP/scripts/deps.sh" || stop "dependencies could not be installed" ;;
	tree) host_step tree "$TOP/scripts/kernel-tree.sh" || stop "the kernel tree could not be made, or the series does not apply" ;;
	series-sync) host_tap series-sync "$TOP/scripts/check-sync.sh" ;;
	checkpatch) host_tap checkpatch "$TOP/scripts/checkpatch.sh" ;;
	kernel-build) host_step kernel-build "$TOP/scripts/kernel-build.sh" default || stop "the kernel does not build" ;;
	qemu-build) host_step qemu-build "$TOP/scripts/qemu-build.sh" || stop "QEMU does not build" ;;
	# The emulator's FEAT_TCR2/FEAT_HAFT, bare metal, on max, haft=off,
	# tcr2=off and the test-only x-haft-without-tcr2=on.
	qemu-tests) host_tap qemu-tests "$TOP/qemu/run-tests.sh" ;;
	# The series' kselftest and the mm subset, with the kernel's runner.
	kselftest-build) host_step kselftest-build "$TOP/scripts/kselftest-build.sh" || stop "the kselftests do not build" ;;
	mainline-tree) host_step mainline-tree "$TOP/scripts/mainline-tree.sh" ;;
	mainline-selftest-build) host_step mainline-selftest-build "$TOP/scripts/mainline-selftest-build.sh" \
		"$BUILD/mainline/linux" "$BUILD/guest-extra/kselftest-mainline" ;;
	initramfs) host_step initramfs "$TOP/scripts/initramfs.sh" || stop "the initramfs could not be built" ;;
	kernel-build-kvm) host_step kernel-build-kvm "$TOP/scripts/kernel-build.sh" kvm ;;
	kernel-build-p16k) host_step kernel-build-p16k "$TOP/scripts/kernel-build.sh" p16k ;;
	kvm-initramfs) host_step kvm-initramfs "$TOP/scripts/kvm-initramfs.sh" kvm ;;
	# Debian's servers for the real-application benchmark (bench-apps).
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

rows=$(boot_rows "$target") || exit 1
[ -n "$rows" ] || die "no row of ${BOOTS#"$TOP"/} is for $target"
# before[X]: what must have passed for X to run: for a row, the steps it
# needs; for such a step, the steps listed before it for the same row.
declare -A is_row=() before=() in_seq=()
seq=()
add() { [ -n "${in_seq[$1]:-}" ] || { seq+=("$1"); in_seq[$1]=1; }; }
for s in "${first[@]}"; do add "$s"; done
[ -z "${in_seq[mainline-tree]:-}" ] || before[mainline-selftest-build]=mainline-tree
for r in $rows; do
	is_row[$r]=1
	needs=$(row_needs "$r") || exit 1
	prev=
	for s in $needs; do
		[ -n "${in_seq[$s]:-}" ] || before[$s]=$prev
		add "$s"
		prev="$prev $s"
	done
	before[$r]=$prev
	add "$r"
	for s in "${late[@]}"; do
		ready=1
		for x in ${reads[$s]}; do [ -n "${is_row[$x]:-}" ] || ready=0; done
		[ $ready = 0 ] || add "$s"
	done
done
for s in "${late[@]}"; do
	[ -n "${in_seq[$s]:-}" ] || die "$s reads the logs of '${reads[$s]}', not all of them rows for test in ${BOOTS#"$TOP"/}"
done
plan "${seq[@]}"

# Run the sequence, each item once, in order. A step a row needs runs only
# when the steps before it passed, and the row boots only when all its
# steps passed; otherwise it stays never judged: a failure in the summary.
# A row that 'make soak' also runs goes through scripts/soak.sh (45 s).
declare -A passed=()
for s in "${seq[@]}"; do
	ok=1
	for x in ${before[$s]:-}; do [ -n "${passed[$x]:-}" ] || ok=0; done
	[ $ok = 1 ] || continue
	if [ -z "${is_row[$s]:-}" ]; then
		host "$s" && passed[$s]=1
		continue
	fi
	boot_row "$s"
	if [[ ",$ROW_TARGETS," == *,soak,* ]]; then
		guest "$s" "$TOP/scripts/soak.sh" 45 "$s"
	else
		guest "$s"
	fi
done

summary
