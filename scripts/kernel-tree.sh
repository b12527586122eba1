#!/bin/bash
# Make build/linux: Debian's linux-source-6.12 as a git tree whose first
# commit (tag 'base') is the pristine source, with patches/series applied on
# top by 'git am'. Re-applies only when patches/ changed, and refuses to
# throw away commits that were made in build/linux but not exported.
. "$(dirname "$0")/lib.sh"
need git tar xz dpkg-query

if [ "${BASE:-}" = newest ]; then
	# The newest linux-source-6.12 that Debian ships (trixie-security,
	# usually ahead of bookworm's), fetched once into $CACHE/linux-source.
	# The tree goes to build/newest/linux unless BUILD says otherwise, so
	# that it never replaces the lab's own; build its kernel with the same
	# BUILD (same relative paths as the lab's: ccache hits).
	[ "$BUILD" != "$TOP/build" ] || BUILD=$TOP/build/newest
	need apt-get apt-cache dpkg-deb
	newer_apt_update
	found=$(newer_apt apt-cache show linux-source-6.12 | sed -n 's/^Version: //p' | sort -V | tail -1)
	[ -n "$found" ] || die "Debian's newer suites list no linux-source-6.12 (see $NEWER_APT/update.log)"
	src=$CACHE/linux-source/$found
	newer_apt_unpack "$src" "linux-source-6.12=$found"
	tarball=$src/usr/src/linux-source-6.12.tar.xz
	[ -f "$tarball" ] || die "linux-source-6.12 $found has no usr/src/linux-source-6.12.tar.xz"
else
	tarball=/usr/src/linux-source-6.12.tar.xz
	[ -f "$tarball" ] || die "$tarball not found: run 'make deps' (installs linux-source-6.12)"
	found=$(dpkg-query -W -f '${Version}' linux-source-6.12)
fi
# patches/TESTED_BASE: 'needs 6.12.N', the oldest 6.12.y the series can go
# on, then one Debian version per line, each a tree the series was last
# built and tested on.
tested=$(grep -v '^#' "$TOP/patches/TESTED_BASE" | grep -v '^needs ' | paste -sd' ')
min=$(sed -n 's/^needs 6\.12\.\([0-9][0-9]*\)$/\1/p' "$TOP/patches/TESTED_BASE")
[ -n "$min" ] || die "patches/TESTED_BASE has no 'needs 6.12.N' line"
tree=$BUILD/linux
stamp=$BUILD/linux.applied
G() { git -C "$tree" -c user.name=lab -c user.email=lab@localhost "$@"; }

if [ -d "$tree/.git" ] && [ "$(cat "$BUILD/linux.base" 2>/dev/null)" != "$found" ]; then
	say "kernel: linux-source-6.12 is now $found; re-creating $tree"
	[ -z "$(G status --porcelain | head -1)" ] ||
		die "build/linux has uncommitted edits; commit and export them ('make patches') or remove build/linux"
	rm -rf "$tree" "$stamp"
fi
if [ ! -d "$tree/.git" ]; then
	say "kernel: extracting $tarball (Debian $found) into $tree, recorded as commit 'base'"
	rm -f "$stamp"
	tree_from_tarball "$tree" "$tarball" lab "Debian linux-source-6.12 $found"
	echo "$found" >"$BUILD/linux.base"
fi

mapfile -t patches < <(series_files "$TOP/patches")
want=$(hash_of "$TOP/patches/series" "${patches[@]}")
have= head=
[ ! -f "$stamp" ] || read -r have head <"$stamp" || true
if [ "${have:-}" != "$want" ]; then
	if [ -n "${head:-}" ] && [ "$(G rev-parse HEAD)" != "$head" ]; then
		die "build/linux has commits that are not in patches/; run 'make patches' to export them, or 'make reset-tree' to drop them"
	fi
	[ -z "$(G status --porcelain --untracked-files=no | head -1)" ] ||
		die "build/linux has uncommitted edits; commit them and run 'make patches', or discard them"
	say "kernel: applying ${#patches[@]} patch(es) from patches/series"
	rm -f "$stamp"
	G am --abort >/dev/null 2>&1 || true
	G reset -q --hard base
	why=$(base_fits "$tree" "$min") ||
		die "the series does not fit Debian linux-source-6.12 $found: $why"
	am_all "$tree" "does not apply to Debian linux-source-6.12 $found (series last tested on $tested)" "${patches[@]}"
	echo "$want $(G rev-parse HEAD)" >"$stamp"
fi
[[ " $tested " == *" $found "* ]] ||
	warn "linux-source-6.12 is $found; the series was last tested on $tested"
say "kernel: $tree is base + ${#patches[@]} patch(es)"
