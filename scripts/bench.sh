#!/bin/bash
# 'make bench': the benchmark matrix of non-leaf PMD young on arm64.
# Its boots are the table's bench rows (boots at the top).
# All but one run under icount (the table's machine column): guest time
# counts the instructions the guest executes, so the guest's own timings
# repeat closely (the synthetic walks to within 0.1%) and a pair of runs
# differs only by what it measures.
#  1. aging (one boot, -cpu max): agebench, 0x0003 and 0x0007 alternated,
#     REPS repetitions of each scenario (seed protocol, running owner, cold
#     after hot, steady cold, fully hot, 10% hot, one page per 2 MiB);
#     the same-versus-same control (0x0003 on both sides of each pair);
#     and the cold walks timed by the host's clock, without icount;
#  2. realistic workload (one boot): reclaim-job in a memcg limited below
#     its data, zram swap, 0x0003 and 0x0007 alternated;
#  3. regression guards: REPS rounds of three boots (HAFT in use; HAFT
#     present but off with arm64.nohaft; a CPU model without HAFT), each
#     running mmap/touch/munmap, GUPS and two aging walks with 0x0003;
#  4. cost growth: aging walks of sets of GROWTH_MIB sizes in a 12 GiB
#     guest, and of 1 GiB with 0..100% of its tables gone cold;
#  5. the aging agent: 105 memcgs aged every interval while drifting jobs
#     run, 10 pairs of 0x0003 and 0x0007 phases; and a capped gc heap alone;
#  6. real applications (guest/tests/bench-apps, the rows bench/apps-*):
#     Debian's redis-server, memcached, PostgreSQL with pgbench and OpenJDK
#     in memcgs, aged by a working-set estimator, a senpai-style reclaimer
#     and memory.max, 6 pairs each in ABBA order beside their A/A
#     controls; one of them again on Debian's amd64 kernel
#     (bench/apps-x86-*). APPS (a comma list of the rows' suffixes, e.g.
#     redis-zipf,pgbench) picks some. Then scripts/model.py fits the walk's
#     cost to the growth sweep, checks it against every program's walks and
#     predicts 16 to 256 GiB servers (results/model.md, summary.json's
#     "model").
# Logs in build/results/bench/ (a part that runs replaces its own logs,
# the others stay), then scripts/bench-report.py writes bench.md,
# bench.csv, summary.json and the plots there from all of them; they go
# to results/ with bench.json (date, QEMU, REPS), and results.py renders
# results/README.md and the cover letter's numbers from them. Variables: REPS (5),
# RECLAIM_SECS (20), AGE_MIB (1024), GROWTH_MIB (256,...,10240),
# BENCH_PARTS ("age reclaim guard growth agent apps"; "report": only the
# report; "apps" or "apps-report" alone publish only the real applications'
# section and targets), APPS (all), APPS_REPLAY (0; 1: the published
# real-application rows whose logs are not here are replayed from
# results/apps.csv), BENCH_RESUME (0; 1: a real-application row whose boot
# passed before, as build/results/bench/ROW.done records, is kept, not run
# again: a list of rows longer than a sitting goes on where it stopped;
# publish and commit after each row with APPS_REPLAY=1).
. "$(dirname "$0")/lib.sh"
reps=${REPS:-5}
secs=${RECLAIM_SECS:-20}
mib=${AGE_MIB:-1024}
growth=${GROWTH_MIB:-256,512,1024,2048,4096,8192,10240}
parts=${BENCH_PARTS:-age reclaim guard growth agent apps}
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer, not '$reps'"
[[ "$secs" =~ ^[1-9][0-9]*$ ]] || die "RECLAIM_SECS must be a positive integer, not '$secs'"
[[ "$mib" =~ ^[1-9][0-9]*$ ]] || die "AGE_MIB must be a positive integer, not '$mib'"
[[ "$growth" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "GROWTH_MIB must be sizes in MiB, comma separated, not '$growth'"
out=$BUILD/results/bench
mkdir -p "$out"
rm -f "$out"/counts "$out"/problems
# The rows of the table of boots ($TOP/boots) for bench: bench/PART, or
# bench/PART-SIDE for the parts with several boots (guard); their
# command lines take REPS, AGE_MIB and RECLAIM_SECS from here.
export REPS=$reps RECLAIM_SECS=$secs AGE_MIB=$mib GROWTH_MIB=$growth
rows=$(boot_rows bench) || exit 1
fail=0
boot() { "$TOP/scripts/boot.sh" -b "$@" || fail=1; }
part_rows() { grep -E "^bench/$1(-|$)" <<<"$rows" || die "no row bench/$1 or bench/$1-* for bench in ${BOOTS#"$TOP"/}"; }

for p in $parts; do
	case $p in
	age)
		rm -f "$out"/age.log "$out"/age-*.log
		say "bench: aging scenarios, $mib MiB, $reps repetitions, off/on alternated; the control; the host-timed cold walks"
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
	growth)
		rm -f "$out"/growth-*.log
		say "bench: cost growth, sets of $growth MiB, and 1 GiB with 0..100% of its tables cold"
		rs=$(part_rows growth) || exit 1
		for r in $rs; do boot "$r"; done
		;;
	agent)
		rm -f "$out"/agent.log "$out"/agent-*.log
		say "bench: the aging agent over drifting jobs, 10 pairs; a capped gc heap alone"
		rs=$(part_rows agent) || exit 1
		for r in $rs; do boot "$r"; done
		;;
	apps)
		rs=$(part_rows apps) || exit 1
		if [ -n "${APPS:-}" ]; then
			rs=$(for a in ${APPS//,/ }; do grep -x "bench/apps-$a" <<<"$rs" || die "no row bench/apps-$a"; done) || exit 1
		fi
		say "bench: real applications, $(echo ${rs//bench\/apps-/})"
		# the servers' initramfs holds guest/tests/bench-apps: make it
		# again if that changed (make bench's build leaves it alone)
		"$TOP/scripts/apps-initramfs.sh" || exit 1
		for r in $rs; do
			boot_row "$r"
			case $ROW_KERNEL in x86:*)
				LAB_ARCH=x86 "$TOP/scripts/apps-initramfs.sh" || exit 1
				break
				;;
			esac
		done
		for r in $rs; do
			done_f=$out/${r#bench/}.done
			if [ "${BENCH_RESUME:-0}" = 1 ] && [ -f "$done_f" ] && [ -f "$out/${r#bench/}.log" ]; then
				say "bench: $r passed before ($(cat "$done_f")), kept (BENCH_RESUME=1)"
				continue
			fi
			rm -f "$out/${r#bench/}.log" "$done_f"
			t0=$(date +%s)
			if "$TOP/scripts/boot.sh" -b "$r"; then
				echo "$(date -u +%FT%TZ), $(($(date +%s) - t0)) s" >"$done_f"
			else
				fail=1
			fi
			say "bench: $r ended after $((($(date +%s) - t0) / 60)) min"
		done
		;;
	report | apps-report) ;;
	*) die "unknown bench part '$p' (age, reclaim, guard, growth, agent, apps, report, apps-report)" ;;
	esac
