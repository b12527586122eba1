# The step runner of 'make test' (sourced by scripts/test.sh, and by
# scripts/harness-test.sh, which feeds it crafted steps). Every step and
# boot is judged by scripts/verdict.py against what is expected of it and
# recorded in $RES/counts; 'plan' names, up front, everything the run must
# judge, so that a step that never ran, or died before its verdict, is a
# failure in the summary rather than a silence.
# shellcheck shell=bash

RES=${RES:-$BUILD/results}
VERDICT=${VERDICT:-$TOP/scripts/verdict.py}
BOOT=${BOOT:-$TOP/scripts/boot.sh}
STOPPED=

# plan NAME... : everything this run must judge, in order
plan() {
	mkdir -p "$RES"
	rm -f "$RES"/counts "$RES"/problems "$RES"/planned "$RES"/*.ktap "$RES"/*.out "$RES"/*.log "$RES"/report.ktap
	printf '%s\n' "$@" >"$RES/planned"
	local n
	for n in "$@"; do
		[[ "$n" != */* ]] || rm -f "$RES/$n.ktap"
	done
}
planned() { grep -qxF "$1" "$RES/planned" || die "step '$1' is not in the plan of ${0##*/}"; }

# run_step --plain|--tap NAME CMD... : a host step. --plain: judged by its
# exit status alone. --tap: its output must be one TAP stream with a plan,
# and it must exit 0. Output in $RES/NAME.out. Returns non-zero on failure.
run_step() {
	local mode=$1 name=$2 rc=0
	shift 2
	planned "$name"
	[ -z "$STOPPED" ] || return 1
	say "test: $name"
	"$@" >"$RES/$name.out" 2>&1 </dev/null || rc=$?
	[ $rc = 0 ] || tail -n 30 "$RES/$name.out" | sed 's/^/    /' >&2
	local t=
	[ "$mode" = --tap ] && t=--tap
	LAB_RESULTS=$RES python3 "$VERDICT" host "$name" "$RES/$name.out" "$rc" $t || rc=1
	return $rc
}
host_step() { run_step --plain "$@"; }
host_tap() { run_step --tap "$@"; }

# guest NAME [CMD...] : a guest boot, the row NAME of the table of boots
# (scripts/boot.sh -b NAME, or CMD when given), which judges its own
# console log; if it dies before that, nothing is recorded and the
# summary counts NAME as never judged.
guest() {
	local name=$1
	shift
	planned "$name"
	[ -z "$STOPPED" ] || return 1
	# verdict.py counts the row in this run's RES (LAB_RESULTS), also
	# when its log is in a subdirectory (x86/6.12).
	if [ $# = 0 ]; then
		LAB_RESULTS=$RES "$BOOT" -b "$name"
	else
		LAB_RESULTS=$RES "$@"
	fi
}

# stop WHY : a step the rest depends on failed; the remaining planned
# steps are not run, and the summary counts each as a failure.
stop() {
	[ -z "$STOPPED" ] || return 0
	say "test: stopping: $1; the steps after it do not run"
	STOPPED=$1
}

# summary : 'N passed, N failed[, N skipped]'; non-zero on any failure
summary() {
	[ -z "$STOPPED" ] || echo "--- the run stopped early: $STOPPED"
	python3 "$VERDICT" summary "$RES"
}
