#!/bin/bash
# Repeat boots that run the kselftest, to measure how often it fails and
# what changes that: arms of kernel command-line additions booted in
# turn (A B A B ...), with the host optionally kept busy.
#   flake-loop.sh [-n ROUNDS] [-l BUSY] [-k VARIANT|-K IMAGE] [-c CPU]
#                 [-r SUITES] [-e HAFT,CAPS] [-s] [-t TAG] -a APPEND [-a APPEND ...]
# -n rounds (10); -l BUSY host processes spinning for the whole loop (0);
# -k/-K/-c/-e as for boot.sh (default: Debian's current kernel, stock:current,
# on max, expecting HAFT and 0x0007); -r the guest suites (lru-nonleaf);
# -s stops at the first failure. Each -a is one arm: text added to the
# kernel command line ('-' for nothing), e.g. -a - -a damon_stat.enabled=N.
# Logs: build/results/flake-TAG-ARM-ROUND.log, TAG (-t) the loop's start
# time (HHMMSS) unless given, so that a loop never overwrites another's. Prints a line per boot and, per
# arm, how many boots passed and which kselftest results failed; exits 1
# when any boot failed.
. "$(dirname "$0")/lib.sh"
rounds=10 busy=0 kern=(-k stock:current) cpu=max suites=lru-nonleaf expect=yes,0x0007
stop_first=0 arms=() tag=$(date +%H%M%S)
while getopts "n:l:k:K:c:r:e:st:a:" o; do
	case $o in
	n) rounds=$OPTARG ;;
	l) busy=$OPTARG ;;
	k) kern=(-k "$OPTARG") ;;
	K) kern=(-K "$OPTARG") ;;
	c) cpu=$OPTARG ;;
	r) suites=$OPTARG ;;
	e) expect=$OPTARG ;;
	s) stop_first=1 ;;
	t) tag=$OPTARG ;;
	a) arms+=("$OPTARG") ;;
	*) die "usage: flake-loop.sh [-n ROUNDS] [-l BUSY] [-k VARIANT|-K IMAGE] [-c CPU] [-r SUITES] [-e HAFT,CAPS] [-s] [-t TAG] -a APPEND ..." ;;
	esac
done
[[ "$tag" =~ ^[a-z0-9_.-]+$ ]] || die "flake-loop.sh: -t takes lower-case letters, digits, '_', '.' and '-'"
[ ${#arms[@]} -gt 0 ] || die "flake-loop.sh: give at least one arm (-a APPEND, '-' for none)"
case $rounds$busy in *[!0-9]*) die "flake-loop.sh: -n and -l take numbers" ;; esac
# stock:current is fetched once, not per boot
if [ "${kern[0]}" = -k ] && [ "${kern[1]#stock:}" != "${kern[1]}" ]; then
	img=$("$TOP/scripts/stock-kernel.sh" "${kern[1]#stock:}") || die "Debian's ${kern[1]#stock:} kernel could not be fetched"
	kern=(-K "$img")
fi
pids=()
spin() { while :; do :; done; }
for ((i = 0; i < busy; i++)); do
	spin &
	pids+=($!)
done
trap '[ ${#pids[@]} = 0 ] || kill "${pids[@]}" 2>/dev/null' EXIT
say "flake-loop: $rounds round(s) of ${#arms[@]} arm(s), $busy busy host process(es), ${kern[*]} on $cpu"
declare -A pass=() fail=() why=()
bad=0
for ((r = 1; r <= rounds; r++)); do
	for ((a = 0; a < ${#arms[@]}; a++)); do
		app=${arms[$a]}
		[ "$app" != - ] || app=
		name=flake-$tag-$((a + 1))-$r
		rc=0
		"$TOP/scripts/boot.sh" "${kern[@]}" -c "$cpu" -r "$suites" -e "$expect" \
			-a "$app" -n "$name" >"$BUILD/results/$name.out" 2>&1 || rc=$?
		log=$BUILD/results/$name.log
		# the kselftest's failed results and what its walks waited for
		fails=$(grep -E '^ +not ok [0-9]+ - ' "$log" 2>/dev/null | sed -E 's/^ +not ok [0-9]+ - //' | sort -u | paste -sd ';' || true)
		# walks whose switch took more than one 1 ms sleep: "... (N)" ending the
		# walk's line (the console adds a CR), N > 1
		sleeps=$(grep -cE '^ +# .*: visited [0-9]+ young .* \(([2-9]|[1-9][0-9]+)\)[[:space:]]*$' "$log" 2>/dev/null || true)
		if [ $rc = 0 ]; then
			pass[$a]=$((${pass[$a]:-0} + 1))
			echo "round $r arm $((a + 1)) [${arms[$a]}]: pass (walks that waited for a switch: $sleeps)"
		else
			fail[$a]=$((${fail[$a]:-0} + 1))
			why[$a]="${why[$a]:-}${fails:-$(tail -n1 "$BUILD/results/$name.out")}|"
			echo "round $r arm $((a + 1)) [${arms[$a]}]: FAIL: ${fails:-$(tail -n1 "$BUILD/results/$name.out")} (log: ${log#"$TOP"/})"
			bad=1
			[ $stop_first = 0 ] || break 2
		fi
	done
done
for ((a = 0; a < ${#arms[@]}; a++)); do
	echo "arm $((a + 1)) [${arms[$a]}]: ${pass[$a]:-0} passed, ${fail[$a]:-0} failed${why[$a]:+: ${why[$a]%|}}"
done
exit $bad