done
# APPS_REPLAY=1: the real-application rows that did not run this time
# stand in from the published results/apps.csv (scripts/apps-replay.py),
# every tag the logs here carry left out of it, so that re-running one
# row (or adding its control) publishes beside the others
rm -f "$out/apps-published.log"
if [ "${APPS_REPLAY:-0}" = 1 ]; then
	logs=$(ls "$out"/*.log 2>/dev/null || true)
	# shellcheck disable=SC2086
	python3 "$TOP/scripts/apps-replay.py" "$TOP/results/apps.csv" --except-logs $logs \
		>"$out/apps-published.log.tmp" && mv "$out/apps-published.log.tmp" "$out/apps-published.log" ||
		die "APPS_REPLAY: results/apps.csv could not be replayed"
fi
python3 "$TOP/scripts/bench-report.py" "$out" || fail=1
# The published copy: results/ (scripts/results.py renders
# results/README.md and the cover letter's numbers from it).
if [ $fail = 0 ] && { [ "$parts" = apps ] || [ "$parts" = apps-report ]; }; then
	# the real applications alone: their section and targets, the rest of
	# results/ as it was
	cp "$out/apps.md" "$out/apps.csv" "$TOP/results/"
	[ ! -f "$out/apps-saving.png" ] || cp "$out/apps-saving.png" "$TOP/results/"
	python3 - "$out/apps-summary.json" "$TOP/results/summary.json" <<'PY' || fail=1
import json, sys
new = json.load(open(sys.argv[1]))["targets"]
doc = json.load(open(sys.argv[2]))
doc["targets"] = [t for t in doc["targets"] if not t["name"].startswith("apps-")] + new
doc["apps"] = json.load(open(sys.argv[1]))["apps"]
with open(sys.argv[2], "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")
PY
elif [ $fail = 0 ]; then
	[ ! -f "$out/apps.md" ] || cp "$out/apps.md" "$out/apps.csv" "$TOP/results/"
	[ ! -f "$out/apps-saving.png" ] || cp "$out/apps-saving.png" "$TOP/results/"
	for f in bench.md bench.csv summary.json "$out"/bench*.png; do
		cp "$out/${f##*/}" "$TOP/results/"
	done
	python3 - "$TOP" "$reps" <<'PY' || fail=1
import json, sys, time
sys.path.insert(0, sys.argv[1] + "/scripts")
import results
with open(sys.argv[1] + "/results/bench.json", "w") as f:
    json.dump({"date": time.strftime("%Y-%m-%d", time.gmtime()), "qemu": results.qemu_version(),
               "reps": int(sys.argv[2]), "icount": "shift=0,sleep=off",
               "note": "Guest times are instructions executed (QEMU -icount shift=0,sleep=off: 1 ns each), "
                       "except the host-timed cold walks (age-wallclock)."}, f, indent=1)
    f.write("\n")
PY
fi
# the model from what results/ now holds, then README and cover letter
if [ $fail = 0 ]; then
	python3 "$TOP/scripts/model.py" "$TOP/results" || fail=1
	python3 "$TOP/scripts/results.py" render || fail=1
fi
[ $fail = 0 ] || die "some benchmark boots failed: see the verdicts above and $out/*.log"
