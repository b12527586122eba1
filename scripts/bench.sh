#!/bin/bash
# 'make bench': the benchmark matrix of non-leaf PMD young on arm64.
# Its boots are the table's bench rows (boots at the top).
#  1. aging (one boot, -cpu max): agebench, 0x0003 and 0x0007 alternated,
#     REPS repetitions of each scenario (seed protocol, running owner, cold
#     after hot, steady cold, fully hot, 10% hot, one page per 2 MiB);
#  2. realistic workload (one boot): reclaim-job in a memcg limited below
#     its data, zram swap, 0x0003 and 0x0007 alternated;
#  3. regression guards: REPS rounds of three boots (HAFT in use; HAFT
#     present but off with arm64.nohaft; a CPU model without HAFT), each
#     running mmap/touch/munmap, GUPS and two aging walks with 0x0003.
# Logs in build/results/bench/ (a part that runs replaces its own logs,
# the others stay), then scripts/bench-report.py writes bench.md,
# bench.csv and bench.png there from all of them. Variables: REPS (5),
# RECLAIM_SECS (20), AGE_MIB (1024), BENCH_PARTS ("age reclaim guard").
. "$(dirname "$0")/lib.sh"
reps=${REPS:-5}
secs=${RECLAIM_SECS:-20}
mib=${AGE_MIB:-1024}
parts=${BENCH_PARTS:-age reclaim guard}
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer, not '$reps'"
[[ "$secs" =~ ^[1-9][0-9]*$ ]] || die "RECLAIM_SECS must be a positive integer, not '$secs'"
[[ "$mib" =~ ^[1-9][0-9]*$ ]] || die "AGE_MIB must be a positive integer, not '$mib'"
out=$BUILD/results/bench
mkdir -p "$out"
rm -f "$out"/counts "$out"/problems
# The rows of the table of boots ($TOP/boots) for bench: bench/PART, or
# bench/PART-SIDE for the parts with several boots (guard); their
# command lines take REPS, AGE_MIB and RECLAIM_SECS from here.
export REPS=$reps RECLAIM_SECS=$secs AGE_MIB=$mib
rows=$(boot_rows bench) || exit 1
fail=0
boot() { "$TOP/scripts/boot.sh" -b "$@" || fail=1; }
part_rows() { grep -E "^bench/$1(-|$)" <<<"$rows" || die "no row bench/$1 or bench/$1-* for bench in ${BOOTS#"$TOP"/}"; }

for p in $parts; do
	case $p in
	age)
		rm -f "$out"/age.log
		say "bench: aging scenarios, $mib MiB, $reps repetitions, off/on alternated"
		rs=$(part_rows age) || exit 1
		for r in $rs; do boot "$r"; done
		;;
	reclaim)
		rm -f "$out"/reclaim.log
		say "bench: memcg-limited job with zram, $reps x ${secs}s per setting"
		rs=$(part_rows reclaim) || exit 1
		for r in $rs; do boot "$r"; done
		;;
	guard)
		rm -f "$out"/guard-*.log
		guards=$(part_rows guard) || exit 1
		for i in $(seq 1 "$reps"); do
			say "bench: regression guards, round $i of $reps ($(echo ${guards//bench\/guard-/}))"
			for r in $guards; do boot "$r" -n "$r-$i"; done
		done
		;;
	*) die "unknown bench part '$p' (age, reclaim, guard)" ;;
	esac
done
python3 "$TOP/scripts/bench-report.py" "$out" || fail=1
[ $fail = 0 ] || die "some benchmark boots failed: see the verdicts above and $out/*.log"
