#!/bin/bash
# 'make harness-test': the verdict of 'make test' cannot count a failure as
# a pass. Feeds the real step runner (scripts/steps.sh) and the real judge
# (scripts/verdict.py) crafted and recorded inputs, one per way a run can
# fail, and checks that each is judged a failure for the right reason, and
# that a clean run is judged a pass. Seconds, no build, no boot. TAP.
#
# Guest logs: every scripts/harness-test.d/NAME.log with NAME.suites (the
# suites that boot asked for) is a clean run, crafted or recorded from a
# real boot; each failure mode is made from it by one edit.
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/steps.sh"
set +e
need python3 awk sed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=$TOP/scripts/harness-test.d

# expect pass|fail WHY PATTERN CMD... : run CMD (a judging command), which
# must end in the verdict given; for 'fail', its output must also match
# the extended regular expression PATTERN (the reason).
expect() {
	local want=$1 why=$2 pat=$3 rc=0
	shift 3
	"$@" >"$work/out" 2>&1 || rc=$?
	if [ "$want" = pass ] && [ $rc = 0 ]; then
		tap_result 0 "judged a pass: $why"
	elif [ "$want" = fail ] && [ $rc != 0 ] && grep -qE -- "$pat" "$work/out"; then
		tap_result 0 "judged a failure: $why"
	else
		tap_result 1 "$why: expected the verdict '$want'$([ "$want" = fail ] && echo " saying /$pat/"), got exit $rc"
		sed 's/^/#   /' "$work/out" | tail -n 15
	fi
}

# rows TABLE_BODY ARGS... : boot.sh -N (no boot) on a crafted table
rows() {
	local body=$1
	shift
	{ echo "$BOOT_COLUMNS"; printf '%b\n' "$body"; } >"$work/boots"
	BOOTS=$work/boots "$TOP/scripts/boot.sh" -N "$@"
}
ok_row='a test default max - boot 300 yes 0x0007 -'
# qemu_cases : boot.sh cross-checks a row's expectation with the lab's
# QEMU itself (QMP); skipped, saying so, when QEMU is not built yet.
qemu_cases() {
	if [ -x "$QEMU" ]; then
		expect fail "boots: HAFT expected on a CPU model without FEAT_HAFT (QEMU says)" 'QEMU says haft=- tcr2=-' \
			rows 'a test default cortex-a72 - boot 300 yes 0x0007 -' -b a
		expect fail "boots: HAFT expected on max,haft=off (QEMU says)" 'QEMU says haft=off tcr2=on' \
			rows 'a test default max,haft=off - boot 300 yes 0x0007 -' -b a
		expect fail "boots: HAFT expected without FEAT_TCR2 (QEMU says)" 'QEMU says haft=on tcr2=off' \
			rows 'a test default max,x-haft-without-tcr2=on - boot 300 yes 0x0007 -' -b a
	else
		for w in "a CPU model without FEAT_HAFT" max,haft=off "no FEAT_TCR2"; do
			tap_skip "boots: HAFT expected on $w: no QEMU at $QEMU yet"
		done
	fi
}
# harness-test.sh --qemu: only those; --no-qemu: all but those (make test
# runs the harness first, before QEMU is built, and those once it is).
mode=${1:-}
case $mode in '' | --qemu | --no-qemu) ;; *) die "usage: harness-test.sh [--qemu | --no-qemu]" ;; esac
if [ "$mode" = --qemu ]; then
	qemu_cases
	tap_plan
	[ $TAP_FAILED = 0 ]
	exit
fi

# --- the guest log judge --------------------------------------------------
# judge LOG SUITES : the judge on a console log, in its own results dir
judge() {
	rm -rf "$work/res"
	mkdir -p "$work/res"
	cp "$1" "$work/res/boot.log"
	python3 "$TOP/scripts/verdict.py" guest boot "$work/res/boot.log" --suites "$2"
}
# Edits of a clean log. 'In a suite' is between 'LAB: suite X' and its
# 'LAB: suite X exit N'; a top-level result is one not indented.
in_suite='/^LAB: suite [^ ]+$/ { s = 1 } /^LAB: suite [^ ]+ exit / { s = 0 }'
edit() { # edit LOG AWK_PROGRAM > OUT
	awk "$in_suite $2" "$1"
}

