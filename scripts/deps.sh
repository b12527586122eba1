#!/bin/bash
# Install exactly the Debian packages the lab needs. QEMU's source (sid's
# qemu, through a deb-src entry) and the newer meson its configure needs
# (trixie's, unpacked into $QEMU_TOOLS) come through a private apt state
# (lib.sh: qemu_apt), so the host's apt sources stay as they are. Installs
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
	# (device-tree-compiler: the +ds tarball ships .dts, not .dtb)
	dpkg-dev ninja-build pkg-config libglib2.0-dev libpixman-1-dev
	zlib1g-dev libfdt-dev python3-venv device-tree-compiler
	debian-archive-keyring
	# guest userland (Debian arm64 packages) and the bare-metal tests
	mmdebstrap
	# qemu/run-tests.sh variant 6: the gdbstub's debug accesses, through gdb
	gdb-multiarch
	# benchmark plots
	gnuplot-nox
)
# LAB_ARCH=x86: the x86-64 boots' emulator, Debian's own.
[ "$LAB_ARCH" = arm64 ] || pkgs+=(qemu-system-x86)

[ "$(id -u)" = 0 ] || die "deps.sh installs packages and must run as root"

missing=()
for p in "${pkgs[@]}"; do
	[ "${p#\#}" = "$p" ] || continue
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep 'install ok installed' >/dev/null || missing+=("$p")
done
# Room on disk, before anything is written. A cold 'make test' leaves
# 4.6 GiB in build/ and 2.0 GiB in $CACHE, and the packages take about
# 1 GiB with their downloads (measured on a fresh clone, 2026-12); a
# warm run needs only what is not there yet.
room=("$BUILD:5120" "$CACHE:2560")
[ ${#missing[@]} = 0 ] || room+=("+/var/cache/apt/archives:1024")
disk_room deps "${room[@]}"
if [ ${#missing[@]} -gt 0 ]; then
	say "deps: installing ${missing[*]}"
	apt-get update -q >/dev/null || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		"${missing[@]}" >"${TMPDIR:-/tmp}/haftlab-apt.log" 2>&1 ||
		{ tail -20 "${TMPDIR:-/tmp}/haftlab-apt.log" >&2; die "apt-get install failed"; }
fi
for t in "${CROSS}gcc" ccache mmdebstrap ninja dtc dpkg-source; do need "$t"; done

# QEMU 10.2's configure wants meson >= 1.5; Debian 12 has 1.0.1. Debian
# trixie's own meson (1.7.0) and python3-pycotap, both Architecture: all,
# unpacked once into $QEMU_TOOLS (scripts/qemu-build.sh runs configure
# with qemu_tools_env). The deb-src entry for sid's qemu is in the same
# private apt state.
qemu_apt_update
apt_unpack "$QEMU_TOOLS" "$QEMU_APT" meson python3-pycotap
v=$(qemu_tools_env && meson --version) || die "$QEMU_TOOLS: meson does not run"
printf '1.5\n%s\n' "$v" | sort -V -C || die "$QEMU_TOOLS has meson $v; QEMU needs 1.5 or newer"
mkdir -p "$CACHE"
say "deps: all present"
