#!/bin/bash
# 'make check': the gates that rebuild most of the kernel (and boot what
# they build) and so do not fit in CI's budget. Run it before changing
# patches/, configs/ or the QEMU queue.
#  1. variants: the series builds with ARM64_HAFT=n, TRANSPARENT_HUGEPAGE=n,
#     LRU_GEN=n, 52-bit VA/LPA2 (5 levels) and 64 KiB pages; the last two
#     and the one without THP are also booted (16 KiB pages: gate p16k);
#  2. W=1: the C files the series modifies have no more W=1 warnings than
#     on the base;
#  3. bisect: every prefix of the series builds with the default fragment;
#  4. lie: the safety nets catch a kernel that uses table Access flags
#     without FEAT_HAFT (arch_has_hw_nonleaf_pmd_young() made always true,
#     DEBUG_VM on, booted on max,haft=off): the kselftest must fail and
#     pmdp_test_and_clear_young() must warn.
#  4a. skipmm: the kselftest's positive control: a kernel whose walk skips
#     the mm on every second walk without force_scan (the cold walk of
#     each case) must fail the cold case with non-leaf young on, by its
#     sentinel (young 0, no table entered).
#  4b. onetable: a kernel whose walk, with non-leaf young on, skips the
#     first young PTE table of each walk of an mm as if its flag were clear
#     must fail the kselftest's cases with non-leaf young on that count
#     tables of small pages (cold set, hot regions, new table), each as a
#     failure, not a skip, and pass the others: one wrongly skipped table
#     fails it.
#  4c. noaf: a kernel that makes user PTE tables with the Access flag of
#     their PMD entry clear (patch 5 undone in __pmd_populate()) must fail
#     the kselftest's new table case with non-leaf young on, and only it:
#     a table filled without the CPU walking it is then skipped.
#  4e. earlyaf: a kernel whose early tables (pi/map_range.c, patch 5
#     undone) keep the Access flag clear must fail the ktables suite on a
#     CPU without FEAT_HAFT (check-earlyaf-boot); the same kernel on -cpu
#     max reports how many the hardware left clear (check-earlyaf-max).
#  4f. kabiassert: the series with a capability inserted before HAFT must
#     fail to build cpufeature.o at patch 7's assertion.
#  4d. ksftconfig: a kernel from arm64's defconfig, virt.config and the
#     kselftest's own config fragment builds, keeps what the series adds to
#     that fragment, and runs the kselftest (row check-ksftconfig-boot).
#  5. mainline: the fix for mainline in upstream/tcr2-fix: Debian's newest
#     mainline source (scripts/mainline-tree.sh) is built as it is and with
#     the fix, both are booted on a CPU that claims FEAT_HAFT without
#     FEAT_TCR2 (max,x-haft-without-tcr2=on); the unpatched kernel must
#     detect FEAT_HAFT and fail the kselftest's non-leaf cases, the patched
#     one must pass there, and on -cpu max use FEAT_HAFT and pass. The
#     patch must be checkpatch --strict clean. The branch's KVM patch
#     (take FEAT_HAFT away from a VM whose VMM hid FEAT_TCR2, as 7.3
#     does for S1PIE and S1POE) is booted as a KVM host on both kernels:
#     unpatched, guest/src/kvm-idregs must see HAFDBS=3 reach the guest
#     with TCRX=0 and the KVM selftest tcr2_idregs must fail; patched,
#     the guest must see none of the three, and tcr2_idregs,
#     hidden_features and set_id_regs must pass. The kselftest's mainline
#     form (upstream/lru-gen-selftest) must be checkpatch clean too (make
#     test builds it with that tree's selftests Makefile and runs it).
#  6. damon: the RFC in upstream/damon-young (MGLRU's walks take the
#     accesses idle page tracking and DAMON keep in PG_young, and clear
#     PG_idle) on Debian's newest mainline source with idle page tracking
#     (configs/idle.config): checkpatch clean; its test (the mainline form
#     with an idle page tracking case, SERIES=damon-young
#     scripts/mainline-selftest-build.sh) must fail that case, and only
#     that one, on the unpatched kernel, and pass whole with the fix.
#  7. kvm: the longer KVM runs (make test has short ones): the inner guest
#     runs the kselftest with its 1 GiB set and the host ages the VMM's
#     memory over five alternations; and a KVM host kernel that uses table
#     Access flags for an mm with MMU notifiers (the !mm_has_notifiers()
#     tests taken out of mm/vmscan.c) must fail the host aging check.
#  8. modabi: the module ABI: the base and the series built with
#     configs/modversions.config (CONFIG_MODVERSIONS); every symbol both
#     export keeps its CRC; a module built against the base (guest/modabi)
#     loads into the series' kernel and reads system_cpucaps; the series
#     without its __GENKSYMS__ guard changes system_cpucaps' CRC, and no
#     other, and refuses that module.
#  9. qemu: QEMU's own suites on the lab's QEMU build (qemu/qemu-suites.sh):
#     the aarch64-softmmu system TCG tests, the queue's pie-dirty and haft
#     among them, and the arm-cpu-features qtest; each test one result.
# 10. debug: the debug kernel (configs/debug.config: DEBUG_VM,
#     DEBUG_VM_PGTABLE, PAGE_TABLE_CHECK, lockdep, KASAN, KFENCE, ...) with
#     LRU_GEN_STATS off as distributions build it (nostats.config), from
#     the newest linux-source-6.12 Debian ships (build/newest), booted with
#     the boot, HAFT and kselftest suites and a 60 s soak (row
#     check-debug-max): nothing splats.
# 11. p16k: 16 KiB pages (configs/p16k.config), as Android's 16K builds of
#     6.12 use, built and booted (row check-16k-boot).
# debug and p16k ran in make test until issue 45 (2026-12-05): they took
# 30 of a cold run's 67 summed minutes. Every gate's result,
# time and the series' hash go to results/check.json
# (scripts/check-record.py), and make test's series-sync fails when that
# file does not show debug and p16k passing on the series as it is.
# Each build directory starts as a copy of build/kernel-default, so Kbuild
# only recompiles what the change of config or of tree touches.
# CHECKS="variants w1 bisect" selects; prints TAP, ends 'N passed, N failed'.
# Its boots are the table's check rows (boots at the top): check-debug-max
# (kernel newest/debug+nostats: build/newest/kernel-debug+nostats),
# check-16k-boot (build/kernel-p16k), check-va52-boot,
# check-64k-boot, check-nothp-boot, check-lie-boot (kernel lie: build/kernel-lie),
# check-skipmm-boot (kernel skipmm: build/kernel-skipmm),
# check-onetable-boot (kernel onetable: build/kernel-onetable),
# check-noaf-boot (kernel noaf: build/kernel-noaf),
# check-earlyaf-boot and -max (kernel earlyaf: build/kernel-earlyaf),
# check-ksftconfig-boot (kernel ksftconfig: build/kernel-ksftconfig),
# check-mainline-base, check-damon-young-base and -fix (build/kernel-mainline-idle-base
# and -fix),
# check-mainline-fix and check-mainline-fix-max (build/kernel-mainline-base
# and -fix, the latter started from a copy of the former),
# check-mainline-kvm-base and -fix (the same two, as KVM hosts),
# check-kvm-long,
# check-kvm-lie-boot (kernel kvm-lie: build/kernel-kvm-lie), and
# check-modabi-load and -refuse (build/kernel-modversions and
# build/kernel-modabi-noguard; the base's build is build/check-modabi-base).
. "$(dirname "$0")/lib.sh"
tree=$BUILD/linux
wt=$BUILD/check-tree
all_checks="variants w1 bisect lie skipmm onetable noaf earlyaf kabiassert ksftconfig mainline damon kvm modabi qemu debug p16k"
checks=${CHECKS:-$all_checks}
for c in $checks; do
	case " $all_checks " in *" $c "*) ;; *) die "unknown check '$c' (${all_checks// /, })" ;; esac
