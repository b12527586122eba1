#!/bin/bash
# Build build/initramfs.cpio: Debian's arm64 busybox-static, bash-static and
# stress-ng (with their libraries, from mmdebstrap --variant=extract, cached in
# $CACHE/guest), guest/init, the suites in guest/tests, our programs in
# guest/src cross-built statically, and anything a later step left in
# build/guest-extra (e.g. kselftests). Rebuilt only when an input changed.
# LAB_ARCH=x86: build/initramfs-x86.cpio for the x86-64 boots, the same
# from Debian's amd64 busybox-static and bash-static (no stress-ng: those
# boots run boot and lru-nonleaf), the programs built natively, and
# build/guest-extra-x86.
. "$(dirname "$0")/lib.sh"
sfx= cc=${CROSS}gcc ar=${CROSS}ar
[ "$LAB_ARCH" = arm64 ] || sfx=-$LAB_ARCH cc=gcc ar=ar
need mmdebstrap cc "$cc" "$ar" rsync
tree=$BUILD/linux
[ -f "$tree/usr/gen_initramfs.sh" ] || die "$tree missing: run 'make tree' (the initramfs is packed with its usr/gen_initramfs.sh)"
KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2026-01-01 00:00:00 UTC}
mkdir -p "$BUILD"
exec 9>"$BUILD/.initramfs$sfx.lock"
flock 9 # one assembly at a time: parallel boots share build/initramfs

pkgs=$(tr -s ' \n' ',' <"$TOP/guest/packages" | sed 's/,$//')
[ "$LAB_ARCH" = arm64 ] || pkgs=busybox-static,bash-static
rootfs=$(debian_extract rootfs "$pkgs") || exit 1

# Our own programs, static, warnings on and fatal. They share the lab's
# lru_gen helper (guest/lib/lru_gen_util.c: reading lru_gen, driving
# walks, making room on 6.12): compiled once into a library, not a
# program, that each program is linked with (only what it uses is taken).
# The kselftest no longer uses it: it reads lru_gen_full itself.
bin=$BUILD/guest-bin$sfx
lib=$BUILD/guest-lib$sfx
helper=$TOP/guest/lib/lru_gen_util
mkdir -p "$bin" "$lib"
if [ ! -f "$lib/liblru_gen_util.a" ] || [ "$helper.c" -nt "$lib/liblru_gen_util.a" ] ||
	[ "$helper.h" -nt "$lib/liblru_gen_util.a" ]; then
	say "guest: compiling $(basename "$helper.c") (library)"
	"$cc" -O2 -Wall -Wextra -Werror -c -o "$lib/lru_gen_util.o" "$helper.c"
	rm -f "$lib/liblru_gen_util.a"
	"$ar" rcs "$lib/liblru_gen_util.a" "$lib/lru_gen_util.o"
fi
for c in "$TOP"/guest/src/*.c; do
	[ -e "$c" ] || continue
	b=$bin/$(basename "$c" .c)
	if [ ! -x "$b" ] || [ "$c" -nt "$b" ] || [ "$lib/liblru_gen_util.a" -nt "$b" ]; then
		say "guest: compiling $(basename "$c")"
		"$cc" -static -O2 -Wall -Wextra -Werror -I"$(dirname "$helper")" \
			-o "$b" "$c" "$lib/liblru_gen_util.a"
	fi
done

extra=$BUILD/guest-extra$sfx
mkdir -p "$extra"
out=$BUILD/initramfs$sfx.cpio
want=$( (echo "$rootfs"; cat "$0" "$tree/usr/gen_initramfs.sh" "$tree/usr/gen_init_cpio.c" | sha256sum; cd "$TOP" && find guest -type f | LC_ALL=C sort | xargs sha256sum;
	cd "$BUILD" && find "${bin##*/}" "${extra##*/}" -type f | LC_ALL=C sort | xargs -r sha256sum) | sha256sum | cut -c1-16)
if [ -f "$out" ] && [ "$(cat "$out.hash" 2>/dev/null)" = "$want" ]; then
	say "guest: initramfs up to date"
	exit 0
fi
say "guest: assembling $out"
stage=$BUILD/initramfs$sfx
rm -rf "$stage"
mkdir -p "$stage"
rsync -a --exclude=/usr/share/doc --exclude=/usr/share/man --exclude=/usr/share/locale \
	--exclude='/usr/lib/*/dri' --exclude='/usr/lib/*/gconv' --exclude=/usr/share/X11 --exclude=/var/cache --exclude=/.done "$rootfs/" "$stage/"
mkdir -p "$stage"/{proc,sys,dev,tmp,root,lab/bin,lab/tests}
install -m 755 "$TOP/guest/init" "$stage/init"
cp -a "$TOP"/guest/tests/. "$stage/lab/tests/"
cp -a "$bin"/. "$stage/lab/bin/"
cp -a "$extra"/. "$stage/lab/"
# The kselftest runner and run_vmtests.sh: bash (from bash-static) and a
# /usr/bin/timeout that takes the runner's GNU-style options.
if [ ! -e "$stage/bin/bash" ]; then
	bs=
	for f in bin/bash-static usr/bin/bash-static; do [ -e "$stage/$f" ] && bs=/$f && break; done
	[ -n "$bs" ] || die "bash-static is not in $rootfs (guest/packages lists it)"
	ln -s "$bs" "$stage/bin/bash"
fi
[ -e "$stage/usr/bin/timeout" ] || install -D -m 755 "$TOP/guest/timeout" "$stage/usr/bin/timeout"
# Packed the kernel's way, by usr/gen_initramfs.sh and usr/gen_init_cpio
# from the tree (built here for the host): every file owned by root
# whoever runs this, /dev/console from a list rather than mknod, one
# timestamp for all, so packing needs no root and is reproducible.
tools=$BUILD/initramfs-tools
mkdir -p "$tools/usr"
if [ ! -x "$tools/usr/gen_init_cpio" ] || [ "$tree/usr/gen_init_cpio.c" -nt "$tools/usr/gen_init_cpio" ]; then
	cc -O2 -o "$tools/usr/gen_init_cpio" "$tree/usr/gen_init_cpio.c" ||
		die "could not build usr/gen_init_cpio from $tree"
fi
printf 'nod /dev/console 0600 0 0 c 5 1\n' >"$tools/devices.list"
(cd "$tools" && sh "$tree/usr/gen_initramfs.sh" -o "$out.tmp" -d "$KBUILD_BUILD_TIMESTAMP" \
	-u squash -g squash "$stage" -u 0 -g 0 "$tools/devices.list") ||
	die "usr/gen_initramfs.sh could not pack $stage"
mv "$out.tmp" "$out"
echo "$want" >"$out.hash"
say "guest: initramfs ready ($(du -h "$out" | cut -f1))"