for clean in "$data"/*.log; do
	base=${clean##*/}
	base=${base%.log}
	suites=$(cat "${clean%.log}.suites")
	first=${suites%%,*}
	m=$work/m.log
	expect pass "$base: the clean run" . judge "$clean" "$suites"
	# A serial console ends its lines with CR LF; the edits below match
	# whole lines, so they work on a copy without the CRs.
	tr -d '\r' <"$clean" >"$work/clean.log"
	clean=$work/clean.log

	edit "$clean" '!d && /^LAB: suite [^ ]+ exit 0$/ { sub(/exit 0$/, "exit 1"); d = 1 } { print }' >"$m"
	expect fail "$base: a suite exits 1 after results that all passed" 'exited with status 1' judge "$m" "$suites"

	edit "$clean" 's && !d && /^1\.\.[1-9][0-9]*$/ { split($0, p, "\\.\\."); $0 = "1.." p[2] + 1; d = 1 } { print }' >"$m"
	expect fail "$base: a plan shortfall (plan one more than the results)" 'plan 1\.\.[0-9]+ but' judge "$m" "$suites"

	awk -v f="$first" '$0 == "LAB: suite " f { skip = 1 } !skip { print } $0 == "LAB: suite " f " exit 0" { skip = 0 }' "$clean" >"$m"
	expect fail "$base: a suite asked for is missing from the log" "suite $first was asked for and never ran" judge "$m" "$suites"
	expect fail "$base: the console log is missing" 'is missing' \
		python3 "$TOP/scripts/verdict.py" guest boot "$work/res/none.log" --suites "$suites"
	expect fail "$base: a suite asked for that no boot ran" 'suite nosuch was asked for and never ran' judge "$clean" "$suites,nosuch"
	expect fail "$base: a suite ran that was not asked for" "suite $first ran but was not asked for" judge "$clean" "${suites#"$first",}"

	{ cat "$clean"; echo "Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000000"; } >"$m"
	expect fail "$base: a panic after 'LAB: done'" 'kernel splat' judge "$m" "$suites"
	edit "$clean" '{ print } s && !d && /^ok [0-9]+ / { print "------------[ cut here ]------------"; print "WARNING: CPU: 1 PID: 77 at mm/vmscan.c:3500 walk_pmd_range+0x1f0/0x2a0"; d = 1 }' >"$m"
	expect fail "$base: a WARNING in the middle of a suite" 'kernel splat' judge "$m" "$suites"

	head -n $(($(wc -l <"$clean") * 6 / 10)) "$clean" >"$m"
	expect fail "$base: a log cut short (60% of it)" 'never printed .LAB: done' judge "$m" "$suites"
	echo "LAB-HOST: timeout after 900s" >>"$m"
	expect fail "$base: a timeout" 'timeout after 900s' judge "$m" "$suites"
	grep -v '^LAB: done' "$clean" >"$m"
	expect fail "$base: every suite complete but no 'LAB: done'" 'never printed .LAB: done' judge "$m" "$suites"
	{ cat "$clean"; echo "LAB-HOST: qemu exited with status 1"; } >"$m"
	expect fail "$base: QEMU exits with an error" 'qemu exited with status 1' judge "$m" "$suites"

	edit "$clean" '{ print } s && !d && /^ok [0-9]+ / { print; d = 1 }' >"$m"
	expect fail "$base: a result printed twice (duplicate number)" 'numbered [0-9]+ where [0-9]+ was due' judge "$m" "$suites"
	edit "$clean" 's && !d && /^1\.\.[1-9]/ { print "ok 99 - not in the plan"; d = 1 } { print }' >"$m"
	expect fail "$base: an unplanned test number" 'numbered 99 where' judge "$m" "$suites"
	edit "$clean" '{ print } s && !d && /^ok [0-9]+ / { print "ok"; d = 1 }' >"$m"
	expect fail "$base: a stray 'ok' from another program inside a suite" 'result without a number' judge "$m" "$suites"
	awk '!d && /^LAB: suite / { print "ok 1 - printed by something other than a suite"; d = 1 } { print }' "$clean" >"$m"
	expect fail "$base: a stray 'ok 1 - ...' outside any suite" 'TAP line outside any suite' judge "$m" "$suites"
	edit "$clean" '{ print } s && !d && /^ok [0-9]+ / { print "1..1"; d = 1 }' >"$m"
	expect fail "$base: a second plan in a suite" 'a second plan' judge "$m" "$suites"
	edit "$clean" 's && !d && /^ok [0-9]+ / { sub(/^ok/, "not ok"); d = 1 } { print }' >"$m"
	expect fail "$base: a failed result" 'not ok [0-9]+' judge "$m" "$suites"
	# A program that prints no TAP (khugepaged): its failed step, in the
	# output before the failed result, is shown with the result.
	edit "$clean" 's && !d && /^ok [0-9]+ / { print "# Collapse fully populated PTE table......\033[31mTimeout\033[0m"; sub(/^ok/, "not ok"); d = 1 } { print }' >"$m"
	expect fail "$base: a failed result shows its program's failed step" 'step +[0-9]+ \| # Collapse fully populated PTE table\.+.*Timeout' judge "$m" "$suites"
	edit "$clean" '{ print } s && !d && /^ok [0-9]+ / { print "Bail out! cannot go on"; d = 1 }' >"$m"
	expect fail "$base: a bail out" 'Bail out!' judge "$m" "$suites"

	if grep -q '^    ok [0-9]' "$clean"; then
		edit "$clean" '!d && /^    ok [0-9]+ / { sub(/^    ok/, "    not ok"); d = 1 } { print }' >"$m"
		expect fail "$base: a nested result fails, its parent says ok" '> .*not ok [0-9]+' judge "$m" "$suites"
		edit "$clean" 'p && !d && /^ok [0-9]+ / { sub(/^ok/, "not ok"); d = 1 } /^    ok [0-9]+ / { p = 1 } { print }' >"$m"
		expect fail "$base: a subtest's exit status fails it although its results passed" 'its subtest.s own results all passed' judge "$m" "$suites"
		edit "$clean" '!d && /^    1\.\.[0-9]/ { d = 1; next } { print }' >"$m"
		expect fail "$base: a nested stream without its plan" 'no plan' judge "$m" "$suites"
	fi
