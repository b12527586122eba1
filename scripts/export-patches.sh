#!/bin/bash
# Export the commits on top of 'base' in build/linux to patches/ as
# git format-patch output with a cover letter and a series file, and refresh
# the copies of the files the series adds (under arch/ mm/ tools/
# Documentation/ at the top of this repo). The cover letter's subject and
# text are kept from the existing patches/0000-cover-letter.patch; its
# shortlog and diffstat are regenerated.
. "$(dirname "$0")/lib.sh"
need git

tree=$BUILD/linux
# The cover letter is signed by the series' author, not by whoever exports.
G() { git -C "$tree" -c user.name="HAFT Lab" -c user.email=lab@localhost "$@"; }
[ -d "$tree/.git" ] || die "build/linux missing: run 'make tree'"
[ -z "$(G status --porcelain --untracked-files=no | head -1)" ] ||
	die "build/linux has uncommitted edits; commit them first"
n=$(G rev-list --count base..HEAD)
[ "$n" -gt 0 ] || die "build/linux has no commits on top of base"

cover=$TOP/patches/0000-cover-letter.patch
if [ -f "$cover" ]; then
	python3 - "$cover" >"$BUILD/cover-description" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, _, body = text.partition("\n\n")
subj = re.search(r"^Subject: (?:\[[^]]*\] )?(.*(?:\n .*)*)", head, re.M).group(1)
subj = re.sub(r"\n ", " ", subj)
# the text ends where git's shortlog ('Author Name (N):') starts
m = re.search(r"^\S.*\(\d+\):\n", body, re.M)
body = body[:m.start()] if m else body
print(subj + "\n\n" + body.strip() + "\n")
PY
else
	printf '%s\n\n%s\n' "*** SUBJECT HERE ***" "*** BLURB HERE ***" >"$BUILD/cover-description"
fi
G config branch.lab.description "$(cat "$BUILD/cover-description")"

tmp=$BUILD/export
rm -rf "$tmp"
# The abbreviation of the index lines is fixed, so that a tree made
# again (fewer objects, shorter default) exports the same files.
G -c core.abbrev=9 format-patch -q --cover-letter --cover-from-description=subject \
	--zero-commit --no-signature -o "$tmp" base..HEAD
rm -f "$TOP"/patches/*.patch
cp "$tmp"/*.patch "$TOP/patches/"
{
	echo "# The kernel series, applied in order with git am by scripts/kernel-tree.sh."
	(cd "$tmp" && ls *.patch | grep -v '^0000-cover-letter')
} >"$TOP/patches/series"

# Added files, copied to their kernel paths here; stale copies removed.
for d in arch mm tools Documentation; do
	[ -d "$TOP/$d" ] && find "$TOP/$d" -type f -delete && find "$TOP/$d" -type d -empty -delete
done
G diff --name-only --diff-filter=A base HEAD -- arch mm tools Documentation |
	while read -r f; do
		mkdir -p "$TOP/$(dirname "$f")"
		cp "$tree/$f" "$TOP/$f"
	done
# The tree now matches patches/ exactly: record that so 'make tree' keeps it.
mapfile -t patches < <(series_files "$TOP/patches")
echo "$(hash_of "$TOP/patches/series" "${patches[@]}") $(G rev-parse HEAD)" >"$BUILD/linux.applied"
say "export: $n patch(es) + cover letter in patches/"
