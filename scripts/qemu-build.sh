#!/bin/bash
# Build qemu-system-aarch64 from Debian's qemu source package (with Debian's
# own patches) plus our queue in qemu/patches. Only aarch64-softmmu and only
# what the 'virt' machine needs. Source and build live in $CACHE/qemu so a
# fresh clone reuses them; the queue is re-applied when it changes, and
# ninja then rebuilds only what the change touched.
. "$(dirname "$0")/lib.sh"
need apt-get dpkg-source git ninja meson pkg-config

src=$QEMU_DIR/src
out=$QEMU_DIR/build
mkdir -p "$QEMU_DIR"
# One build at a time: several clones may share this cache.
exec 9>"$QEMU_DIR/.lock"
flock 9

if [ ! -d "$src/.git" ]; then
	say "qemu: fetching Debian's qemu source package"
	rm -rf "$QEMU_DIR/dl" "$src"
	mkdir -p "$QEMU_DIR/dl"
	(cd "$QEMU_DIR/dl" && apt-get source --download-only qemu >fetch.log 2>&1) ||
		die "apt-get source qemu failed (is there a deb-src entry? run 'make deps'): $(tail -3 "$QEMU_DIR/dl/fetch.log")"
	dsc=$(ls "$QEMU_DIR"/dl/qemu_*.dsc | head -1)
	say "qemu: extracting $(basename "$dsc") with Debian's patches"
	run_logged "$QEMU_DIR/dl/extract.log" dpkg-source -x "$dsc" "$src"
	ver=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
	git -C "$src" init -q -b lab
	git -C "$src" add -A -f .
	git -C "$src" -c user.name=lab -c user.email=lab@localhost \
		commit -q -m "Debian qemu $ver"
	git -C "$src" tag base
	echo "$ver" >"$QEMU_DIR/version"
fi
ver=$(cat "$QEMU_DIR/version")
tested=$(cat "$TOP/qemu/TESTED_VERSION")

mapfile -t patches < <(series_files "$TOP/qemu/patches")
want=$(hash_of "$TOP/qemu/patches/series" "${patches[@]}")
have=$(cat "$QEMU_DIR/applied" 2>/dev/null || true)
if [ "$want" != "$have" ]; then
	say "qemu: applying ${#patches[@]} patch(es) from qemu/patches on Debian qemu $ver"
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

if [ ! -f "$out/build.ninja" ]; then
	say "qemu: configuring (aarch64-softmmu, no default features)"
	mkdir -p "$out"
	(cd "$out" && run_logged "$out/configure.log" "$src/configure" \
		--target-list=aarch64-softmmu --without-default-features \
		--enable-tcg --enable-fdt=system --disable-docs --disable-werror \
		--disable-install-blobs --with-pkgversion=haftlab)
fi

say "qemu: building qemu-system-aarch64 (cold: about 10 minutes; log: $out/ninja.log)"
ninja -C "$out" -j "$JOBS" qemu-system-aarch64 2>&1 | tee "$out/ninja.log" |
	awk '/^\[[0-9]+\/[0-9]+\]/ { split(substr($1, 2), a, "/"); if (a[1] % 200 == 0 || a[1] == a[2]) { printf "    qemu %s\n", $1; fflush() } }'
[ "${PIPESTATUS[0]}" -eq 0 ] || { grep -B2 -A20 -m1 'error' "$out/ninja.log" >&2; die "qemu build failed; see $out/ninja.log"; }
"$QEMU" --version | grep -q haftlab || die "$QEMU is not the lab's build"
say "qemu: ready: $QEMU"
