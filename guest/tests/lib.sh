# TAP helpers for guest suites (busybox sh). Sourced.
#
# The contract with the host's judge (scripts/verdict.py): a suite prints
# one TAP stream on stdout -- results 'ok N - ...' / 'not ok N - ...'
# numbered 1, 2, 3 ... and exactly one plan '1..N' matching them -- and
# exits 0 only if nothing failed. Anything else it prints is a '# ' line.
# Another program's TAP goes in as a nested (KTAP) subtest: tap_nested
# indents it by four spaces and adds one result line for it at this level.
# The judge checks the plan, the numbering, the exit status and every
# nested stream the same way, and counts the innermost results.
tap_n=0
tap_fail=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_fail=$((tap_fail + 1)); echo "not ok $tap_n - $*"; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $* # SKIP"; }
# check DESC EXPECTED ACTUAL
check() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: expected '$2', got '$3'"; fi
}
tap_end() { echo "1..$tap_n"; [ "$tap_fail" = 0 ]; }

# tap_nested DESC CMD... : run CMD (stdout and stderr), whose output is a
# TAP stream, as a subtest: each line indented by four spaces as it comes,
# then one result here -- ok when CMD exits 0, a skip when it exits 4 (the
# kselftest convention; the reason is taken from its '1..0 # SKIP' line),
# not ok for any other status. Returns CMD's status.
tap_nested() {
	_desc=$1
	shift
	_out=/tmp/tap_nested.$$.$tap_n
	echo "    # Subtest: $_desc"
	{
		"$@" 2>&1
		echo $? >"$_out.rc"
	} | while IFS= read -r _l; do printf '    %s\n' "$_l"; done | tee "$_out"
	_rc=$(cat "$_out.rc" 2>/dev/null || echo 255)
	case $_rc in
	0) ok "$_desc" ;;
	4) skip "$_desc: $(sed -n 's/^ *1\.\.0 # SKIP *//p' "$_out" | head -n 1)" ;;
	*) not_ok "$_desc: exited $_rc$(grep -m1 '^ *Bail out!' "$_out" | sed 's/^ */: /')" ;;
	esac
	rm -f "$_out" "$_out.rc"
	return "$_rc"
}
