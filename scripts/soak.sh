#!/bin/bash
# Soak the series: boot guest/tests/soak for DURATION seconds on -cpu max
# (FEAT_HAFT in use) and on -cpu max,haft=off, one after the other. The
# guest prints 'LAB: soak: ...' progress lines, shown here as they come;
# each boot is judged by scripts/verdict.py (build/results/NAME.log).
#   soak.sh DURATION [NAME_PREFIX]      e.g. soak.sh 3600, or soak.sh 45 guest-soak
. "$(dirname "$0")/lib.sh"

dur=${1:-}
prefix=${2:-soak}
[[ "$dur" =~ ^[0-9]+$ ]] && [ "$dur" -gt 0 ] || die "usage: soak.sh DURATION_SECONDS [NAME_PREFIX]"
# TCG margin: boot, stress-ng overrunning its timeout under load, the
# kselftest afterwards (a few minutes), and a quarter on top for a slow host.
tmo=$((dur + dur / 4 + 600))

rc=0
for cpu in max max,haft=off; do
	name=$prefix-${cpu//[,=]/-}
	say "soak: $name: ${dur}s of stress on -cpu $cpu (timeout ${tmo}s)"
	t0=$(date +%s)
	"$TOP/scripts/boot.sh" -c "$cpu" -a "lab.soak_seconds=$dur" -r soak -t "$tmo" -n "$name" || rc=1
	log=$BUILD/results/$name.log
	sed -n 's/^# soak: \([0-9]* s, .*\)/    soak figures: \1/p' "$log" >&2
	say "soak: $name took $(($(date +%s) - t0))s"
done
exit $rc