done

# --- the host step runner -------------------------------------------------
# step MODE SCRIPT : the real run_step on a crafted step, in its own dir
step() {
	RES=$work/steps
	rm -rf "$RES"
	mkdir -p "$RES"
	plan crafted
	run_step "$1" crafted bash -c "$2" 2>/dev/null
}
tap3='printf "ok 1 - a\nok 2 - b\nok 3 - c\n1..3\n"'
expect pass "host step: TAP with a plan, exit 0" . step --tap "$tap3"
expect fail "host step: TAP results all ok, then exit 1 (a script dying after its first part)" 'exited with status 1 after' step --tap "$tap3; exit 1"
expect fail "host step: results and no plan, exit 0 (stopped half way)" 'no plan' step --tap 'printf "ok 1 - a\nok 2 - b\n"'
expect fail "host step: a plan of 3 and 2 results" 'plan 1\.\.3 but 2' step --tap 'printf "1..3\nok 1 - a\nok 2 - b\n"'
expect fail "host step: duplicate numbers" 'numbered 1 where 2' step --tap 'printf "ok 1 - a\nok 1 - a\n1..2\n"'
expect fail "host step: nothing printed, exit 0" 'no plan' step --tap 'true'
expect fail "host step: unnumbered results" 'without a number' step --tap 'printf "ok - a\nok - b\n1..2\n"'
expect pass "host step: plain, exit 0" . step --plain 'echo building; echo not ok'
expect fail "host step: plain, 'ok' lines, then exit 1" 'exited with status 1' step --plain 'echo "ok 1 - looks fine"; echo 1..1; exit 1'

# --- room on disk (deps' first check) ---------------------------------------
# room MIB : disk_room asked for MIB more than the file system of $work has
room() {
	local kib
	kib=$(df -P -k "$work" | awk 'NR == 2 { print $4 }')
	(disk_room room "+$work:$((kib / 1024 + $1))")
}
expect pass "room: a need the disk can take" . room -2048
expect fail "room: a need 2 GiB past the free space stops the run" 'GiB free, and this needs' room 2048

