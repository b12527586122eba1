#!/bin/bash
# Fetch (once) Debian's own arm64 6.12 kernel from bookworm-security and
# print the path of its vmlinuz, for checking that the patched QEMU still
# boots an unmodified distribution kernel:
#   bash scripts/boot.sh -K "$(bash scripts/stock-kernel.sh)" -c max -r boot -n stock-max
# The package is the arm64 twin of the newest linux-image-6.12.*+deb12-amd64
# the host's apt knows (the host has no arm64 architecture configured);
# PKG=linux-image-6.12.N+deb12-arm64 picks another. Cached in
# $CACHE/stock-kernel/PKG. mmdebstrap uses the host's apt sources, which
# must include bookworm-security.
. "$(dirname "$0")/lib.sh"
need mmdebstrap apt-cache

pkg=${PKG:-}
if [ -z "$pkg" ]; then
	amd=$(apt-cache depends linux-image-6.12-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-6\.12\.[^ ]*-amd64\)$/\1/p' | head -1)
	[ -n "$amd" ] || die "apt-cache knows no linux-image-6.12-amd64: is bookworm-security in the host's sources? (apt-get update)"
	pkg=${amd%-amd64}-arm64
fi
dir=$CACHE/stock-kernel/$pkg
# Shared by every clone: one extraction at a time, renamed into place.
mkdir -p "$CACHE/stock-kernel"
exec 8>"$CACHE/stock-kernel/.lock"
flock 8
if [ ! -f "$dir/.done" ]; then
	say "stock kernel: extracting Debian's $pkg (arm64)"
	rm -rf "$dir" "$dir.tmp"
	run_logged "$CACHE/stock-kernel/$pkg.log" mmdebstrap --variant=extract \
		--arch=arm64 --include="$pkg" bookworm "$dir.tmp" ||
		die "could not fetch $pkg"
	touch "$dir.tmp/.done"
	mv "$dir.tmp" "$dir"
fi
flock -u 8
set -- "$dir"/boot/vmlinuz-*
[ -f "$1" ] || die "$pkg has no /boot/vmlinuz-* in $dir"
printf '%s\n' "$1"
