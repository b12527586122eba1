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
# fail_exit DESC : a suite that cannot go on: one failed result, the plan,
# and exit 1.
fail_exit() { not_ok "$*"; tap_end; exit 1; }

# A command on the left of a pipe loses its exit status. status_to FILE
# CMD... runs CMD, its stderr with its stdout, and writes its exit status
# to FILE; status_from FILE prints that status (255 when none was written:
# the left side was killed) and removes FILE.
status_to() {
	(
		shift
		"$@"
	) 2>&1
	echo $? >"$1"
}
status_from() { cat "$1" 2>/dev/null || echo 255; rm -f "$1"; }
# tee_status FILE CMD... : run CMD with a copy of its output in FILE, and
# return its status (for tap_nested, which runs CMD in a pipeline).
tee_status() {
	_ts_f=$1
	shift
	status_to "$_ts_f.rc" "$@" | tee "$_ts_f"
	return "$(status_from "$_ts_f.rc")"
}
# pmd_span_mib MIN : MIN MiB, or two PMD spans (hpage_pmd_size) where that
# is more: the smallest set lru_gen_nonleaf -s takes (1 GiB with 64 KiB pages).
pmd_span_mib() {
	_ps_m=$(($(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size 2>/dev/null || echo 2097152) >> 20))
	_ps_m=$((2 * _ps_m))
	echo $((_ps_m > $1 ? _ps_m : $1))
}

# timed CMD... : run a benchmark program (mmap-touch, gups) that prints
# one line with 'seconds=S'. Its output goes to timed_out and S to timed_s;
# returns 1 when there is no 'seconds=' in the output.
timed() {
	timed_out=$("$@")
	timed_s=$(echo "$timed_out" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
	[ -n "$timed_s" ]
}
# mmap_loop MIB ITER : the page-fault-heavy loop of bench-guard and
# qemu-cost, through timed: guest/src/mmap-touch maps MIB MiB, writes
# every page and unmaps it, ITER times.
mmap_loop() { timed /lab/bin/mmap-touch "$1" "$2"; }

# lru_gen/enabled: the MGLRU capability bits (0x0004: non-leaf PMD young).
lru_en=/sys/kernel/mm/lru_gen/enabled
# caps_save: remember what lru_gen/enabled reads (in caps_old);
# caps_restore writes that back; caps_restored is a result: it reads that
# now.
caps_save() { caps_old=$(cat $lru_en); }
caps_restore() { echo "$caps_old" >$lru_en; }
caps_restored() { check "lru_gen/enabled restored" "$caps_old" "$(cat $lru_en)"; }
# caps_allowed CAPS : whether lru_gen/enabled takes CAPS (the write works
# and reads back as CAPS, e.g. 0x0007); it is put back as it was.
caps_allowed() {
	_ca_was=$(cat $lru_en)
	_ca_rc=0
	echo "$1" >$lru_en 2>/dev/null && [ "$(cat $lru_en)" = "$1" ] || _ca_rc=1
	echo "$_ca_was" >$lru_en
	return $_ca_rc
}
# The kernel's boot message when it uses FEAT_HAFT ("CPU features:
# detected: ..."); haft_line prints that line of the boot log, if any.
haft_msg="Hardware managed Access Flag for Table Descriptors"
haft_line() { dmesg | grep -m1 "$haft_msg"; }

# CPU hotplug of cpu1. cpu1_set 0|1 takes it offline or online and is true
# when it then reads so. cpu1_cycle OFF_DESC ON_DESC takes it offline and
# back, a result for each step (none for the first when OFF_DESC is "").
cpu1=/sys/devices/system/cpu/cpu1/online
cpu1_set() { echo "$1" >$cpu1 && [ "$(cat $cpu1)" = "$1" ]; }
cpu1_cycle() {
	echo 0 >$cpu1
	[ -z "$1" ] || check "$1" 0 "$(cat $cpu1)"
	echo 1 >$cpu1
	check "$2" 1 "$(cat $cpu1)"
}

# Swap on zram. zram_swap_on SIZE (e.g. 512M) sets /dev/zram0 of that size
# up as swap; returns 2 when the kernel has no zram, 1 when zram0 is in
# use already or could not be set up. zram_swap names the swap device
# while it is on; zram_swap_off turns it off and resets zram0 (a failed
# result if that fails; nothing when no swap was set up).
zram_swap=
zram_swap_on() {
	[ -e /sys/block/zram0 ] || return 2
	[ "$(cat /sys/block/zram0/disksize)" = 0 ] &&
		echo "$1" >/sys/block/zram0/disksize && mkswap /dev/zram0 >/dev/null &&
		swapon /dev/zram0 && zram_swap=/dev/zram0
}
zram_swap_off() {
	[ -z "$zram_swap" ] || { swapoff $zram_swap && echo 1 >/sys/block/zram0/reset; } ||
		not_ok "swapoff $zram_swap failed"
	zram_swap=
}

# Memory cgroups (cgroup v2, mounted by guest/init). memcg_make DIR: the
# memory controller on for the root's children, and DIR made (mkdir -p);
# in_cgroup DIR CMD... runs CMD in cgroup DIR (where it is, when DIR is
# ""), or fails when it cannot join DIR. To have CMD's own process id in
# $! when it runs in the background, run sh -c "$in_cgroup_sh" NAME DIR
# CMD... (a shell function in the background is a subshell of its own).
memcg_make() {
	grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
		echo +memory >/sys/fs/cgroup/cgroup.subtree_control
	mkdir -p "$1"
}
# shellcheck disable=SC2016
in_cgroup_sh='[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit; shift; exec "$@"'
in_cgroup() { sh -c "$in_cgroup_sh" sh "$@"; }

# counter FILE KEY : the value of KEY in a "KEY VALUE" file (/proc/vmstat,
# memory.stat), 0 when it has none.
counter() {
	awk -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$1"
}
# sysfs_choice FILE : the selected value of a sysfs choice file
# ("always [madvise] never" reads madvise).
sysfs_choice() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$1"; }

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
	status_to "$_out.rc" "$@" | while IFS= read -r _l; do printf '    %s\n' "$_l"; done | tee "$_out"
	_rc=$(status_from "$_out.rc")
	case $_rc in
	0) ok "$_desc" ;;
	# a whole-program skip, or one that ran cases and then skipped
	4) skip "$_desc: $(sed -n 's/^ *1\.\.0 # SKIP *//p; s/^ *# SKIP: *//p' "$_out" | head -n 1)" ;;
	*) not_ok "$_desc: exited $_rc$(grep -m1 '^ *Bail out!' "$_out" | sed 's/^ */: /')" ;;
	esac
	rm -f "$_out"
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
# or does not match its results; otherwise CMD's status if that is not 0
# (4, KSFT_SKIP, also where CMD ran cases before it skipped, or skipped
# them all with '1..0 # SKIP'); otherwise 4 if all of CMD's results are
# skips, else 0.
ksft_nest() {
	_kn=/tmp/ksft_nest.$$
	status_to "$_kn.rc" "$@" | awk -v vfile="$_kn.verdict" '
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
	_rc=$(status_from "$_kn.rc")
	_v=$(cat "$_kn.verdict" 2>/dev/null || echo 1)
	rm -f "$_kn.verdict"
	if [ "$_v" = 1 ]; then return 1; fi
	case $_rc in 0) return "$_v" ;; *) return "$_rc" ;; esac
}