done
pass=0 fail=0
result() { # result STATUS DESC
	tap_result "$1" "$2"
	if [ "$1" = 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}
seed() { # seed DIR: start DIR from the default build
	[ -d "$1" ] || cp -a "$BUILD/kernel-default" "$1"
}
build() { # build LOG DESC ARGS...: run kernel-build.sh, report
	local log=$1 desc=$2 rc=0
	shift 2
	say "check: $desc"
	"$TOP/scripts/kernel-build.sh" "$@" >"$log" 2>&1 || rc=$?
	[ $rc = 0 ] || tail -n 30 "$log" | sed 's/^/# /'
	result $rc "$desc"
}
# boot_row ROW : boot a row of the table (boots), output in build/ROW.out;
# returns boot.sh's status. row_tail ROW shows the end of that output.
boot_row() { "$TOP/scripts/boot.sh" -b "$1" >"$BUILD/$1.out" 2>&1; }
row_tail() { tail -n 30 "$BUILD/$1.out" | sed 's/^/# /'; }
# mutant NAME FILE MARK N PERL DESC : a mutant kernel. The series' head in
# $wt with FILE edited by the perl program PERL (perl -0pi -e), which must
# add N lines matching MARK, built into build/kernel-NAME (seeded from the
# default build) and booted as row check-NAME-boot, the tree put back
# after the build. Sets mutant_rc (the boot's status) and mutant_log (its
# console log); returns 1, with a failed result, when the edit did not
# take.
mutant() {
	local name=$1 file=$2 mark=$3 want=$4 prog=$5 desc=$6 n
	git -C "$wt" checkout -q --detach "$head"
	perl -0pi -e "$prog" "$wt/$file"
	n=$(git -C "$wt" diff | grep -c "^+.*$mark" || true)
	if [ "$n" != "$want" ]; then
		git -C "$wt" checkout -q -- .
		result 1 "$name: expected to change $file in $want place(s), changed $n"
		return 1
	fi
	seed "$BUILD/kernel-$name"
	KTREE=$wt KOUT=$BUILD/kernel-$name build "$BUILD/check-$name.log" "$name: $desc builds" default
	git -C "$wt" checkout -q -- .
	mutant_rc=0
	boot_row "check-$name-boot" || mutant_rc=$?
	mutant_log=$BUILD/results/check-$name-boot.log
	# A boot that never started (boot.sh refused it) leaves no console
	# log: the gate's checks then read an empty one and fail, and
	# row_tail shows boot.sh's reason.
	if [ ! -f "$mutant_log" ]; then
		row_tail "check-$name-boot"
		: >"$mutant_log"
	fi
}
# boot_result ROW DESC : boot ROW; a result, passing when the boot passed
boot_result() {
	local rc=0
	boot_row "$1" || rc=$?
	[ $rc = 0 ] || row_tail "$1"
	result $rc "$2"
}
# mainline_src GATE : Debian's newest mainline source in build/mainline, with
# upstream/tcr2-fix on its branch (scripts/mainline-tree.sh, log
# build/check-GATE-tree.log); sets mt (the tree) and src (its package and
# version). On failure, a failed result of GATE and a non-zero return.
mainline_src() {
	if ! "$TOP/scripts/mainline-tree.sh" >"$BUILD/check-$1-tree.log" 2>&1; then
		tail -n 20 "$BUILD/check-$1-tree.log" | sed 's/^/# /'
		result 1 "$1: upstream/tcr2-fix applies to Debian's newest mainline source (scripts/mainline-tree.sh)"
		return 1
	fi
	mt=$BUILD/mainline/linux
	src=$(cat "$BUILD/mainline/linux.base")
}
[ -f "$BUILD/kernel-default/arch/arm64/boot/Image" ] || die "build the default kernel first ('make kernel')"
head=$(git -C "$tree" rev-parse HEAD)
commits=$(git -C "$tree" rev-list --reverse base..HEAD)
[ -n "$commits" ] || die "no series applied in build/linux"
if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" base
fi

# Each gate's passes, failures and time, into results/check.json, when
# the next one starts and at the end. The record names the series by the
# hash of patches/ (check-record.py) taken now, when the gates start.
# When build/linux is not patches/ (commits not exported, patches/
# changed since, or edits not committed), what was checked is not that
# series, and the record says 'unexported', which never verifies.
export CHECK_RECORD_SERIES
CHECK_RECORD_SERIES=$(python3 "$TOP/scripts/check-record.py" hash) || die "cannot hash patches/ (scripts/check-record.py)"
# git patch-id ignores the index lines and line numbers, which depend on
# the 6.12.y the tree was made from, and whitespace.
pids() { git patch-id --stable | cut -d' ' -f1 | paste -sd' ' -; }
if [ "$(git -C "$tree" format-patch --stdout base..HEAD | pids)" != "$(series_files "$TOP/patches" | xargs cat | pids)" ] ||
	! git -C "$tree" diff --quiet HEAD; then
	warn "build/linux and patches/ differ: this run's records in results/check.json say 'unexported' ('make patches' first)"
	export CHECK_RECORD_UNEXPORTED=1
fi
gate= gpass=0 gfail=0 gt0=0 tall=$SECONDS
record_gate() {
	[ -n "$gate" ] || return 0
	local p=$((pass - gpass)) f=$((fail - gfail)) s=$((SECONDS - gt0))
	echo "# gate $gate: $p passed, $f failed in $((s / 60)):$(printf %02d $((s % 60)))"
	python3 "$TOP/scripts/check-record.py" write "$gate" $p $f $s || warn "could not record gate $gate in results/check.json"
}
for c in $checks; do
	record_gate
	gate=$c gpass=$pass gfail=$fail gt0=$SECONDS
	say "check: gate $c"
	case $c in
	variants)
		for v in nohaft nothp nolrugen va52 p64k; do
			seed "$BUILD/kernel-$v"
			build "$BUILD/check-$v.log" "variant $v builds" "$v"
		done
		# The 5-level kernel also boots: HAFT sets table Access flags at
		# every level, and -cpu max has LPA2. Needs QEMU and the initramfs
		# ('make build').
		if [ -f "$BUILD/kernel-va52/arch/arm64/boot/Image" ] && [ -x "$QEMU" ] &&
			[ -f "$BUILD/initramfs.cpio" ]; then
			boot_result check-va52-boot "variant va52 boots on -cpu max: boot, HAFT, kselftest, hotplug suites pass"
		else
			result 1 "variant va52 boots (no va52 Image, QEMU or initramfs: run 'make build')"
		fi
		# Without THP the kselftest's THP cases skip, and nothing fails.
		if [ -f "$BUILD/kernel-nothp/arch/arm64/boot/Image" ] && [ -x "$QEMU" ] &&
			[ -f "$BUILD/initramfs.cpio" ]; then
			boot_result check-nothp-boot "variant nothp boots on -cpu max: boot, HAFT and kselftest suites pass, its THP cases skip"
		else
			result 1 "variant nothp boots (no nothp Image, QEMU or initramfs: run 'make build')"
		fi
		# 64 KiB pages: a PMD spans 512 MiB, and the kselftest's set is
		# two regions of it.
		if [ -f "$BUILD/kernel-p64k/arch/arm64/boot/Image" ] && [ -x "$QEMU" ] &&
			[ -f "$BUILD/initramfs.cpio" ]; then
			boot_result check-64k-boot "variant p64k boots on -cpu max: boot, HAFT, kselftest, hotplug suites pass"
		else
			result 1 "variant p64k boots (no p64k Image, QEMU or initramfs: run 'make build')"
		fi
		;;
	w1)
		objs=$(git -C "$tree" diff --name-only --diff-filter=M base HEAD -- '*.c' ':!tools' | sed 's/\.c$/.o/')
		[ -n "$objs" ] || continue
		seed "$BUILD/check-w1"
		count() { { grep -E 'warning:' "$1" || true; } | { grep -F -f <(echo "$objs" | sed 's/\.o$/.c/') || true; } | sort -u | wc -l; }
		git -C "$wt" checkout -q --detach base
		KTREE=$wt KOUT=$BUILD/check-w1 "$TOP/scripts/kernel-build.sh" default W=1 $objs >"$BUILD/check-w1-base.log" 2>&1 || true
		git -C "$wt" checkout -q --detach "$head"
		rc=0
		KTREE=$wt KOUT=$BUILD/check-w1 "$TOP/scripts/kernel-build.sh" default W=1 $objs >"$BUILD/check-w1.log" 2>&1 || rc=$?
		b=$(count "$BUILD/check-w1-base.log") s=$(count "$BUILD/check-w1.log")
		echo "# W=1 warnings in $(echo $objs | wc -w) touched C file(s): base $b, series $s"
		[ $rc = 0 ] && [ "$s" -le "$b" ] || rc=1
		result $rc "W=1: no new warnings in the C files the series modifies"
		;;
	bisect)
		seed "$BUILD/check-bisect"
		for c in $commits; do
			git -C "$wt" checkout -q --detach "$c"
			KTREE=$wt KOUT=$BUILD/check-bisect build "$BUILD/check-bisect.log" \
				"bisect: builds at '$(git -C "$tree" log -1 --format=%s "$c")'" default
		done
		;;
	lie)
		# A tree that lies, built from the worktree at the series' head.
		git -C "$wt" checkout -q --detach "$head"
		h=$wt/arch/arm64/include/asm/pgtable.h
		sed -i 's/^#define arch_has_hw_nonleaf_pmd_young\tsystem_supports_haft$/#define arch_has_hw_nonleaf_pmd_young()\ttrue/' "$h"
		if git -C "$wt" diff --quiet; then
			git -C "$wt" checkout -q -- .
			result 1 "lie: could not find arch_has_hw_nonleaf_pmd_young in $h"
			continue
		fi
		seed "$BUILD/kernel-lie"
		KTREE=$wt KOUT=$BUILD/kernel-lie build "$BUILD/check-lie.log" \
			"lie: a kernel whose arch_has_hw_nonleaf_pmd_young() is always true builds (DEBUG_VM)" debugvm
		git -C "$wt" checkout -q -- .
		img=$BUILD/kernel-lie/arch/arm64/boot/Image
		if [ -f "$img" ] && [ -x "$QEMU" ] && [ -f "$BUILD/initramfs.cpio" ]; then
			rc=0
			boot_row check-lie-boot || rc=$?
			log=$BUILD/results/check-lie-boot.log
			# Judged a failure, with a failed non-leaf case, and the warning
			# at its line of pgtable.h (inlined into the walk, so the
			# function named is the caller's).
			line=$(grep -n 'VM_WARN_ON_ONCE(pmd_table' "$h" | cut -d: -f1)
			ok=1
			[ $rc != 0 ] && [ -n "$line" ] &&
				grep -q '^ *not ok [0-9]* - .*non-leaf young on' "$log" &&
				grep -q "WARNING: .* at .*arch/arm64/include/asm/pgtable.h:$line " "$log" && ok=0
			[ $ok = 0 ] || row_tail check-lie-boot
			result $ok "lie: on max,haft=off the kselftest fails its non-leaf cases and pmdp_test_and_clear_young() warns"
		else
			result 1 "lie: no Image, QEMU or initramfs ('make build')"
		fi
		;;
	mainline)
		t0=$SECONDS
		mainline_src mainline || continue
		result 0 "mainline: upstream/tcr2-fix applies to Debian's $src"
		# The tree has no history, so checkpatch cannot look up the
		# commit a Fixes: tag names (UNKNOWN_COMMIT_ID); the rest holds.
		# FILE_PATH_CHANGES: the new KVM selftest sits in a directory that
		# MAINTAINERS already gives to KVM/arm64
		# (tools/testing/selftests/kvm/arm64/).
		rc=0
		checkpatch_ok "$mt" "$TOP"/upstream/tcr2-fix/*.patch -- --ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES || rc=1
		result $rc "mainline: upstream/tcr2-fix is checkpatch --strict clean"
		# The kselftest's mainline form: checkpatch clean here; make test
		# builds it with that tree's selftests Makefile and boots it (row
		# mainline-form).
		rc=0
		checkpatch_ok "$mt" "$TOP"/upstream/lru-gen-selftest/*.patch || rc=1
		result $rc "mainline: upstream/lru-gen-selftest is checkpatch --strict clean"
		f0=$fail
		git -C "$mt" checkout -q --detach base
		KTREE=$mt KOUT=$BUILD/kernel-mainline-base build "$BUILD/check-mainline-build-base.log" \
			"mainline: $src builds as Debian ships it" default
		git -C "$mt" checkout -q tcr2-fix
		# Seeded from the unpatched build: only what the fix touches rebuilds.
		[ -d "$BUILD/kernel-mainline-fix" ] || cp -a "$BUILD/kernel-mainline-base" "$BUILD/kernel-mainline-fix"
		KTREE=$mt KOUT=$BUILD/kernel-mainline-fix build "$BUILD/check-mainline-build-fix.log" \
			"mainline: $src builds with upstream/tcr2-fix" default
		# The KVM selftests the branch adds or changes, static, into the
		# initramfs (/lab/kvm-selftests; guest suite kvm-selftests).
		ks=$BUILD/mainline/kvm-selftests
		rc=0
		{
			make -C "$mt" O="$ks/obj" ARCH=arm64 CROSS_COMPILE="$CROSS" headers &&
				make -C "$mt/tools/testing/selftests/kvm" ARCH=arm64 CROSS_COMPILE="$CROSS" \
					OUTPUT="$ks/out" KHDR_INCLUDES="-isystem $ks/obj/usr/include" LDFLAGS=-static \
					"$ks/out/arm64/tcr2_idregs" "$ks/out/arm64/hidden_features" "$ks/out/arm64/set_id_regs"
		} >"$BUILD/check-mainline-kvm-selftests.log" 2>&1 || rc=$?
		! grep -n 'warning:' "$BUILD/check-mainline-kvm-selftests.log" | sed 's/^/# /' || rc=1
		if [ $rc = 0 ]; then
			rm -rf "$BUILD/guest-extra/kvm-selftests"
			install -D -m 755 -t "$BUILD/guest-extra/kvm-selftests" \
				"$ks/out/arm64/tcr2_idregs" "$ks/out/arm64/hidden_features" "$ks/out/arm64/set_id_regs"
			"$TOP/scripts/initramfs.sh" >>"$BUILD/check-mainline-kvm-selftests.log" 2>&1 || rc=$?
		fi
		[ $rc = 0 ] || tail -n 20 "$BUILD/check-mainline-kvm-selftests.log" | sed 's/^/# /'
		result $rc "mainline: the KVM selftests of upstream/tcr2-fix build without warnings (tcr2_idregs, hidden_features, set_id_regs)"
		if ! [ -x "$QEMU" ] || ! [ -f "$BUILD/initramfs.cpio" ]; then
			result 1 "mainline: no QEMU or initramfs ('make build')"
			continue
		fi
		# A failed build leaves the previous Image: boot nothing then.
		[ $fail = "$f0" ] || continue
		# Unpatched: judged a failure, because it detects FEAT_HAFT,
		# lru_gen/enabled reads 0x0007, and a non-leaf young on case of
		# the kselftest finds used tables cold.
		rc=0
		boot_row check-mainline-base || rc=$?
		log=$BUILD/results/check-mainline-base.log
		ok=1
		[ $rc != 0 ] &&
			grep -q 'CPU features: detected: Hardware managed Access Flag for Table Descriptors' "$log" &&
			grep -q "lru_gen/enabled reads the caps for this CPU model: expected '0x0003', got '0x0007'" "$log" &&
			grep -q '^ *not ok [0-9]* - .*non-leaf young on' "$log" && ok=0
		if [ $ok = 0 ]; then
			grep -m3 '^ *not ok [0-9]* - .*non-leaf young on' "$log" | sed 's/^ */# /'
		else
			row_tail check-mainline-base
		fi
		result $ok "mainline: unpatched, on HAFDBS=3 without FEAT_TCR2 it detects FEAT_HAFT, reads 0x0007 and fails the kselftest's non-leaf cases"
		boot_result check-mainline-fix "mainline: with upstream/tcr2-fix, on HAFDBS=3 without FEAT_TCR2 it leaves FEAT_HAFT off (0x0003) and passes the boot, HAFT and kselftest suites"
		# The fix must not cost FEAT_HAFT where it works: on max (FEAT_TCR2
		# too) the patched kernel uses it and passes.
		boot_result check-mainline-fix-max "mainline: with upstream/tcr2-fix, on max (FEAT_HAFT and FEAT_TCR2) it uses FEAT_HAFT (0x0007) and passes the boot, HAFT and kselftest suites"
		# The KVM side, both kernels as KVM hosts. Unpatched: HAFDBS=3
		# reaches a guest without FEAT_TCR2 (kvm-idregs passes expecting
		# that), and tcr2_idregs fails while the two existing tests pass.
		rc=0
		boot_row check-mainline-kvm-base || rc=$?
		log=$BUILD/results/check-mainline-kvm-base.log
		ok=1
		[ $rc != 0 ] &&
			grep -q '^ *ok [0-9]* - KVM_SET_ONE_REG: features that need TCR2_EL1' "$log" &&
			grep -q '^ *not ok [0-9]* - kvm selftest tcr2_idregs' "$log" &&
			grep -q '^ *ok 1 FEAT_HAFT with FEAT_TCR2: shown' "$log" &&
			grep -q 'FEAT_HAFT: guest reads MMFR1 [0-9a-f]*3 ' "$log" &&
			grep -q '^ *ok [0-9]* - kvm selftest hidden_features' "$log" &&
			grep -q '^ *ok [0-9]* - kvm selftest set_id_regs' "$log" && ok=0
		[ $ok = 0 ] || row_tail check-mainline-kvm-base
		result $ok "mainline: unpatched KVM leaves HAFDBS=3 (and only that) to a guest whose VMM cleared TCRX, its TCR2_EL1 write UNDEFs, tcr2_idregs fails, hidden_features and set_id_regs pass"
		boot_result check-mainline-kvm-fix "mainline: with upstream/tcr2-fix, KVM takes FEAT_HAFT and S1PIE (and S1POE, where the host has it) away from a VM without FEAT_TCR2, and tcr2_idregs, hidden_features and set_id_regs pass"
		echo "# mainline gate: $((SECONDS - t0)) s"
		;;
	damon)
		t0=$SECONDS
		mainline_src damon || continue
		rfc=("$TOP"/upstream/damon-young/000[1-9]-*.patch)
		rc=0
		checkpatch_ok "$mt" "${rfc[@]}" || rc=1
		result $rc "damon: upstream/damon-young is checkpatch --strict clean"
		# Its test, built on the branch damon-young (the mainline form,
		# then the RFC), goes into the initramfs.
		slog=$BUILD/check-damon-selftest.log
		if SERIES=damon-young "$TOP/scripts/mainline-selftest-build.sh" "$mt" \
			"$BUILD/guest-extra/kselftest-damon-young" >"$slog" 2>&1 &&
			"$TOP/scripts/initramfs.sh" >>"$slog" 2>&1; then
			result 0 "damon: upstream/damon-young applies to $src after upstream/lru-gen-selftest, and its test builds"
		else
			tail -n 20 "$slog" | sed 's/^/# /'
			result 1 "damon: upstream/damon-young applies to $src after upstream/lru-gen-selftest, and its test builds (see $slog)"
			continue
		fi
		f0=$fail
		git -C "$mt" checkout -q --detach base
		# Seeded from the mainline gate's unpatched build, where there is one.
		[ -d "$BUILD/kernel-mainline-idle-base" ] || [ ! -d "$BUILD/kernel-mainline-base" ] ||
			cp -a "$BUILD/kernel-mainline-base" "$BUILD/kernel-mainline-idle-base"
		KTREE=$mt KOUT=$BUILD/kernel-mainline-idle-base build "$BUILD/check-damon-build-base.log" \
			"damon: $src builds with idle page tracking" idle
		git -C "$mt" checkout -q --detach damon-young
		[ -d "$BUILD/kernel-mainline-idle-fix" ] || [ ! -d "$BUILD/kernel-mainline-idle-base" ] ||
			cp -a "$BUILD/kernel-mainline-idle-base" "$BUILD/kernel-mainline-idle-fix"
		KTREE=$mt KOUT=$BUILD/kernel-mainline-idle-fix build "$BUILD/check-damon-build-fix.log" \
			"damon: $src builds with upstream/damon-young and idle page tracking" idle
		git -C "$mt" checkout -q tcr2-fix
		[ $fail = "$f0" ] || continue
		# Unpatched: the idle page tracking case fails, every other passes.
		rc=0
		boot_row check-damon-young-base || rc=$?
		log=$BUILD/results/check-damon-young-base.log
		ok=1
		[ $rc != 0 ] && grep -qE '^ *not ok [0-9]+ (- )?idle page tracking' "$log" &&
			! grep -E '^ *not ok [0-9]+ ' "$log" | grep -vqE 'idle page tracking|lru_gen_nonleaf with the idle case' && ok=0
		[ $ok = 0 ] || row_tail check-damon-young-base
		result $ok "damon: unpatched, the test's idle page tracking case fails, and no other"
		boot_result check-damon-young-fix "damon: with upstream/damon-young, the whole test passes"
		echo "# damon gate: $((SECONDS - t0)) s"
		;;
	kvm)
		kinit=$BUILD/initramfs-kvm.cpio
		if [ -f "$BUILD/kernel-default/arch/arm64/boot/Image" ] && [ -f "$kinit" ] && [ -x "$QEMU" ]; then
			boot_result check-kvm-long "kvm: the inner guest passes the kselftest with 1 GiB, the host's aging of its memory over five alternations"
		else
			result 1 "kvm: no kernel (a KVM host), its initramfs or QEMU (scripts/kernel-build.sh, then scripts/kvm-initramfs.sh)"
			continue
		fi
		git -C "$wt" checkout -q --detach "$head"
		v=$wt/mm/vmscan.c
		perl -0pi -e 's/should_clear_pmd_young\(\) &&\s*!mm_has_notifiers\(args->mm\)/should_clear_pmd_young()/g' "$v"
		n=$(git -C "$wt" diff | grep -c '^-.*mm_has_notifiers(args->mm)' || true)
		if [ "$n" != 2 ]; then
			git -C "$wt" checkout -q -- .
			result 1 "kvm lie: expected two '!mm_has_notifiers(args->mm)' tests in walk_pmd_range*() of $v, changed $n"
			continue
		fi
		[ -d "$BUILD/kernel-kvm-lie" ] || cp -a "$BUILD/kernel-default" "$BUILD/kernel-kvm-lie"
		KTREE=$wt KOUT=$BUILD/kernel-kvm-lie build "$BUILD/check-kvm-lie.log" \
			"kvm lie: a KVM host kernel that uses table Access flags for mms with MMU notifiers builds" default
		git -C "$wt" checkout -q -- .
		rc=0
		boot_row check-kvm-lie-boot || rc=$?
		ok=1
		[ $rc != 0 ] && grep -q '^    not ok [0-9]* - .*0x0007 walk' "$BUILD/results/check-kvm-lie-boot.log" && ok=0
		[ $ok = 0 ] || row_tail check-kvm-lie-boot
		result $ok "kvm lie: that host's aging of the VMM's memory fails the kvm suite's 0x0007 checks"
		;;
	skipmm)
		# The kselftest's positive control. A walk without force_scan skips
		# an mm that did not run since the last walk; this mutant makes it
		# skip the mm on every second such walk (the cold walk of each
		# case), so that the cold walk sees nothing. A check that only
		# bounds what the cold walk visits passes that; the sentinel must
		# make the cold case with non-leaf young on fail, found old with no
		# table entered.
		mutant skipmm mm/vmscan.c lab_skipmm_walks 2 \
			's/(static struct mm_struct \*get_next_mm\(struct lru_gen_mm_walk \*walk\)\n\{)/static unsigned long lab_skipmm_walks;\n\n$1/;
			s/if \(!walk->force_scan && !test_bit\(key, &mm->lru_gen\.bitmap\)\)/if (!walk->force_scan && (!test_bit(key, &mm->lru_gen.bitmap) || !(++lab_skipmm_walks & 1)))/' \
			"a kernel whose walk skips the mm on every second walk without force_scan" || continue
		ok=1
		[ $mutant_rc != 0 ] && grep -q '^ *not ok [0-9]* - cold set, non-leaf young on' "$mutant_log" &&
			grep -q '^ *# cold set, non-leaf young on: .*cold walk 1: young 0, tables 0/0 ' "$mutant_log" && ok=0
		[ $ok = 0 ] || row_tail check-skipmm-boot
		result $ok "skipmm: the kselftest's cold case with non-leaf young on fails by its sentinel when the walk skips the mm"
		;;
	onetable)
		# One table, not all: the first young PTE table of each walk of
		# an mm is skipped as if the walk had found its flag clear, where
		# the walk tests that flag (non-leaf young on, no force_scan). A
		# test that counted pages with slack, or tables only in sum over
		# many walks, could pass that.
		mutant onetable mm/vmscan.c 'lab_onetable_skip(' 2 \
			's/(static void walk_pmd_range\(pud_t \*pud,)/\/* the lab mutant: the first young table of each walk of an mm is skipped *\/\nstatic bool lab_onetable_skip(struct mm_struct *mm, unsigned long seq)\n{\n\tstatic struct mm_struct *lab_mm;\n\tstatic unsigned long lab_seq;\n\n\tif (mm == lab_mm && seq == lab_seq)\n\t\treturn false;\n\tlab_mm = mm;\n\tlab_seq = seq;\n\treturn true;\n}\n\n$1/;
			s/(\t\t    !mm_has_notifiers\(args->mm\)\) \{\n\t\t\tif \(!pmd_young\(val\))\)/$1 || lab_onetable_skip(args->mm, walk->seq))/' \
			"a kernel whose walk skips one young table per walk with non-leaf young on" || continue
		rc=$mutant_rc log=$mutant_log
		ok=1
		# (the suite runs the test more than once: every run counts)
		if [ $rc != 0 ] &&
			[ "$(grep -cE '^ *not ok [0-9]+ - (cold set|hot regions|new table), non-leaf young on' "$log")" -ge 3 ] &&
			[ "$(grep -cE '^ *ok [0-9]+ - [^#]*non-leaf young off[^#]*$' "$log")" -ge 4 ] &&
			! grep -qE '^ *not ok [0-9]+ - [^#]*non-leaf young off' "$log"; then
			ok=0
		fi
		grep -E '^ *(not )?ok [0-9]+ - (cold set|hot regions|new table|THP)' "$log" | sed 's/^ */# /'
		[ $ok = 0 ] || row_tail check-onetable-boot
		result $ok "onetable: the kselftest fails its small-page cases with non-leaf young on, and passes the rest, when the walk skips one young table"
		;;
	noaf)
		# Patch 5 undone where it matters to the kselftest: PMD entries of
		# new PTE tables without the Access flag. The CPU sets it on its
		# first walk through the entry (HAFT), so only a table that the
		# CPU did not walk before the aging walk shows it: the new table
		# case, filled with MADV_POPULATE_WRITE.
		mutant noaf arch/arm64/include/asm/pgalloc.h 'lab mutant noaf' 1 \
			's/(\tset_pmd\(pmdp, __pmd\(__phys_to_pmd_val\(ptep\) \| prot) \| PXD_TABLE_AF\)\);/$1)); \/* lab mutant noaf *\//' \
			"a kernel that makes PTE tables with their PMD entry's Access flag clear" || continue
		rc=$mutant_rc log=$mutant_log
		ok=1
		# (the suite runs the test more than once: every run counts)
		if [ $rc != 0 ] &&
			grep -qE '^ *not ok [0-9]+ - new table, non-leaf young on' "$log" &&
			! grep -E '^ *not ok [0-9]+ - (cold set|hot regions|new table|THP)' "$log" |
				grep -qvE ' - new table, non-leaf young on'; then
			ok=0
		fi
		grep -E '^ *(not )?ok [0-9]+ - (cold set|hot regions|new table|THP)|new table: ' "$log" | sed 's/^ */# /'
		[ $ok = 0 ] || row_tail check-noaf-boot
		result $ok "noaf: the kselftest fails its new table case with non-leaf young on, and only it, when new tables lack the Access flag"
		;;
	earlyaf)
		# Patch 5 undone: the early tables map_range() builds for the
		# kernel image keep a clear Access flag. The ktables suite (make
		# test's guest-max and guest-haft-off count 0) must see them on
		# a CPU without FEAT_HAFT, where nothing sets the flag, and fail;
		# on -cpu max the count is only reported (the hardware sets the
		# flag of every descriptor it walks through).
		mutant earlyaf arch/arm64/kernel/pi/map_range.c 'lab mutant earlyaf' 1 \
			's/(PMD_TYPE_TABLE \| PMD_TABLE_UXN) \|\n\s+PXD_TABLE_AF\);/$1); \/* lab mutant earlyaf *\//' \
			"a kernel whose early tables keep the Access flag clear" || continue
		rc=$mutant_rc log=$mutant_log
		ok=1
		grep -E '^ *(not )?ok [0-9]+ - |^# tables ' "$log" | sed 's/^ */# /'
		if [ $rc != 0 ] &&
			grep -qE "^ *not ok [0-9]+ - kernel table descriptors with the Access flag clear: expected '0', got '[1-9][0-9]*'" "$log"; then
			ok=0
		fi
		[ $ok = 0 ] || row_tail check-earlyaf-boot
		result $ok "earlyaf: the ktables suite fails on a CPU without FEAT_HAFT when the early tables keep the Access flag clear"
		rc=0
		boot_row check-earlyaf-max || rc=$?
		grep -E '^# tables |Access flag clear' "$BUILD/results/check-earlyaf-max.log" | sed 's/^ */# /'
		[ $rc = 0 ] || row_tail check-earlyaf-max
		result $rc "earlyaf: the same kernel on -cpu max boots and reports the count (check-earlyaf-max)"
		;;
	kabiassert)
		# Patch 7's assertions must stop a build that would pin a CRC
		# that lies: a capability inserted before HAFT (what a rebase
		# onto a 6.12.y that appended one of its own does) must fail the
		# build of cpufeature.o with the first assertion's message.
		git -C "$wt" checkout -q --detach "$head"
		perl -0pi -e 's/\nHAFT\n/\nLAB_MUTANT_KABI\nHAFT\n/' "$wt/arch/arm64/tools/cpucaps"
		n=$(git -C "$wt" diff | grep -c '^+LAB_MUTANT_KABI' || true)
		if [ "$n" != 1 ]; then
			git -C "$wt" checkout -q -- .
			result 1 "kabiassert: expected to add one capability before HAFT in arch/arm64/tools/cpucaps, added $n"
			continue
		fi
		seed "$BUILD/kernel-kabiassert"
		say "check: kabiassert: cpufeature.o with a capability inserted before HAFT"
		rc=0
		KTREE=$wt KOUT=$BUILD/kernel-kabiassert "$TOP/scripts/kernel-build.sh" default \
			arch/arm64/kernel/cpufeature.o >"$BUILD/check-kabiassert.log" 2>&1 || rc=$?
		git -C "$wt" checkout -q -- .
		ok=1
		[ $rc != 0 ] && grep -q 'kABI: the capabilities before HAFT are not the frozen ones' \
			"$BUILD/check-kabiassert.log" && ok=0
		[ $ok = 0 ] || tail -n 20 "$BUILD/check-kabiassert.log" | sed 's/^/# /'
		result $ok "kabiassert: a capability inserted before HAFT stops the build at patch 7's assertion"
		;;
	ksftconfig)
		# A tester's kernel, not the lab's: the architecture's defconfig
		# with the tree's virt.config and the kselftest's own fragment
		# (tools/testing/selftests/mm/config), the way the kselftest
		# documentation builds one. The lines the series adds to that
		# fragment must hold; upstream's that cannot on arm64 (a '# '
		# line each) are reported, not fatal. Booted with the haft and
		# kselftest suites (not boot: defconfig leaves MGLRU off at boot,
		# CONFIG_LRU_GEN_ENABLED=n, and the kselftest turns it on itself).
		kf=$tree/tools/testing/selftests/mm/config
		out=$BUILD/kernel-ksftconfig
		# (a cold build takes most of an hour on 2 CPUs)
		KCHECK=warn KBASE=defconfig KFRAGS="$tree/arch/arm64/configs/virt.config $kf" \
			build "$BUILD/check-ksftconfig.log" "ksftconfig: defconfig + virt.config + selftests/mm/config builds" ksftconfig
		grep "fragment asks" "$BUILD/check-ksftconfig.log" | sed 's/^/# /' || true
		added=$(git -C "$tree" diff base HEAD -- tools/testing/selftests/mm/config | sed -n 's/^+\(CONFIG_.*\)/\1/p')
		miss=
		for l in $added; do grep -qxF "$l" "$out/.config" 2>/dev/null || miss="$miss $l"; done
		[ -n "$added" ] && [ -z "$miss" ] && rc=0 || rc=1
		[ $rc = 0 ] || echo "# lines the series adds to $kf not in the .config:${miss:- (the series adds none)}"
		result $rc "ksftconfig: what the series adds to selftests/mm/config holds ($(echo $added))"
		if [ -f "$out/arch/arm64/boot/Image" ] && [ -x "$QEMU" ] && [ -f "$BUILD/initramfs.cpio" ]; then
			boot_result check-ksftconfig-boot "ksftconfig boots on -cpu max: HAFT detected and used, the kselftest passes"
		else
			result 1 "ksftconfig boots (no Image, QEMU or initramfs: run 'make build')"
		fi
		;;
	modabi)
		# The module ABI of a 6.12.y kernel that freezes one: the series
		# and its base built with configs/modversions.config (symbol
		# versions, as Debian's and GKI kernels have). Every symbol both
		# export must keep its CRC; a module built against the base must
		# load into the series' kernel; and the series without the
		# __GENKSYMS__ guard of system_cpucaps must change that CRC and
		# refuse the module (the guard is what the load depends on).
		t0=$SECONDS
		f0=$fail
		mv=modversions
		base_out=$BUILD/check-modabi-base
		git -C "$wt" checkout -q --detach base
		[ -d "$base_out" ] || cp -a "$BUILD/kernel-default" "$base_out"
		KTREE=$wt KOUT=$base_out build "$BUILD/check-modabi-base.log" \
			"modabi: the base builds with symbol versions (vmlinux, Module.symvers)" $mv Image modules
		# The module, against the base's headers and Module.symvers.
		mod=$BUILD/check-modabi-mod
		rm -rf "$mod"
		cp -a "$TOP/guest/modabi" "$mod"
		rc=0
		make -C "$wt" O="$base_out" ARCH=arm64 CROSS_COMPILE="$CROSS" CC="ccache ${CROSS}gcc" \
			M="$mod" modules >"$BUILD/check-modabi-mod.log" 2>&1 || rc=$?
		[ $rc = 0 ] && ${CROSS}objdump -h "$mod/modabi_probe.ko" | grep ' __versions ' >/dev/null || rc=1
		[ $rc = 0 ] || tail -n 20 "$BUILD/check-modabi-mod.log" | sed 's/^/# /'
		result $rc "modabi: guest/modabi builds against the base, with a __versions section"
		git -C "$wt" checkout -q --detach "$head"
		[ -d "$BUILD/kernel-$mv" ] || cp -a "$BUILD/kernel-default" "$BUILD/kernel-$mv"
		build "$BUILD/check-modabi-series.log" "modabi: the series builds with symbol versions" $mv Image modules
		# The series without the guard: its #ifdef __GENKSYMS__ ... #else
		# and #endif lines taken out, the #else branch kept.
		n=$(python3 - "$wt" <<'PY'
import re, subprocess, sys
wt = sys.argv[1]
files = subprocess.run(["git", "-C", wt, "grep", "-l", "__GENKSYMS__", "--", "arch/arm64"],
                       capture_output=True, text=True).stdout.split()
n = 0
for f in files:
    path = f"{wt}/{f}"
    lines = open(path).read().split("\n")
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "#ifdef __GENKSYMS__":
            j = lines.index("#else", i)
            k = lines.index("#endif", j)
            if "system_cpucaps" in "\n".join(lines[i:k]):
                out += lines[j + 1:k]
                i, n = k + 1, n + 1
                continue
        out.append(lines[i])
        i += 1
    open(path, "w").write("\n".join(out))
print(n)
PY
) || n=0
		ng=$BUILD/kernel-modabi-noguard
		if [ "${n:-0}" -lt 1 ]; then
			git -C "$wt" checkout -q -- .
			result 1 "modabi: found no __GENKSYMS__ guard of system_cpucaps under arch/arm64 to take out"
		else
			[ -d "$ng" ] || cp -a "$BUILD/kernel-$mv" "$ng"
			KTREE=$wt KOUT=$ng build "$BUILD/check-modabi-noguard.log" \
				"modabi: the series without the $n __GENKSYMS__ guard(s) of system_cpucaps builds" $mv Image modules
			git -C "$wt" checkout -q -- .
		fi
		[ $fail = "$f0" ] || continue
		# CRCs: every symbol both export keeps it; without the guard,
		# system_cpucaps' changes (the comparison can see a change).
		crcs() { awk '{ print $2, $1 }' "$1/Module.symvers" | sort; }
		diffs=$(join <(crcs "$base_out") <(crcs "$BUILD/kernel-$mv") | awk '$2 != $3')
		both=$(join <(crcs "$base_out") <(crcs "$BUILD/kernel-$mv") | wc -l)
		echo "# exported by both the base and the series: $both symbols; base only: $(join -v1 <(crcs "$base_out") <(crcs "$BUILD/kernel-$mv") | wc -l), series only: $(join -v2 <(crcs "$base_out") <(crcs "$BUILD/kernel-$mv") | wc -l)"
		[ -z "$diffs" ] || echo "$diffs" | sed 's/^/# CRC changed (symbol base series): /'
		rc=0
		[ -z "$diffs" ] && [ "$both" -gt 0 ] || rc=1
		result $rc "modabi: every symbol the base and the series both export keeps its CRC ($both symbols)"
		ngd=$(join <(crcs "$base_out") <(crcs "$ng") | awk '$2 != $3')
		[ -z "$ngd" ] || echo "$ngd" | sed 's/^/# without the guard, CRC changed (symbol base series): /'
		rc=0
		[ "$(echo "$ngd" | awk '{ print $1 }')" = system_cpucaps ] || rc=1
		result $rc "modabi: without the guard, system_cpucaps' CRC changes, and no other"
		# The boots: the module in an initramfs of its own.
		stage=$BUILD/initramfs-modabi
		rm -rf "$stage"
		install -D -m 644 "$mod/modabi_probe.ko" "$stage/lab/modabi/modabi_probe.ko"
		pack_archive "$stage" "$BUILD/initramfs-modabi.add"
		cat "$BUILD/initramfs.cpio" "$BUILD/initramfs-modabi.add" >"$BUILD/initramfs-modabi.cpio"
		boot_result check-modabi-load "modabi: the series' kernel loads the module built against the base, which reads system_cpucaps"
		rc=0
		boot_row check-modabi-refuse || rc=$?
		log=$BUILD/results/check-modabi-refuse.log
		# The row passes when the suite saw the refusal it expects.
		[ $rc = 0 ] && grep -q 'refused for system_cpucaps' "$log" || { rc=1; row_tail check-modabi-refuse; }
		result $rc "modabi: the series without the guard refuses that module (disagrees about version of symbol system_cpucaps)"
		echo "# modabi gate: $((SECONDS - t0)) s"
		;;
	qemu)
		say "check: QEMU's own suites (qemu/qemu-suites.sh)"
		rc=0
		"$TOP/qemu/qemu-suites.sh" >"$BUILD/check-qemu-suites.out" 2>&1 || rc=$?
		while read -r st desc; do
			result "$st" "qemu: $desc"
		done < <(sed -n -e 's/^ok [0-9]* - \(.*\)/0 \1/p' \
			-e 's/^not ok [0-9]* - \(.*\)/1 \1/p' "$BUILD/check-qemu-suites.out")
		grep -q '^1\.\.' "$BUILD/check-qemu-suites.out" || {
			tail -n 20 "$BUILD/check-qemu-suites.out" | sed 's/^/# /'
			result 1 "qemu: QEMU's own suites ran (exit status $rc)"
		}
		;;
	debug)
		# The newest linux-source-6.12 Debian ships, with the series
		# (make test applies it there too, its tree-newest step).
		if ! env BASE=newest BUILD="$BUILD/newest" "$TOP/scripts/kernel-tree.sh" >"$BUILD/check-debug-tree.log" 2>&1; then
			tail -n 20 "$BUILD/check-debug-tree.log" | sed 's/^/# /'
			result 1 "debug: the series applies to the newest linux-source-6.12 (scripts/kernel-tree.sh, BASE=newest)"
			continue
		fi
		result 0 "debug: the series applies to the newest linux-source-6.12 ($(cat "$BUILD/newest/linux.base" 2>/dev/null || echo '?'))"
		f0=$fail
		KTREE=$BUILD/newest/linux KOUT=$BUILD/newest/kernel-debug+nostats build "$BUILD/check-debug.log" \
			"debug: the debug kernel with LRU_GEN_STATS off builds (debug+nostats)" debug+nostats
		[ $fail = "$f0" ] || continue
		boot_result check-debug-max "debug: the debug kernel boots on -cpu max: boot, HAFT, kselftest and a 60 s soak pass, nothing splats"
		;;
	p16k)
		seed "$BUILD/kernel-p16k"
		f0=$fail
		build "$BUILD/check-p16k.log" "p16k: 16 KiB pages build" p16k
		[ $fail = "$f0" ] || continue
		boot_result check-16k-boot "p16k: the 16 KiB kernel boots on -cpu max: boot, HAFT, kselftest, hotplug suites pass"
		;;
	esac
done
record_gate
# results/README.md shows the record (make test checks that it is current)
python3 "$TOP/scripts/results.py" render >/dev/null || warn "could not render results/README.md from results/check.json"
tap_plan
s=$((SECONDS - tall))
echo "# make check: gates '$checks' in $((s / 60)):$(printf %02d $((s % 60)))"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
