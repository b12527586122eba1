# TAP helpers for guest suites (busybox sh). Sourced.
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
