#!/bin/bash
# 'make bench': the benchmark matrix of non-leaf PMD young on arm64.
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
out=$BUILD/results/bench
mkdir -p "$out"
rm -f "$out"/counts "$out"/problems
fail=0
boot() { "$TOP/scripts/boot.sh" "$@" || fail=1; }

for p in $parts; do
	case $p in
	age)
		rm -f "$out"/age.log
		say "bench: aging scenarios, $mib MiB, $reps repetitions, off/on alternated"
		boot -c max -a "lab.bench_reps=$reps lab.bench_mib=$mib" \
			-r bench-age -t 7200 -n bench/age
		;;
	reclaim)
		rm -f "$out"/reclaim.log
		say "bench: memcg-limited job with zram, $reps x ${secs}s per setting"
		boot -c max -a "lab.bench_reps=$reps lab.reclaim_secs=$secs" \
			-r bench-reclaim -t $((reps * secs * 8 + 600)) -n bench/reclaim
		;;
	guard)
		rm -f "$out"/guard-*.log
		for i in $(seq 1 "$reps"); do
			say "bench: regression guards, round $i of $reps (haft, nohaft, no-haft CPU)"
			boot -c max -a "lab.bench_tag=haft" -r bench-guard -t 1200 -n "bench/guard-haft-$i"
			boot -c max -a "arm64.nohaft lab.bench_tag=nohaft" -r bench-guard -t 1200 -n "bench/guard-nohaft-$i"
			boot -c max,haft=off -a "lab.bench_tag=cpu-nohaft" -r bench-guard -t 1200 -n "bench/guard-cpu-nohaft-$i"
		done
		;;
	*) die "unknown bench part '$p' (age, reclaim, guard)" ;;
	esac
done
python3 "$TOP/scripts/bench-report.py" "$out" || fail=1
[ $fail = 0 ] || die "some benchmark boots failed: see the verdicts above and $out/*.log"
