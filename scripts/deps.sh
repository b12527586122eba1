#!/bin/bash
# Install exactly the Debian packages the lab needs, and a deb-src entry for
# the suites the machine already uses (for 'apt-get source qemu'). Installs
# nothing when everything is there already.
. "$(dirname "$0")/lib.sh"

pkgs=(
	# cross toolchain for the guest kernel and programs
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
	# the kernel base tree and what building it needs
	linux-source-6.12 make gcc bc bison flex libssl-dev libelf-dev cpio kmod
	xz-utils rsync python3 perl git ccache
	# checkpatch.pl's SPDX check (scripts/spdxcheck.py)
	python3-ply python3-git
	# checking that guest programs are static
	file
	# QEMU from Debian's source package: fetching, configuring, building
	dpkg-dev ninja-build meson pkg-config libglib2.0-dev libpixman-1-dev
	zlib1g-dev libfdt-dev python3-venv
	# guest userland (Debian arm64 packages) and the bare-metal tests
	mmdebstrap
	# benchmark plots
	gnuplot-nox
)

[ "$(id -u)" = 0 ] || die "deps.sh installs packages and must run as root"

src=/etc/apt/sources.list.d/haftlab-src.sources
if ! apt-cache showsrc qemu 2>/dev/null | grep '^Package: qemu' >/dev/null; then
	if [ ! -f "$src" ]; then
		say "deps: adding deb-src entries for the suites in use ($src)"
		found=0
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			grep -q '^URIs:.*debian' "$f" || continue
			sed -n '/^Types:/,/^$/p' "$f" | sed 's/^Types:.*/Types: deb-src/' >>"$src"
			echo >>"$src"
			found=1
		done
		if [ $found = 0 ] && [ -f /etc/apt/sources.list ]; then
			grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >/etc/apt/sources.list.d/haftlab-src.list
		fi
	fi
	say "deps: apt-get update"
	apt-get update -q >/dev/null || die "apt-get update failed"
fi

missing=()
for p in "${pkgs[@]}"; do
	[ "${p#\#}" = "$p" ] || continue
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep 'install ok installed' >/dev/null || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	say "deps: installing ${missing[*]}"
	apt-get update -q >/dev/null || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >"${TMPDIR:-/tmp}/haftlab-apt.log" 2>&1 ||
		{ tail -20 "${TMPDIR:-/tmp}/haftlab-apt.log" >&2; die "apt-get install failed"; }
fi
for t in "${CROSS}gcc" ccache mmdebstrap ninja meson dpkg-source; do need "$t"; done
mkdir -p "$CACHE"
say "deps: all present"
