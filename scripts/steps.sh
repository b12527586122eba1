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

# run_plan : run every item of the plan, side by side where it can. The
# caller (scripts/test.sh) sets
#   seq          the items in plan order (host steps and rows)
#   is_row[X]    1 for a row (a boot), empty for a host step
#   needs[X]     what must have passed before X starts (its inputs)
#   after[X]     what must have ended, passed or not, before X starts
#   critical[X]  why the run stops when X fails (empty: it goes on)
#   order        optional: the same items in the order in which ready ones
#                are started (test.sh: the rows longest first); seq when
#                unset
# and defines run_item X (runs X, returns its verdict), weight X (the
# CPUs X keeps busy) and is_net X (X downloads: one such at a time).
# An item starts when its needs have passed, its afters have ended and
# its weight fits in LAB_SLOTS (an item alone always fits). Host steps are
# looked at first, in plan order; while one is ready and does not fit only
# because of the rows running, no row starts, or boots (one slot each)
# would keep a build from ever starting (one held back by another host
# step holds back nothing). An item one of whose needs failed never starts: it stays
# never judged, a failure in the summary. A critical item that fails
# stops the run: nothing more starts, what runs finishes. Each item's
# start and end go to $RES/times ('NAME START END STATUS WEIGHT', seconds
# since the epoch), which scripts/timing.py reports.
run_plan() {
	local -A state=() pid_item=()
	local used=0 used_host=0 net=0 nrun=0 ndone=0 total=${#seq[@]} t_start s w pid rc t0 t1
	LAB_SLOTS=${LAB_SLOTS:-$(($(nproc) + 1))}
	[[ "$LAB_SLOTS" =~ ^[1-9][0-9]*$ ]] || die "LAB_SLOTS must be a positive number, not '$LAB_SLOTS'"
	t_start=$(date +%s)
	: >"$RES/times"
	while :; do
		_pick
		[ $nrun -gt 0 ] || break
		pid='' rc=0
		wait -n -p pid || rc=$?
		s=${pid_item[$pid]:-}
		[ -n "$s" ] || continue
		unset "pid_item[$pid]"
		t1=$(date +%s)
		read -r _ t0 <"$RES/.start-${s//\//_}"
		rm -f "$RES/.start-${s//\//_}"
		w=$(weight "$s")
		used=$((used - w)) nrun=$((nrun - 1)) ndone=$((ndone + 1))
		[ -n "${is_row[$s]:-}" ] || used_host=$((used_host - w))
		! is_net "$s" || net=0
		if [ $rc = 0 ]; then state[$s]=pass; else state[$s]=fail; fi
		printf '%s %s %s %s %s\n' "$s" "$t0" "$t1" "${state[$s]}" "$w" >>"$RES/times"
		say "test: $s: ${state[$s]} in $(_mmss $((t1 - t0))) [$ndone of $total ended, $(_mmss $((t1 - t_start))) since the start, $nrun running]"
		[ $rc = 0 ] || [ -z "${critical[$s]:-}" ] || stop "${critical[$s]}"
	done
}
_mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
# _ready X : X can start (0), must wait (1), or can never start (2)
_ready() {
	local x
	for x in ${needs[$1]:-}; do
		case ${state[$x]:-} in
		pass) ;;
		fail | never) return 2 ;;
		*) return 1 ;;
		esac
	done
	for x in ${after[$1]:-}; do
		case ${state[$x]:-} in pass | fail | never) ;; *) return 1 ;; esac
	done
	return 0
}
_start() {
	local s=$1 w
	w=$(weight "$s")
	state[$s]=run
	used=$((used + w)) nrun=$((nrun + 1))
	[ -n "${is_row[$s]:-}" ] || used_host=$((used_host + w))
	! is_net "$s" || net=1
	printf '%s %s\n' "$s" "$(date +%s)" >"$RES/.start-${s//\//_}"
	run_item "$s" &
	pid_item[$!]=$s
}
# _pick : start every item that can start now
_pick() {
	local s w r blocked=0 rows
	for rows in '' 1; do
		[ -z "$rows" ] || [ $blocked = 0 ] || return 0
		for s in "${order[@]:-${seq[@]}}"; do
			[ "${is_row[$s]:-}" = "$rows" ] && [ -z "${state[$s]:-}" ] || continue
			[ -z "$STOPPED" ] || return 0
			r=0
			_ready "$s" || r=$?
			if [ $r = 2 ]; then
				state[$s]=never ndone=$((ndone + 1))
				continue
			fi
			[ $r = 0 ] || continue
			w=$(weight "$s")
			if is_net "$s" && [ $net = 1 ]; then
				continue
			fi
			if [ $((used + w)) -gt "$LAB_SLOTS" ] && [ $used -gt 0 ]; then
				[ $((used_host + w)) -gt "$LAB_SLOTS" ] || blocked=1
				continue
			fi
			_start "$s"
		done
	done
}
