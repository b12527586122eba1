#!/bin/bash
# How Debian's newest QEMU, unmodified, does on the lab's emulator checks:
# is FEAT_HAFT there yet, and does it still lose the dirty state that
# qemu/fixes/0002 fixes? A report, not a gate: it prints what it saw and
# exits 0 when everything ran, whatever the checks said.
#
# sid's source package is not always on the mirror when its binaries are,
# so this takes the binary: qemu-system-arm from sid, installed by
# mmdebstrap into $CACHE/sid-qemu (a chroot, made once; remove it for a
# newer one) and run there. It runs
#   - the bare-metal checks of -cpu max (qemu/run-tests.sh, variant 0);
#   - the lab's kernel and initramfs on -cpu max with the boot and dirty
#     suites, judged by scripts/verdict.py (no FEAT_HAFT expected).
# Needs root, the lab's QEMU, kernel and initramfs (make qemu kernel
# initramfs). SID_KEEP=1 keeps the logs (in $CACHE/sid-qemu/tmp/lab.*).
. "$(dirname "$0")/../../scripts/lib.sh"
need mmdebstrap chroot "${CROSS}gcc"
[ "$(id -u)" = 0 ] || die "sid-qemu.sh runs QEMU in a chroot and must run as root"

root=$CACHE/sid-qemu
make_root() {
	local kr=/usr/share/keyrings/debian-archive-keyring.gpg
	# sid's Release file can be past its Valid-Until on the mirror
	run_logged "$CACHE/sid-qemu.log" mmdebstrap --variant=apt \
		--include=qemu-system-arm --keyring="$kr" \
		--aptopt='Acquire::Check-Valid-Until "false"' \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		sid "$1" "$NEWER_MIRROR/debian"
}
say "sid-qemu: Debian sid's qemu-system-arm in $root"
cache_fill "$root" make_root || die "could not install sid's qemu-system-arm (see $CACHE/sid-qemu.log)"
version=$(chroot "$root" dpkg-query -W -f '${Version}' qemu-system-arm)

# Everything QEMU reads goes under $work, inside the chroot; the wrapper
# turns an argument that is a host path under $root into the chroot's.
work=$(mktemp -d "$root/tmp/lab.XXXXXX")
trap '[ -n "${SID_KEEP:-}" ] || rm -rf "$work"' EXIT
cat >"$work/qemu" <<EOF
#!/bin/bash
args=()
for a; do args+=("\${a#"$root"}"); done
exec chroot "$root" /usr/bin/qemu-system-aarch64 "\${args[@]}"
EOF
chmod +x "$work/qemu"

say "sid-qemu: bare-metal checks on -cpu max of QEMU $version"
BUILD=$work QEMU=$work/qemu HAFT_TEST_RUNS="0 max" "$TOP/qemu/run-tests.sh" >"$work/baremetal.tap" 2>&1 || true
grep -q '^1\.\.[0-9]' "$work/baremetal.tap" || {
	tail -5 "$work/baremetal.tap" >&2
	die "the bare-metal checks did not run on sid's QEMU"
}

# The lab's boot, as boot.sh would start it, on sid's binary.
dry=$("$TOP/scripts/boot.sh" -N -c max -e no,0x0003 -r boot,dirty) || die "boot.sh -N failed"
eval "q=($(sed -n 's/^qemu: //p' <<<"$dry"))"
append=$(sed -n 's/^append: //p' <<<"$dry")
if [ ${#q[@]} -lt 2 ] || [ -z "$append" ]; then
	die "boot.sh -N printed no command line"
fi
q[0]=$work/qemu
for i in "${!q[@]}"; do
	case ${q[i]} in
	*/Image | *.cpio) cp "${q[i]}" "$work/" && q[i]=$work/${q[i]##*/} ;;
	esac
done
say "sid-qemu: booting the lab's kernel with the dirty suite (up to 10 minutes)"
timeout -k 5 600 "${q[@]}" -display none -monitor none -serial stdio -append "$append" \
	</dev/null >"$work/dirty.log" 2>&1 || true
python3 "$TOP/scripts/verdict.py" guest sid-dirty "$work/dirty.log" --suites boot,dirty \
	>"$work/dirty.verdict" 2>&1 || true

echo "QEMU $version (Debian sid, unmodified), -cpu max:"
echo "  bare-metal: $(grep -c '^ok' "$work/baremetal.tap") passed, $(grep -c '^not ok' "$work/baremetal.tap") failed of the checks:"
grep '^not ok' "$work/baremetal.tap" | sed 's/^/    /'
echo "  the lab's kernel, suites boot and dirty:"
grep -E '^# dirty-after-read|^(not )?ok ' "$work/dirty.log" | sed 's/^/    /'
tail -n 1 "$work/dirty.verdict" | sed 's/^/    verdict: /'
