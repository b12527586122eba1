#!/bin/bash
# Build build/initramfs-apps.cpio (LAB_ARCH=x86: initramfs-apps-x86.cpio),
# the initramfs of the real-application benchmark (guest/tests/bench-apps,
# the rows with machine initrd=apps): the lab's initramfs followed by a
# second cpio archive (the kernel unpacks them in order) with Debian
# bookworm's servers, unchanged, and the shared libraries they load:
#   - redis-server (package redis-tools: redis-check-rdb, which runs as the
#     server when called redis-server);
#   - memcached;
#   - PostgreSQL 15: postgres, initdb, pg_ctl and pgbench, the server's
#     modules (not llvmjit, the JIT, which would add 100 MB of LLVM: the
#     suite runs with jit=off) and its share/ files, and tzdata;
#   - OpenJDK 17 (openjdk-17-jre-headless: its java runs a single-file
#     source program, guest/apps/*.java, with the jdk.compiler module of
#     the runtime image), with /etc/java-17-openjdk.
# Rebuilt when the lab's initramfs, the packages or this script change.
. "$(dirname "$0")/lib.sh"
need mmdebstrap readelf xz modinfo
sfx=
[ "$LAB_ARCH" = arm64 ] || sfx=-$LAB_ARCH
main=$BUILD/initramfs$sfx.cpio
tree=$BUILD/linux

pkgs=redis-server,memcached,postgresql-15,openjdk-17-jre-headless,tzdata
root=$(debian_extract apps "$pkgs") || exit 1
# --fetch: only the packages, into the cache (make test fetches them while
# the kernels build).
[ "${1:-}" != --fetch ] || exit 0
[ -f "$main" ] || die "$main missing: run scripts/initramfs.sh${sfx:+ with LAB_ARCH=$LAB_ARCH}"
[ -f "$tree/usr/gen_initramfs.sh" ] || die "$tree missing: run 'make tree'"

out=$BUILD/initramfs-apps$sfx.cpio
# The servers' archive is kept (OUT.extra) and made again only when what
# goes into it changes; a new lab initramfs only puts it behind that again.
extra=$out.extra
extra_want=$( (echo "$root"; ls -d "$CACHE"/stock-kernel/linux-image-*-amd64 2>/dev/null; sha256sum "$0"; cd "$TOP" && find guest/apps -type f | LC_ALL=C sort | xargs -r sha256sum) | sha256sum | cut -c1-16)
want=$( (echo "$extra_want"; sha256sum "$main") | sha256sum | cut -c1-16)
if [ -f "$out" ] && [ "$(cat "$out.hash" 2>/dev/null)" = "$want" ]; then
	say "apps: initramfs up to date"
	exit 0
fi
if [ -f "$extra" ] && [ "$(cat "$extra.hash" 2>/dev/null)" = "$extra_want" ]; then
	say "apps: the servers' archive is up to date; putting it behind $main"
else
	say "apps: assembling the servers' archive $extra"
	stage=$BUILD/initramfs-apps$sfx
	rm -rf "$stage"
	mkdir -p "$stage/usr/bin" "$stage/lab/apps" "$stage/etc"
	jvm=$(cd "$root" && ls -d usr/lib/jvm/java-17-openjdk-* | head -1)
	[ -n "$jvm" ] && [ -x "$root/$jvm/bin/java" ] || die "apps: no OpenJDK 17 in $root"
	pg=usr/lib/postgresql/15
	cp -L "$root/usr/bin/redis-server" "$root/usr/bin/memcached" "$stage/usr/bin/"
	mkdir -p "$stage/$pg/bin" "$stage/$pg/lib" "$stage/usr/share/postgresql"
	for b in postgres initdb pg_ctl pgbench; do
		cp -L "$root/$pg/bin/$b" "$stage/$pg/bin/"
	done
	# The server's modules: conversions, PL/pgSQL, snowball (initdb loads
	# them); not the JIT.
	find "$root/$pg/lib" -maxdepth 1 -name '*.so' ! -name 'llvmjit*' -exec cp -L {} "$stage/$pg/lib/" \;
	rsync -a --exclude=man "$root/usr/share/postgresql/15" "$stage/usr/share/postgresql/"
	rsync -a "$root/usr/share/zoneinfo" "$stage/usr/share/"
	# The JVM as Debian lays it out: its conf files are links into /etc.
	mkdir -p "$stage/usr/lib/jvm"
	rsync -a --exclude=legal --exclude=man "$root/$jvm" "$stage/usr/lib/jvm/"
	rsync -a "$root/etc/java-17-openjdk" "$stage/etc/"
	ln -s "/$jvm/bin/java" "$stage/usr/bin/java"
	[ -d "$TOP/guest/apps" ] && cp -a "$TOP/guest/apps/." "$stage/lab/apps/"
	# The users the servers look up: memcached -u root, and PostgreSQL's, which
	# will not run as root (uid 999, as the suite's runas gives it).
	printf 'root:x:0:0:root:/root:/bin/sh\npostgres:x:999:999:PostgreSQL:/tmp/pg:/bin/sh\n' >"$stage/etc/passwd"
	printf 'root:x:0:\npostgres:x:999:\n' >"$stage/etc/group"
	# Debian's own kernels build zram as a module: the x86 rows boot Debian's
	# amd64 6.12 (scripts/stock-kernel.sh), so its zram.ko and the modules it
	# needs go along, uncompressed for busybox's insmod, in
	# /lab/modules/RELEASE/, with the order to load them in (order).
	if [ "$LAB_ARCH" = x86 ]; then
		# mod_add DIR NAME : NAME.ko and, before it in DIR/order, what it
		# depends on (modinfo's depends:)
		mod_add() {
			local k d
			grep -qx "$2" "$1/order" 2>/dev/null && return
			k=$(find "$mods" -name "$2.ko.xz" | head -1)
			[ -n "$k" ] || die "apps: module $2 is not in $mods"
			xz -dc "$k" >"$1/$2.ko"
			for d in $(modinfo -F depends "$1/$2.ko" | tr ',' ' '); do mod_add "$1" "$d"; done
			echo "$2" >>"$1/order"
		}
		n=0
		for mods in "$CACHE"/stock-kernel/linux-image-*-amd64/lib/modules/*/kernel; do
			[ -d "$mods" ] || continue
			rel=${mods%/kernel}
			rel=${rel##*/}
			mkdir -p "$stage/lab/modules/$rel"
			mod_add "$stage/lab/modules/$rel" zram
			n=$((n + 1))
		done
		[ $n -gt 0 ] || die "apps: no zram.ko of Debian's amd64 kernel in $CACHE/stock-kernel: run 'LAB_ARCH=x86 scripts/stock-kernel.sh' first"
	fi
	# Every ELF file above, and what it loads.
	mapfile -t elves < <(cd "$stage" && find usr -type f \( -perm -u+x -o -name '*.so' \) -exec sh -c \
		'head -c 4 "$1" | grep -q ELF && echo "$1"' _ {} \; | LC_ALL=C sort)
	ELF_DIRS="$jvm/lib $jvm/lib/server" elf_closure "$root" "$stage" "${elves[@]}"
	pack_archive "$stage" "$extra"
	echo "$extra_want" >"$extra.hash"
fi
cat "$main" "$extra" >"$out.tmp"
mv "$out.tmp" "$out"
echo "$want" >"$out.hash"
say "apps: initramfs ready ($(du -h "$out" | cut -f1), $(du -h "$extra" | cut -f1) of it the servers)"
