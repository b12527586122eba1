#!/bin/bash
# Build qemu-system-aarch64 from Debian's qemu source package (sid's
# 10.2.2, with Debian's own patches; qemu/TESTED_VERSION) plus our two
# series, qemu/fixes then qemu/patches (FEAT_HAFT, based on the fixes),
# and qemu/lab-patches. Only aarch64-softmmu and only what the 'virt'
# machine needs.
# Source and build live in $QEMU_DIR ($CACHE/qemu-10.2) so a fresh clone
# reuses them; the queue is re-applied when it changes, and ninja then
# rebuilds only what the change touched. Needs 'make deps' first (meson
# from trixie in $QEMU_TOOLS, the private apt state for the source).
. "$(dirname "$0")/lib.sh"
need apt-get dpkg-source git ninja pkg-config dtc
qemu_tools_env
need meson

src=$QEMU_DIR/src
out=$QEMU_DIR/build
mkdir -p "$QEMU_DIR"
# One build at a time: several clones may share this cache.
exec 9>"$QEMU_DIR/.lock"
flock 9

tested=$(cat "$TOP/qemu/TESTED_VERSION")
if [ ! -d "$src/.git" ]; then
	# The version the queue was tested on, not whatever sid has today:
	# sid's index lists newer qemu versions whose files the archive does
	# not always hold yet.
	say "qemu: fetching Debian's qemu source package $tested (sid)"
	qemu_apt_update
	rm -rf "$QEMU_DIR/dl" "$src"
	mkdir -p "$QEMU_DIR/dl"
	(cd "$QEMU_DIR/dl" && qemu_apt apt-get source --download-only "qemu=$tested" >fetch.log 2>&1) ||
		die "apt-get source qemu=$tested failed (run 'make deps'; is it still in sid?): $(tail -3 "$QEMU_DIR/dl/fetch.log")"
	dsc=$(ls "$QEMU_DIR"/dl/qemu_*.dsc | head -1)
	say "qemu: extracting $(basename "$dsc") with Debian's patches"
	run_logged "$QEMU_DIR/dl/extract.log" dpkg-source -x "$dsc" "$src"
	ver=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
	git -C "$src" init -q -b lab
	git -C "$src" add -A -f .
	git -C "$src" -c user.name=lab -c user.email=lab@localhost \
		commit -q -m "Debian qemu $ver"
	# The +ds tarball has no edk2 firmware blobs, but meson.build unpacks
	# them whenever bzip2 is found, even with --disable-install-blobs:
	# make it follow that option. A build fix for the lab, not part of
	# the queue.
	sed -i "s/^\( *unpack_edk2_blobs = bzip2.found()\)$/\1 and get_option('install_blobs')/" "$src/meson.build"
	grep -q "unpack_edk2_blobs = bzip2.found() and get_option('install_blobs')" "$src/meson.build" ||
		die "qemu: meson.build no longer has the edk2 unpack line the lab patches"
	git -C "$src" -c user.name=lab -c user.email=lab@localhost \
		commit -q -a -m "lab: no edk2 blobs to unpack (Debian's +ds tarball has none)"
	git -C "$src" tag base
	echo "$ver" >"$QEMU_DIR/version"
fi
ver=$(cat "$QEMU_DIR/version")

# The two series meant for upstream (the fixes, then FEAT_HAFT, which
# is based on them), then the lab-only patches on top.
queues=(fixes patches lab-patches)
mapfile -t patches < <(for q in "${queues[@]}"; do series_files "$TOP/qemu/$q"; done)
want=$(hash_of $(printf "$TOP/qemu/%s/series " "${queues[@]}") "${patches[@]}")
have=$(cat "$QEMU_DIR/applied" 2>/dev/null || true)
if [ "$want" != "$have" ]; then
	say "qemu: applying ${#patches[@]} patch(es) from qemu/fixes, qemu/patches and qemu/lab-patches on Debian qemu $ver"
	rm -f "$QEMU_DIR/applied"
	git -C "$src" am --abort >/dev/null 2>&1 || true
	git -C "$src" reset -q --hard base
	git -C "$src" clean -q -fdx
	for p in "${patches[@]}"; do
		if ! git -C "$src" -c user.name=lab -c user.email=lab@localhost \
			am -q --keep-cr "$p" >"$QEMU_DIR/am.log" 2>&1; then
			cat "$QEMU_DIR/am.log" >&2
			git -C "$src" am --abort >/dev/null 2>&1 || true
			git -C "$src" reset -q --hard base
			die "qemu patch $(basename "$p") does not apply to Debian qemu $ver (queue last tested on $tested)"
		fi
	done
	echo "$want" >"$QEMU_DIR/applied"
fi
[ "$ver" = "$tested" ] || warn "Debian qemu is $ver; the queue was last tested on $tested"

# Only the 'virt' board and what it selects, as QEMU's own
# configs/devices/aarch64-softmmu/minimal.mak has it: every boot and test
# of the build. Plus CXL (with the PCI expander bridge it depends on, the
# CXL memory device its mailbox code calls into, and the PCIe root port
# its own root port derives from): virt selects
# ACPI_CXL, whose code calls cxl_fmws_get_all_sorted(), which only CXL (on
# by default, off without default devices) provides; 10.2's stubs lack it
# and the link fails. The
# file is written into the source (not part of the queue) when it is not
# there as below, so that a re-applied queue (git clean) keeps it; only
# then (a new mtime makes meson configure again, and ninja rebuild most of
# QEMU). A build configured otherwise is configured again.
mak=$src/configs/devices/aarch64-softmmu/haftlab.mak
cat >"$mak.new" <<'EOF_MAK'
# The haftlab QEMU (scripts/qemu-build.sh): the virt board only.
CONFIG_ARM_VIRT=y
CONFIG_PXB=y
CONFIG_CXL=y
CONFIG_CXL_MEM_DEVICE=y
CONFIG_PCIE_PORT=y
EOF_MAK
if cmp -s "$mak.new" "$mak"; then rm -f "$mak.new"; else mv "$mak.new" "$mak"; fi
conf=(--target-list=aarch64-softmmu --without-default-features
	--without-default-devices --with-devices-aarch64=haftlab
	--enable-tcg --enable-fdt=system --disable-docs --disable-werror
	--disable-install-blobs --with-pkgversion=haftlab)
if [ "$(cat "$out/.configured" 2>/dev/null)" != "${conf[*]}" ]; then
	say "qemu: configuring (aarch64-softmmu, the virt board only, no default features)"
	rm -rf "$out"
	mkdir -p "$out"
	(cd "$out" && run_logged "$out/configure.log" "$src/configure" "${conf[@]}")
	echo "${conf[*]}" >"$out/.configured"
fi

say "qemu: building qemu-system-aarch64 (cold: about 5-20 minutes, with the host busy; log: $out/ninja.log)"
ninja -C "$out" -j "$JOBS" qemu-system-aarch64 2>&1 | tee "$out/ninja.log" |
	awk '/^\[[0-9]+\/[0-9]+\]/ { split(substr($1, 2), a, "/"); if (a[1] % 200 == 0 || a[1] == a[2]) { printf "    qemu %s\n", $1; fflush() } }'
[ "${PIPESTATUS[0]}" -eq 0 ] || { grep -B2 -A20 -m1 'error' "$out/ninja.log" >&2; die "qemu build failed; see $out/ninja.log"; }
"$QEMU" --version | grep -q haftlab || die "$QEMU is not the lab's build"
say "qemu: ready: $QEMU"
