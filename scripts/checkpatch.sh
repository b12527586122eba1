#!/bin/bash
# TAP (numbered, with a plan): scripts/checkpatch.pl --strict on every patch in patches/series.
# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is not taken from
# checkpatch, which raises it for every new file; instead every file the
# series adds must already have a maintainer in MAINTAINERS.
# UNKNOWN_COMMIT_ID: patches credit the mainline commits they re-implement
# ("Based on commit efe72541355d (...)"), which a 6.12 tree does not hold,
# so checkpatch cannot look them up here; the form of every citation is
# still checked (GIT_COMMIT_ID).
. "$(dirname "$0")/lib.sh"
tree=$BUILD/linux
mapfile -t patches < <(series_files "$TOP/patches")
fail=0
for p in "${patches[@]}"; do
	if checkpatch_ok "$tree" "$p" -- --ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID >"$BUILD/checkpatch.out"; then
		tap_result 0 "checkpatch --strict: $(basename "$p")"
	else
		tap_result 1 "checkpatch --strict: $(basename "$p")"
		cat "$BUILD/checkpatch.out"
		fail=1
	fi
done
[ ${#patches[@]} -gt 0 ] || tap_skip "checkpatch --strict: series is empty"
for f in $(git -C "$tree" diff --name-only --diff-filter=A base HEAD); do
	if (cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback -f "$f" 2>/dev/null) |
		grep -q '(maintainer:'; then
		tap_result 0 "new file $f has a maintainer in MAINTAINERS"
	else
		tap_result 1 "new file $f has no maintainer in MAINTAINERS"
		fail=1
	fi
done
tap_plan
exit $fail
