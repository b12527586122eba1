#!/bin/bash
# Fetch (once) one of Debian's own arm64 kernels (amd64 with LAB_ARCH=x86,
# for the x86-64 boots) and print the path of its image, for booting a
# kernel nobody here built on the lab's QEMU (on Debian's qemu-system-x86 for
# amd64):
#   stock-kernel.sh          Debian 12's 6.12 (bookworm-security), no series:
#                            the patched QEMU still boots a distribution kernel
#   stock-kernel.sh current  the newest linux-image-*-arm64 Debian ships
#                            (sid or trixie-backports): mainline with its own
#                            FEAT_HAFT support, and LRU_GEN_STATS off
# The kernel's config is extracted next to its image (config-VERSION for
# 6.12, config for current), where scripts/boot.sh reads what the kernel
# was built with. PKG=... picks another package (linux-image-6.12.N+deb12-arm64
# for the first, linux-binary-VERSION-arm64 for current). Cached in
# $CACHE/stock-kernel/PKG.
. "$(dirname "$0")/lib.sh"

kind=${1:-6.12}
case "$kind" in 6.12 | current) ;; *) die "usage: stock-kernel.sh [6.12|current]" ;; esac

pkg=${PKG:-}
if [ "$kind" = 6.12 ]; then
	need mmdebstrap apt-cache
	if [ -z "$pkg" ]; then
		amd=$(apt-cache depends linux-image-6.12-amd64 2>/dev/null |
			sed -n 's/^ *Depends: \(linux-image-6\.12\.[^ ]*-amd64\)$/\1/p' | head -1)
		[ -n "$amd" ] || die "apt-cache knows no linux-image-6.12-amd64: is bookworm-security in the host's sources? (apt-get update)"
		pkg=${amd%-amd64}-$DEB_ARCH
	fi
else
	need apt-get apt-cache dpkg-deb
	newer_apt_update
	if [ -z "$pkg" ]; then
		# linux-binary-7.3.4+deb13-arm64: the generic flavour (not cloud,
		# rt or unsigned), newest upstream version first.
		pkg=$(newer_apt apt-cache pkgnames linux-binary- |
			grep -E "^linux-binary-[0-9][0-9.]*\\+deb[0-9]+-$DEB_ARCH\$" |
			sed 's/^linux-binary-//' | sort -V | tail -1)
		[ -n "$pkg" ] || die "no linux-binary-*-$DEB_ARCH in sid or trixie-backports (see $NEWER_APT/update.log)"
		pkg=linux-binary-$pkg
	fi
fi

dir=$CACHE/stock-kernel/$pkg
if [ "$kind" = current ]; then
	# The image is in linux-binary-V, its config in linux-base-V.
	newer_apt_unpack "$dir" "$pkg" "linux-base-${pkg#linux-binary-}"
else
	extract() {
		say "stock kernel: extracting Debian's $pkg ($DEB_ARCH)"
		run_logged "$CACHE/stock-kernel/$pkg.log" mmdebstrap \
			--variant=extract --arch="$DEB_ARCH" --include="$pkg" bookworm "$1"
	}
	cache_fill "$dir" extract || die "could not fetch $pkg"
fi
set -- "$dir"/boot/vmlinuz-* "$dir"/usr/lib/modules/*/vmlinuz
for img; do
	[ -f "$img" ] && { printf '%s\n' "$img"; exit 0; }
done
die "$pkg has no boot/vmlinuz-* or usr/lib/modules/*/vmlinuz in $dir"
