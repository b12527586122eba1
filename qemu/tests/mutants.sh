#!/bin/bash
# Show that every check of qemu/run-tests.sh can fail. Runs the suite on
# deliberately broken emulators and reports which checks each one trips,
# then, per check, what made it fail. Not part of 'make test'.
#
#   MUTANTS=BINARY [UNPATCHED=BINARY] bash qemu/tests/mutants.sh
#
# MUTANTS is a qemu-system-aarch64 built from the queue plus
# qemu/tests/mutants/*.patch, whose bugs are selected at run time by
# $HAFT_MUTANT; UNPATCHED (optional) is one built without the queue. Both
# are made with scripts/qemu-build.sh (README.md, "Each check can fail").
. "$(dirname "$0")/../../scripts/lib.sh"
[ -x "${MUTANTS:-}" ] || die "MUTANTS=/path/to/qemu-system-aarch64 (built with the mutants patch) required"

mutants=(
	# which regime reads which control, and the HA rule
	ignore-ha haft-always no-gates el3-ignored s2-ignored el2-uses-el1
	el2-ignores-scr e2h-uses-el1 eff-ignores-enables no-tcr2-check
	# the update itself
	neighbour no-fault always-cas plain-store racy-store no-restart
	at-updates at-fails at-no-table-af defer-to-leaf update-faults
	table-af-faults
	# debug translations (the monitor's gva2gpa and x): stage 1 and 2
	# tables, the stage 2 leaf of the nested walk, the stage 1 leaf
	debug-updates debug-s2-leaf debug-leaf
	# (several at once: a neighbour written on walks without FEAT_HAFT)
	no-gates,neighbour
	# TCR2 traps and write masks (10.2's FEAT_TCR2, HAFT bit added here)
	no-trvm-trap no-hcrx-trap no-scr-trap hcrx-trap-el2 no-res0
	haft-not-writable reset-nonzero
	# the properties, and what tcr2=off takes with it (S2PIE, GCS)
	haft-prop-ignored tcr2-prop-ignored no-refusal x-ignored x-no-refusal
	no-readback tcr2-off-keeps-deps
	# the board: CPU 1 never starts (the race must not pass vacuously)
	cpu1-off
	# leaf AF handling (FEAT_HAFDBS, unchanged); the walker's writes
	# without stage 2's write probe; stage 2's DBM update without HD
	leaf-ignores-ha leaf-never-ha leaf-no-fault no-s2-write-probe
	s2-hd-ignored
	# S1PIE's dirty state (qemu/fixes 0002; the first is 10.2's bug)
	pie-load-write pie-load-dirties pie-store-stays-clean pie-no-dirty-fault
	pie-hd-ignored pie-dirty-faults
	# PIE: the update needs bit 51 (fixes 0003 left out); the stage 1
	# walker's writes skip S2PIE's dirty state (fixes 0002's stage 2
	# half left out); the dirty-state fault without its ESR syndrome
	pie-needs-dbm s2pie-ttw-write no-dirty-syndrome
	# the walker's stage 2 TLB fills checked against the data column
	# (fixes 0001 left out: MostlyReadOnly pages fault with HD set);
	# the gdbstub's tag packets through an ordinary probe (fixes 0009 left
	# out), or a debug lookup that finds no tags; a refused qMemTags
	# answered twice (fixes 0006 left out)
	s2-probe-data-perm gdb-probe gdb-no-tags memtag-double-reply
	# -cpu max without FEAT_HAFT (patches 0002 left out)
	max-no-haft)
race_mutants="plain-store racy-store no-restart update-faults no-gates cpu1-off"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Checks are named by their TAP description, without the failure details.
names() { sed -n 's/^\(not \)\{0,1\}ok [0-9]* *- //p' "$1" | sed 's/: expected .*//'; }
failed() { sed -n 's/^not ok [0-9]* *- //p' "$1" | sed 's/: expected .*//'; }

