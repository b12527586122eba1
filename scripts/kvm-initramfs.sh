#!/bin/bash
# Build build/initramfs-kvm.cpio, the initramfs of the KVM host boots: the
# lab's initramfs (build/initramfs.cpio) followed by a second cpio archive
# (the kernel unpacks concatenated archives in order) that adds
#   - Debian's arm64 QEMU (qemu-system-arm, bookworm: qemu-system-aarch64
#     and the shared libraries it needs, nothing else of the package's
#     185 MB), the VMM of the inner guest (guest/tests/kvm);
#   - /lab/kvm/Image, the inner guest's kernel (by default the lab's
#     default Image, the host's own kernel: a KVM host that has everything
#     a guest needs);
#   - /lab/kvm/initramfs.cpio, the inner guest's initramfs: the lab's own,
#     unchanged, so the inner guest runs the same suites the same way.
# Why QEMU: Debian ships no other VMM for arm64 (kvmtool is in neither
# bookworm nor sid). Usage: kvm-initramfs.sh [--fetch] [VARIANT]
. "$(dirname "$0")/lib.sh"
need mmdebstrap readelf
fetch=0
[ "${1:-}" != --fetch ] || { fetch=1; shift; }
variant=${1:-default}
image=$BUILD/kernel-$variant/arch/arm64/boot/Image
main=$BUILD/initramfs.cpio
tree=$BUILD/linux

pkgs=qemu-system-arm
vmm=$(debian_extract vmm "$pkgs") || exit 1
# --fetch: only the packages, into the cache (make test fetches them while
# the kernels build).
[ $fetch = 0 ] || exit 0
[ -f "$image" ] || die "$image missing: run scripts/kernel-build.sh $variant"
[ -f "$main" ] || die "$main missing: run scripts/initramfs.sh"
[ -f "$tree/usr/gen_initramfs.sh" ] || die "$tree missing: run 'make tree'"

out=$BUILD/initramfs-kvm.cpio
want=$( (echo "$vmm"; sha256sum "$0" "$image" "$main") | sha256sum | cut -c1-16)
if [ -f "$out" ] && [ "$(cat "$out.hash" 2>/dev/null)" = "$want" ]; then
	say "kvm: initramfs up to date"
	exit 0
fi

stage=$BUILD/initramfs-kvm
rm -rf "$stage"
mkdir -p "$stage/lab/kvm" "$stage/usr/bin"
# The binary and the closure of its DT_NEEDED libraries (lib.sh).
cp -a "$vmm/usr/bin/qemu-system-aarch64" "$stage/usr/bin/"
elf_closure "$vmm" "$stage" usr/bin/qemu-system-aarch64
install -m 644 "$image" "$stage/lab/kvm/Image"
install -m 644 "$main" "$stage/lab/kvm/initramfs.cpio"
pack_archive "$stage" "$out.extra"
cat "$main" "$out.extra" >"$out.tmp"
rm -f "$out.extra"
mv "$out.tmp" "$out"
echo "$want" >"$out.hash"
say "kvm: initramfs ready ($(du -h "$out" | cut -f1); Debian $(zcat "$vmm/usr/share/doc/qemu-system-arm/changelog.Debian.gz" | head -1 | cut -d' ' -f1,2))"