# --- the kernel tree the series goes on (make tree) ------------------------
# fits EDIT : base_fits on a crafted 6.12.117 tree that has the partial
# backport the series completes, after running EDIT in it
fits() {
	local t=$work/tree
	rm -rf "$t"
	mkdir -p "$t/arch/arm64/include/asm" "$t/arch/arm64/tools"
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 117\n' >"$t/Makefile"
	printf 'config ARM64\n\tselect ARCH_HAS_NONLEAF_PMD_YOUNG if ARM64_HAFT\n' >"$t/arch/arm64/Kconfig"
	printf '#define arch_has_hw_nonleaf_pmd_young\tsystem_supports_haft\n' >"$t/arch/arm64/include/asm/pgtable.h"
	printf 'ALWAYS_BOOT\nBTI\n' >"$t/arch/arm64/tools/cpucaps"
	(cd "$t" && eval "$1") && base_fits "$t" 108
}
expect pass "base: 6.12.117 with 62df5870ebf7" . fits true
expect fail "base: 6.12.107, before 62df5870ebf7" 'needs 6\.12\.108 or later' fits "sed -i 's/117/107/' Makefile"
expect fail "base: a 6.13 tree" 'not 6\.12\.y' fits "sed -i 's/= 12/= 13/' Makefile"
expect fail "base: 6.12.y that took ARM64_HAFT itself" 'already has FEAT_HAFT' fits "printf 'config ARM64_HAFT\n' >>arch/arm64/Kconfig"
expect fail "base: 6.12.y with the HAFT cpucap" 'already has FEAT_HAFT' fits "echo HAFT >>arch/arm64/tools/cpucaps"
expect fail "base: 6.12.117 without the select" 'lacks what mainline' fits "sed -i '/select/d' arch/arm64/Kconfig"

# --- the summary ----------------------------------------------------------
# run SCRIPT : a crafted 'make test' (plan and steps) in its own dir, then
# the summary
run() {
	RES=$work/run
	STOPPED=
	rm -rf "$RES"
	mkdir -p "$RES"
	eval "$1" >/dev/null 2>&1
	summary
}
expect pass "summary: two clean steps" . run 'plan a b; host_step a true; host_step b true'
expect fail "summary: boot.sh dies before its log is judged" 'boot: planned but never judged' \
	run 'plan a boot; host_step a true; BOOT=false guest boot'
expect fail "summary: a step the rest needs fails; the rest is not run" 'b: planned but never judged' \
	run 'plan a b; host_step a false || stop "a failed"; host_step b true'
expect fail "summary: a step that was planned and never started" 'b: planned but never judged' \
	run 'plan a b; host_step a true'
expect fail "summary: a verdict for something not in the plan" 'x: judged but not planned' \
	run 'plan a; host_step a true; echo "x 1 0 0" >>"$RES/counts"'
expect fail "summary: a step judged twice" 'a: judged 2 times' \
	run 'plan a; host_step a true; echo "a 1 0 0" >>"$RES/counts"'
# A row named with a subdirectory (x86/6.12) logs there, and is counted in
# the run that planned it; a verdict that counted it beside its log would
# leave it never judged.
sublog() { # ENV... : a crafted boot of row x86/a, its verdict run under ENV
	local l=$work/logs/x86/a.log
	mkdir -p "${l%/*}"
	printf 'LAB: suite s\n1..1\nok 1 - fine\nLAB: suite s exit 0\nLAB: done\n' >"$l"
	run "plan x86/a; guest x86/a $* python3 \"\$VERDICT\" guest x86/a $l --suites s"
}
expect pass "summary: a row logged in a subdirectory is counted in its run" . sublog
expect fail "summary: ... and not when its verdict is counted beside its log" 'x86/a: planned but never judged' \
	sublog env -u LAB_RESULTS
outside() { (RES=$work/run && rm -rf "$RES" && mkdir -p "$RES" && plan a && host_step b true); }
expect fail "summary: a step outside the plan is refused" "step 'b' is not in the plan" outside
expect fail "summary: nothing planned" 'no step was planned' run ':'
# The summary's last lines repeat why an item failed, not only how many.
summary_tail() {
	local rc=0
	run "$1" >"$work/sum" || rc=$?
	tail -n 4 "$work/sum"
	return $rc
}
expect fail "summary: the end of the run names the failed check" \
	"^    a: .*not ok 2 - second check" \
	summary_tail 'plan a; host_tap a printf "1..2\nok 1 - first\nnot ok 2 - second check\n"'
