#!/bin/bash
# Make build/mainline/linux: the newest kernel source Debian ships built
# from mainline (linux-source-N.M, N.M above 6.12, from sid or
# trixie-backports through the private apt of lib.sh) as a git tree whose
# first commit (tag 'base') is the pristine source, with the patches for
# mainline in upstream/tcr2-fix/ applied by 'git am' on the branch
# 'tcr2-fix'. The package is fetched once into $CACHE/linux-source; the
# tree is re-created when Debian's version moves and the branch re-made
# when the patches change. Leaves the tree on 'tcr2-fix'. check.sh's
# mainline gate builds 'base' (build/kernel-mainline-base) and 'tcr2-fix'
# (build/kernel-mainline-fix) from it.
# MAINLINE_PKG=linux-source-7.2 picks another package, MAINLINE_VERSION
# another version of it.
. "$(dirname "$0")/lib.sh"
need git tar xz apt-get apt-cache dpkg-deb

newer_apt_update
pkg=${MAINLINE_PKG:-}
if [ -z "$pkg" ]; then
	pkg=$(newer_apt apt-cache pkgnames linux-source- 2>/dev/null |
		grep -E '^linux-source-[0-9]+\.[0-9]+$' | grep -vxF linux-source-6.12 |
		sort -V | tail -1)
	[ -n "$pkg" ] || die "Debian's newer suites list no linux-source-N.M newer than 6.12 (see $NEWER_APT/update.log)"
fi
found=${MAINLINE_VERSION:-$(newer_apt apt-cache show "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -1)}
[ -n "$found" ] || die "Debian's newer suites have no $pkg (see $NEWER_APT/update.log)"
src=$CACHE/linux-source/$pkg-$found
top=$BUILD/mainline
tree=$top/linux
# Room for what is not there yet: the package (its .deb, then the
# tarball), the tree with its git objects, two kernel builds of 120 MB.
[ -d "$tree/.git" ] && [ "$(cat "$top/linux.base" 2>/dev/null)" = "$pkg $found" ] ||
	disk_room "mainline tree" "$src:350" "$tree:2200" "+$BUILD:300"
newer_apt_unpack "$src" "$pkg=$found"
tarball=$src/usr/src/$pkg.tar.xz
[ -f "$tarball" ] || die "$pkg $found has no usr/src/$pkg.tar.xz"

# upstream/TESTED_BASE: 'PACKAGE VERSION' per line, each a source the
# patches for mainline were last built and booted on.
tested=$(grep -v '^#' "$TOP/upstream/TESTED_BASE" | paste -sd' ' -)
stamp=$top/linux.applied
G() { git -C "$tree" -c user.name=lab -c user.email=lab@localhost "$@"; }

if [ -d "$tree/.git" ] && [ "$(cat "$top/linux.base" 2>/dev/null)" != "$pkg $found" ]; then
	say "mainline: Debian's source is now $pkg $found; re-creating $tree"
	[ -z "$(G status --porcelain --untracked-files=no | head -1)" ] ||
		die "$tree has uncommitted edits; commit them (and format-patch them to upstream/tcr2-fix/) or remove $tree"
	rm -rf "$tree" "$stamp"
fi
if [ ! -d "$tree/.git" ]; then
	say "mainline: extracting $tarball (Debian $pkg $found) into $tree, recorded as commit 'base'"
	rm -f "$stamp"
	tree_from_tarball "$tree" "$tarball" base-branch "Debian $pkg $found"
	echo "$pkg $found" >"$top/linux.base"
fi

patches=("$TOP"/upstream/tcr2-fix/*.patch)
[ -f "${patches[0]}" ] || die "no patches in upstream/tcr2-fix/ (the base tree is ready in $tree)"
# ids : the stable patch ids of the patches on stdin, in order
ids() { git patch-id --stable | cut -d' ' -f1 | paste -sd' ' -; }
want=$(hash_of "${patches[@]}")
have= head=
[ ! -f "$stamp" ] || read -r have head <"$stamp" || true
branch=$(G rev-parse -q --verify refs/heads/tcr2-fix || true)
if [ -n "$branch" ] && [ -n "${head:-}" ] && [ "$branch" != "$head" ]; then
	# Commits made on the branch by hand: fine once format-patch has
	# written them to upstream/tcr2-fix/ (same patches), refused otherwise.
	[ "$(G format-patch --stdout base..tcr2-fix | ids)" = "$(cat "${patches[@]}" | ids)" ] ||
		die "branch tcr2-fix of $tree has commits that are not in upstream/tcr2-fix/; export them (git format-patch -o upstream/tcr2-fix base..tcr2-fix) or remove $stamp to drop them"
	echo "$want $branch" >"$stamp"
	have=$want head=$branch
fi
if [ "${have:-}" != "$want" ]; then
	[ -z "$(G status --porcelain --untracked-files=no | head -1)" ] ||
		die "$tree has uncommitted edits; commit them (and format-patch them to upstream/tcr2-fix/) or discard them"
	say "mainline: applying ${#patches[@]} patch(es) from upstream/tcr2-fix/ on branch tcr2-fix"
	rm -f "$stamp"
	G am --abort >/dev/null 2>&1 || true
	G checkout -q -B tcr2-fix base
	am_all "$tree" "of upstream/tcr2-fix/ does not apply to Debian $pkg $found (last tested on ${tested:-nothing}): rebase it on this source" "${patches[@]}"
	echo "$want $(G rev-parse HEAD)" >"$stamp"
fi
G checkout -q tcr2-fix
grep -qxF "$pkg $found" <(grep -v '^#' "$TOP/upstream/TESTED_BASE") ||
	warn "mainline: the source is $pkg $found; upstream/tcr2-fix/ was last tested on ${tested:-nothing}"
say "mainline: $tree is Debian $pkg $found ('base') + ${#patches[@]} patch(es) on branch tcr2-fix"
