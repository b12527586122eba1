#!/bin/bash
# TAP: scripts/checkpatch.pl --strict on every patch in patches/series.
. "$(dirname "$0")/lib.sh"
tree=$BUILD/linux
mapfile -t patches < <(series_files "$TOP/patches")
fail=0
for p in "${patches[@]}"; do
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict -q --color=never "$p" 2>&1) && rc=0 || rc=$?
	if [ $rc = 0 ] && ! grep -qE '^(ERROR|WARNING|CHECK):' <<<"$out"; then
		echo "ok - checkpatch --strict: $(basename "$p")"
	else
		echo "not ok - checkpatch --strict: $(basename "$p")"
		sed 's/^/#   /' <<<"$out" | head -40
		fail=1
	fi
done
[ ${#patches[@]} -gt 0 ] || echo "ok - checkpatch --strict: series is empty # SKIP"
exit $fail
