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

# ksft_nest CMD... : run CMD, a kselftest driver that prints TAP and puts
# its children's output in it as '# ' lines (kselftest/runner.sh, or
# mm/run_vmtests.sh), and print CMD's stream with each child's output
# turned back into a nested stream: the '# ' taken off and four spaces put
# on. A child's output runs from the runner's '# selftests: DIR: NAME' line
# to the runner's result for it, or from run_vmtests.sh's '# running CMD'
# banner to its '# [PASS]' / '# [SKIP]' / '# [FAIL]' line (dropped, so that
# the result follows the nested stream). A child whose output does not
# begin as TAP (a plan, a result or 'TAP version') keeps its '# ' lines,
# not nested. At both levels
# results get the ' - ' separator, and a line that is neither TAP nor a
# comment becomes a '# ' line (deeper prefixes stay comments); of a line
# redrawn with carriage returns only the last part is kept. It works on a
# plain TAP program as well (no child zones then). Returns 1
# if any result at either level is 'not ok', or CMD's own plan is missing
# or does not match its results; otherwise CMD's status if that is neither
# 0 nor 4; otherwise 4 if all of CMD's results are skips, else 0.
ksft_nest() {
	_kn=/tmp/ksft_nest.$$
	{
		"$@" 2>&1
		echo $? >"$_kn.rc"
	} | awk -v vfile="$_kn.verdict" '
		function tap(l, ind, lvl,   seg, k) {
			# progress redrawn with carriage returns: what a terminal
			# would show, the last non-empty part
			if (l ~ /\r/) {
				k = split(l, seg, "\r")
				while (k > 1 && seg[k] == "") k--
				l = seg[k]
			}
			if (l ~ /^(not )?ok [0-9]+/) {
				if (l !~ /^(not )?ok [0-9]+ - / && l !~ /^(not )?ok [0-9]+ *$/)
					sub(/^(not )?ok [0-9]+ /, "&- ", l)
				if (l ~ /^not ok/) bad++
				if (lvl == 0) { n++; if (l !~ /# *[Ss][Kk][Ii][Pp]/) real++ }
			} else if (l ~ /^1\.\.[0-9]+/) {
				if (lvl == 0) { plans++; plan = substr(l, 4) + 0 }
			} else if (l !~ /^(#|    |K?TAP version |Bail out!)/)
				l = "# " l
			print ind l
			fflush()
		}
		# child: 0 outside a child zone, 2 on the banner line under
		# "running", 1 inside; nest: 1 when the child began with TAP, 0
		# when not (its lines then stay comments), -1 undecided.
		BEGIN { child = 0 }
		child && /^# \[(PASS|SKIP|FAIL)\]$/ { child = 0; if (nest == 1) next }
		child && /^(not )?ok [0-9]+ / { child = 0 }
		child == 2 { child = 1; tap($0, "", 0); next }
		child && /^#( |$)/ {
			c = substr($0, 3)
			if (c == "") next
			if (nest < 0) nest = (c ~ /^(K?TAP version |1\.\.[0-9]|(not )?ok [0-9])/)
			if (nest) tap(c, "    ", 1); else tap($0, "", 0)
			next
		}
		/^# selftests: / { tap($0, "", 0); child = 1; nest = -1; next }
		/^# running / { tap($0, "", 0); child = 2; nest = -1; next }
		{ tap($0, "", 0) }
		END {
			v = 0
			if (bad || plans != 1 || plan != n) v = 1
			else if (n > 0 && real == 0) v = 4
			print v > vfile
		}'
	_rc=$(cat "$_kn.rc" 2>/dev/null || echo 255)
	_v=$(cat "$_kn.verdict" 2>/dev/null || echo 1)
	rm -f "$_kn.rc" "$_kn.verdict"
	if [ "$_v" = 1 ]; then return 1; fi
	case $_rc in 0 | 4) return "$_v" ;; *) return "$_rc" ;; esac
}