QEMU=$MUTANTS "$TOP/qemu/run-tests.sh" >"$tmp/clean" 2>&1 ||
	die "the suite fails on $MUTANTS without a mutant: $(grep '^not ok' "$tmp/clean" | head -3)"
names "$tmp/clean" | sort -u >"$tmp/all"

# Besides the mutants: a test binary run on a CPU model that lacks what
# it expects, i.e. what a broken haft=off (dropping TCR2 too) or a broken
# haft=on (not offering HAFT) or a broken max (not offering TCR2 either:
# what the unpatched build shows) would look like; and for the test-only
# x-haft-without-tcr2 model, what it would look like if the property were
# ignored (plain max) or also dropped HAFDBS to 2 (as tcr2=off does).
# The race's program too: on haft=off and on tcr2=off.
swaps=("haft=off-loses-tcr2:1 max,tcr2=off" "haft-missing:0 max,haft=off"
	"tcr2-missing:0 max,tcr2=off"
	"x-haft-without-tcr2-ignored:3 max" "x-haft-without-tcr2-loses-hafdbs:3 max,tcr2=off"
	"race-haft-missing:4 max,haft=off" "race-tcr2-missing:4 max,tcr2=off"
	"gdb-tcr2-missing:6 max,tcr2=off")
# And the checkpatch checks on a copy of both series (qemu/fixes,
# qemu/patches) with one line of each patch indented by a tab (QEMU
# style: spaces only).
for q in fixes patches; do
	mkdir -p "$tmp/tab/$q"
	cp "$TOP/qemu/$q/series" "$tmp/tab/$q/"
	for p in $(series_files "$TOP/qemu/$q"); do
		awk '!done && /^\+    / { sub(/^\+    /, "+\t"); done = 1 } { print }' "$p" >"$tmp/tab/$q/$(basename "$p")"
	done
done
runs=("${mutants[@]}" "${swaps[@]%%:*}" tab-indent)
[ -x "${UNPATCHED:-}" ] && runs+=(unpatched)
for m in "${runs[@]}"; do
	swap=$(printf '%s\n' "${swaps[@]}" | sed -n "s/^$m://p")
	if [ "$m" = tab-indent ]; then
		HAFT_SKIP_RACE=1 HAFT_QEMU_PATCHES="$tmp/tab/fixes $tmp/tab/patches" QEMU=$MUTANTS "$TOP/qemu/run-tests.sh" >"$tmp/$m" 2>&1 || true
	elif [ "$m" = unpatched ]; then
		QEMU=$UNPATCHED "$TOP/qemu/run-tests.sh" >"$tmp/$m" 2>&1 || true
	elif [ -n "$swap" ]; then
		# (the program names its checks after its own variant)
		HAFT_TEST_RUNS=$swap QEMU=$MUTANTS "$TOP/qemu/run-tests.sh" >"$tmp/$m" 2>&1 || true
	else
		# The race (seconds to minutes on a busy host) only for the
		# bugs in the update itself.
		skip=1
		case " $race_mutants " in *" $m "*) skip=0 ;; esac
		HAFT_SKIP_RACE=$skip HAFT_MUTANT=$m QEMU=$MUTANTS "$TOP/qemu/run-tests.sh" >"$tmp/$m" 2>&1 || true
	fi
	failed "$tmp/$m" | sort -u >"$tmp/$m.failed"
	k=$(wc -l <"$tmp/$m.failed")
	if [ "$k" -gt 0 ]; then
		echo "ok - $m: $k checks fail"
	else
		echo "not ok - $m: no check fails"
	fi
done

echo "# what made each check fail:"
miss=0
while IFS= read -r c; do
	by=$(for m in "${runs[@]}"; do
		if grep -qxF "$c" "$tmp/$m.failed"; then printf '%s ' "$m"; fi
	done)
	if [ -n "$by" ]; then
		echo "#   $c <- $by"
	else
		echo "#   $c <- NOTHING"
		miss=$((miss + 1))
	fi
done <"$tmp/all"
[ "$miss" = 0 ] || { echo "not ok - $miss checks never failed"; exit 1; }
echo "ok - every check failed at least once"
