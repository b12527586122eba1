#!/bin/bash
# Soak the series: the rows of the table of boots ($TOP/boots) whose
# targets include soak (guest/tests/soak for DURATION seconds on -cpu max,
# FEAT_HAFT in use, and on -cpu max,haft=off), one after the other. The
# guest prints 'LAB: soak: ...' progress lines, shown here as they come;
# each boot is judged by scripts/verdict.py (build/results/ROW.log).
#   soak.sh DURATION [ROW...]     e.g. soak.sh 3600; 'make test' runs
#                                 soak.sh 45 ROW for each of them
. "$(dirname "$0")/lib.sh"

dur=${1:-}
[[ "$dur" =~ ^[0-9]+$ ]] && [ "$dur" -gt 0 ] || die "usage: soak.sh DURATION_SECONDS [ROW...]"
shift
soak_rows=$(boot_rows soak)
rows=("$@")
[ $# -gt 0 ] || read -ra rows <<<"$(echo $soak_rows)"
for r in "${rows[@]}"; do
	grep -qxF -- "$r" <<<"$soak_rows" || die "'$r' is not a row of ${BOOTS#"$TOP"/} for soak (those are: $(echo $soak_rows))"
done
# The rows' timeouts leave a TCG margin: boot, stress-ng overrunning its
# timeout under load, the kselftest afterwards (a few minutes), and a
# quarter on top for a slow host.
export DURATION=$dur

rc=0
for r in "${rows[@]}"; do
	boot_row "$r"
	say "soak: $r: ${dur}s of stress on -cpu $ROW_CPU"
	t0=$(date +%s)
	"$TOP/scripts/boot.sh" -b "$r" || rc=1
	log=$BUILD/results/$r.log
	sed -n 's/^# soak: \([0-9]* s, .*\)/    soak figures: \1/p' "$log" >&2
	say "soak: $r took $(($(date +%s) - t0))s"
done
exit $rc