# The run's own report is a KTAP stream the same judge accepts.
RES=$work/run
rm -rf "$RES" && mkdir -p "$RES"
(plan a b && host_step a true && host_tap b bash -c "$tap3" && summary) >/dev/null 2>&1
expect pass "summary: the report of a clean run is a valid nested KTAP stream" . \
	python3 "$TOP/scripts/verdict.py" host report "$RES/report.ktap" 0 --tap

# --- the scheduler (run_plan) ---------------------------------------------
# sched SLOTS PLAN... : a crafted plan run by run_plan. Each item is
# NAME[:NEEDS[:FLAGS]] (NEEDS a '+' list; FLAGS a ',' list of critical,
# row and w2, a weight of 2); item NAME runs the shell code in
# $work/item-NAME (default: true), judged as a host step; then the
# summary.
sched() {
	local slots=$1 it name rest
	shift
	RES=$work/run
	STOPPED=
	rm -rf "$RES"
	mkdir -p "$RES"
	(
		seq=()
		declare -A is_row=() needs=() after=() critical=() wt=()
		for it; do
			name=${it%%:*} rest=${it#"$name"}
			seq+=("$name")
			rest=${rest#:}
			needs[$name]=${rest%%:*}
			needs[$name]=${needs[$name]//+/ }
			[ "${rest#*:}" = "$rest" ] && rest= || rest=,${rest#*:},
			[[ "$rest" != *,critical,* ]] || critical[$name]="$name is critical"
			[[ "$rest" != *,row,* ]] || is_row[$name]=1
			[[ "$rest" != *,w2,* ]] || wt[$name]=2
		done
		weight() { echo "${wt[$1]:-1}"; }
		is_net() { return 1; }
		run_item() { host_step "$1" bash -c "$(cat "$work/item-$1" 2>/dev/null || echo true)"; }
		LAB_SLOTS=$slots
		plan "${seq[@]}"
		run_plan
		summary
	) >"$work/sched.out" 2>&1
	local rc=$?
	cat "$work/sched.out"
	return $rc
}
# together A B : A waits (up to 5 s) for B to have started: they ran
# side by side
together() {
	printf 'touch %s/%s.up; for i in $(seq 50); do [ -e %s/%s.up ] && exit 0; sleep 0.1; done; exit 1\n' \
		"$work" "$1" "$work" "$2" >"$work/item-$1"
	printf 'touch %s/%s.up; for i in $(seq 50); do [ -e %s/%s.up ] && exit 0; sleep 0.1; done; exit 1\n' \
		"$work" "$2" "$work" "$1" >"$work/item-$2"
}
rm -f "$work"/item-* "$work"/*.up
expect pass "scheduler: independent steps and their needs all run" . sched 2 a b:a c:a+b d
echo 'exit 1' >"$work/item-a"
expect fail "scheduler: a step whose need failed never starts" 'b: planned but never judged' sched 2 a b:a c
expect fail "scheduler: a critical step that fails stops what has not started" 'c: planned but never judged' \
	sched 1 a::critical c
rm -f "$work"/item-*
together x y
expect pass "scheduler: two steps run side by side when two slots are free" . sched 2 x y
rm -f "$work"/*.up
expect fail "scheduler: ... and one after the other with one slot" 'x: FAIL' sched 1 x y
rm -f "$work"/*.up
expect fail "scheduler: ... and one after the other when one needs the other" 'x: FAIL' sched 2 x y:x
rm -f "$work"/item-* "$work"/*.up
together b1 r
expect pass "scheduler: a row runs beside a build while another build waits for the CPUs" . \
	sched 3 b1::w2 b2::w2 r::row
rm -f "$work"/*.up
echo 'sleep 1' >"$work/item-a"
echo 'sleep 2' >"$work/item-r0"
expect fail "scheduler: ... and no row starts while a build waits for the CPUs rows hold" 'b1: FAIL' \
	sched 2 a r0::row b1:a:w2 r::row
rm -f "$work"/item-* "$work"/*.up
# The times file records every item that ran, one line each.
times_ok() {
	sched 2 a b:a c >/dev/null
	awk 'NF == 5 && $3 >= $2 { n++ } END { exit n == 3 ? 0 : 1 }' "$work/run/times" &&
		awk '$1 == "a" { ea = $3 } $1 == "b" { sb = $2 } END { exit sb >= ea ? 0 : 1 }' "$work/run/times"
}
expect pass "scheduler: every item's start and end are recorded, a need ends before its user starts" . times_ok

# --- the table of boots ----------------------------------------------------
expect pass "boots: the table loads, with rows for test, check, bench, soak, run and x86" . \
	bash -c '. "$0/scripts/lib.sh"; for t in test check bench soak run x86; do [ -n "$(boot_rows $t)" ] || exit 1; done' "$TOP"
expect fail "boots: an unknown row name" "no row 'nosuch'" rows "$ok_row" -b nosuch
expect fail "boots: a row with a column missing" 'boots:2: row .a. has fewer than' rows 'a test default max - boot 300 yes 0x0007' -b a
expect fail "boots: a row named twice" "boots:3: row 'a' repeats the row of line 2" rows "$ok_row\n$ok_row" -b a
expect fail "boots: an unknown target" "targets 'tset'" rows 'a tset default max - boot 300 yes 0x0007 -' -b a
expect fail "boots: a suite guest/tests does not have" 'no suite guest/tests/nosuch' rows 'a test default max - boot,nosuch 300 yes 0x0007 -' -b a
expect fail "boots: HAFT expected with caps other than 0x0007" 'haft=yes with caps 0x0003' rows 'a test default max - boot 300 yes 0x0003 -' -b a
expect fail "boots: HAFT expected on a command line that turns it off" "'arm64.nohaft' on its command line" \
	rows 'a test default max - boot 300 yes 0x0007 arm64.nohaft' -b a
expect fail "boots: HAFT expected with id_aa64mmfr1.hafdbs=1" "'id_aa64mmfr1.hafdbs=1' on its command line" \
	rows 'a test default max - boot 300 yes 0x0007 id_aa64mmfr1.hafdbs=1' -b a
expect fail "boots: HAFT expected on an x86 kernel" 'haft=yes on an x86 kernel' \
	rows 'a x86 x86:6.12 max - boot 300 yes 0x0007 -' -b a
expect fail "boots: a {VAR} the caller did not set" 'uses \{NOSUCH_VAR\}: set NOSUCH_VAR' \
	rows 'a test default max - boot {NOSUCH_VAR} yes 0x0007 -' -b a
expect fail "boots: a columns line that is not the table's" 'the columns must be' \
	bash -c 'printf "name cpu\na max\n" >"$0/boots" && BOOTS=$0/boots "$1/scripts/boot.sh" -N -b a' "$work" "$TOP"
# The cross-check with QEMU itself (qemu_cases, above): make test runs it
# as a step of its own (harness-qemu) once QEMU is built.
[ "$mode" = --no-qemu ] || qemu_cases

# --- make check's record ----------------------------------------------------
# make test fails unless results/check.json shows the gates that left it
# (debug, p16k) passing on the series as it is (check-sync.sh): on a copy
# of patches/ and configs/, each way the record can be wrong.
rt=$work/record
mkdir -p "$rt/results" "$rt/qemu"
cp -a "$TOP/patches" "$TOP/configs" "$rt/"
cp -a "$TOP/qemu/fixes" "$TOP/qemu/patches" "$TOP/qemu/lab-patches" "$rt/qemu/"
cr() { CHECK_RECORD_TOP=$rt python3 "$TOP/scripts/check-record.py" "$@"; }
expect fail "check record: a gate never recorded" 'debug gate: never recorded' cr verify debug p16k
cr write debug 4 0 60 && cr write p16k 2 0 30
expect pass "check record: both gates passed on this series" . cr verify debug p16k
p1=$(sed -n 2p "$rt/patches/series")
sed -i '0,/^Subject: /s/^Subject: .*/&, told otherwise/' "$rt/patches/$p1"
expect pass "check record: a commit message changed, the diffs did not" . cr verify debug p16k
sed -i '0,/^+[^+]/s/^+[^+].*/&  /' "$rt/patches/$p1"
expect fail "check record: one line of a patch's diff changed" 'passed on .* on another series or config' cr verify debug p16k
cr write debug 4 0 60 && cr write p16k 2 0 30
echo '# CONFIG_LAB_NOTHING is not set' >>"$rt/configs/base.config"
expect fail "check record: a config fragment changed" 'p16k gate: passed on .* on another series' cr verify debug p16k
cr write debug 4 0 60 && cr write p16k 2 0 30
q1=$(ls "$rt/qemu/patches" | grep -m1 '\.patch$')
echo ' ' >>"$rt/qemu/patches/$q1"
expect fail "check record: a patch of the QEMU queue changed" 'debug gate: passed on .* on another series' cr verify debug p16k
cr write debug 3 1 60 && cr write p16k 2 0 30
expect fail "check record: a gate that failed" 'debug gate: failed last time' cr verify debug p16k

# --- the time guard ---------------------------------------------------------
# scripts/timing.py warns when a cold run would pass 45 minutes on a
# machine 1.7x slower than the fastest seen: a cold run of 26 minutes on
# that machine fits, one of 27 does not; on a machine whose QEMU and
# kernel builds took 2.35 times as long as there, 44 minutes fit and 46
# do not.
cold_run() { # cold_run MINUTES [BUILD_SECONDS] : a crafted cold run that long; fails on the warning
	local d=$work/timing-$1-${2:-0}
	mkdir -p "$d"
	if [ -n "${2:-}" ]; then
		printf 'qemu-build 1000 %d pass 2\nkernel-build %d %d pass 2\n' $((1000 + $2 / 2)) $((1000 + $2 / 2)) $((1000 + $2)) >"$d/times"
	else
		printf 'a 1000 1100 pass 2\n' >"$d/times"
	fi
	printf 'b 1100 %d pass 1\n' $((1000 + $1 * 60)) >>"$d/times"
	printf 'cold yes\nslots 3\ncpus 2\n' >"$d/run-info"
	python3 "$TOP/scripts/timing.py" report "$d" >"$d/out" 2>&1
	grep -E 'cold estimate|^warning: ' "$d/out"
	! grep -q '^warning: ' "$d/out"
}
expect pass "time guard: a cold run of 26 minutes fits 45 on a machine 1.7x slower" . cold_run 26
expect fail "time guard: a cold run of 27 minutes does not" '27 minutes here and 46 on a machine of this kind 1.7x slower' cold_run 27
expect pass "time guard: 44 minutes fit on a machine whose builds are 2.35x slower" . cold_run 44 1406
expect fail "time guard: 46 minutes there do not" '46 minutes here and 46 on a machine' cold_run 46 1406

# --- make help --------------------------------------------------------------
# Every variable the scripts read (a default given with :- or :=; the Makefile's
# VAR ?=) and every lab.* parameter the guest reads (LAB_*) is listed in
# the variables file, and nothing listed there is read nowhere.
listed=$(grep -v '^#' "$TOP/variables" | awk '{ print $1 }')
read_env=$( { grep -ohE '\$\{[A-Z][A-Z0-9_]*:?[-=]' "$TOP"/scripts/*.sh "$TOP"/qemu/*.sh |
	sed -E 's/^\$\{//; s/:?[-=]$//'; sed -n 's/^\([A-Z][A-Z0-9_]*\) *?=.*/\1/p' "$TOP/Makefile"; } | sort -u)
read_lab=$(grep -rhoE 'LAB_[A-Z0-9_]+' "$TOP/guest/init" "$TOP/guest/tests" | sort -u |
	sed 's/^LAB_//' | tr 'A-Z' 'a-z' | sed 's/^/lab./')
help_sync() { # help_sync WHAT NAMES : each of NAMES is listed
	local n bad=0
	for n in $2; do
		grep -qxF "$n" <<<"$listed" || { echo "$n: $1, not listed in variables"; bad=1; }
	done
	return $bad
}
help_stale() { # every listed name is read
	local n bad=0
	for n in $listed; do
		grep -qxF "$n" <<<"$read_env"$'\n'"$read_lab"$'\n'"$(grep -rhoE '\b[A-Z][A-Z0-9_]+\b' "$TOP"/scripts/*.sh "$TOP"/Makefile | sort -u)" ||
			{ echo "$n: listed in variables, read by no script or guest suite"; bad=1; }
	done
	return $bad
}
expect pass "help: every variable the scripts and the Makefile read is in variables" . help_sync "read by a script" "$read_env"
expect pass "help: every lab.* parameter the guest reads is in variables" . help_sync "read by the guest" "$read_lab"
expect pass "help: every name in variables is read somewhere" . help_stale
listed="$listed"$'\n'"lab.memcgs" read_lab=
expect fail "help: a lab.* parameter read but not listed is caught" 'lab.nosuch: read by the guest, not listed' \
	help_sync "read by the guest" "lab.memcgs lab.nosuch"

tap_plan
[ "$TAP_FAILED" = 0 ]
