#!/bin/bash
# Build the guest kernel for one config variant out of tree in
# build/kernel-VARIANT. The config is allnoconfig plus configs/base.config
# plus configs/VARIANT.config (none for 'default'); it is regenerated when a
# fragment changes, and every option a fragment asks for is checked.
# Usage: kernel-build.sh [VARIANT] [make targets...]
# KBASE=defconfig starts from the architecture's defconfig instead of
# allnoconfig, and KFRAGS (paths, blank separated) replaces base.config and
# the variant's fragment: check.sh's ksftconfig builds defconfig plus the
# tree's own virt.config and selftests/mm/config that way, as a tester
# following the kselftest documentation would. Every KFRAGS line is
# checked; the defconfig's own lines are not (virt.config turns off
# platforms whose drivers the defconfig turns on). KCHECK=warn reports a
# fragment line that does not hold instead of stopping (those two
# fragments ask for options some architectures cannot have).
. "$(dirname "$0")/lib.sh"
need make "${CROSS}gcc" ccache bc flex bison

variant=${1:-default}
shift || true
targets=("${@:-Image}")
# KTREE and KOUT let 'make check' build other trees (bisect, W=1).
tree=${KTREE:-$BUILD/linux}
out=${KOUT:-$BUILD/kernel-$variant}
[ -e "$tree/.git" ] || die "$tree missing: run 'make tree'"

kbase=${KBASE:-allnoconfig}
case $kbase in allnoconfig | defconfig) ;; *) die "KBASE=$kbase: allnoconfig or defconfig" ;; esac
frags=("$TOP/configs/base.config")
if [ -n "${KFRAGS:-}" ]; then
	read -ra frags <<<"$KFRAGS"
	for f in "${frags[@]}"; do [ -f "$f" ] || die "KFRAGS: no fragment $f"; done
# A variant may join fragments with '+' (debug+nostats), merged in order.
elif [ "$variant" != default ]; then
	IFS=+ read -ra parts <<<"$variant"
	for v in "${parts[@]}"; do
		[ -f "$TOP/configs/$v.config" ] || die "no config fragment configs/$v.config"
		frags+=("$TOP/configs/$v.config")
	done
fi

export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab
K=(make -C "$tree" O="$out" ARCH=arm64 CROSS_COMPILE="$CROSS"
	CC="ccache ${CROSS}gcc" LOCALVERSION= -j "$JOBS")
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9

# Merge the fragments with the kernel's own scripts/kconfig/merge_config.sh
# (a later fragment overrides an earlier one). -m only merges: the
# allnoconfig run it would make next is the one below, with the lab's
# compiler, and the check after it is stricter than merge_config's
# warnings (and knows which symbols the tree has).
# A defconfig is a minimal config (savedefconfig's output), so alldefconfig
# with the defconfig merged under the fragments configures what 'make
# defconfig' and then the fragments would.
dfrag=()
[ "$kbase" = allnoconfig ] || dfrag=("$tree/arch/arm64/configs/defconfig")
# merge NEW FRAGMENTS... : merge_config.sh -m into NEW
merge() {
	local new=$1
	shift
	(cd "$out" && KCONFIG_CONFIG="$new" "$tree/scripts/kconfig/merge_config.sh" -m -Q "$@" >>"$out/merge.log" 2>&1) ||
		{ cat "$out/merge.log" >&2; die "kernel[$variant]: merge_config.sh could not merge ${*##*/}"; }
}
: >"$out/merge.log"
merge "$out/.checkconfig" "${frags[@]}"
if [ ${#dfrag[@]} = 0 ]; then
	cp "$out/.checkconfig" "$out/.allconfig.new"
else
	merge "$out/.allconfig.new" "${dfrag[@]}" "${frags[@]}"
fi
conftarget=allnoconfig
[ "$kbase" = allnoconfig ] || conftarget=alldefconfig
# Regenerate when a fragment or any Kconfig file of the tree changed.
want=$( (cat "$out/.allconfig.new"; cd "$tree" && find . -name 'Kconfig*' -not -path './.git/*' |
	LC_ALL=C sort | xargs cat) | sha256sum | cut -c1-16)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.fragments" 2>/dev/null)" != "$want" ]; then
	say "kernel[$variant]: configuring: $kbase + ${frags[*]##*/}"
	mv "$out/.allconfig.new" "$out/.allconfig"
	run_logged "$out/config.log" "${K[@]}" KCONFIG_ALLCONFIG="$out/.allconfig" $conftarget
	echo "$want" >"$out/.fragments"
fi
rm -f "$out/.allconfig.new"
# Every CONFIG_X=y / '# CONFIG_X is not set' a fragment asks for must hold,
# unless the symbol does not exist in this tree (e.g. before the series).
grep -rhoE '^\s*(menu)?config [A-Za-z0-9_]+' --include='Kconfig*' "$tree" |
	awk '{ print "CONFIG_" $2 }' | sort -u >"$out/.symbols"
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) sym=${line%%=*} ;;
	'# CONFIG_'*' is not set') sym=${line#\# } sym=${sym%% *} ;;
	*) continue ;;
	esac
	grep -qxF "$sym" "$out/.symbols" || continue
	if ! grep -qxF "$line" "$out/.config"; then
		if [ "$line" = "${line#\# }" ] || grep -q "^$sym=" "$out/.config"; then
			warn "kernel[$variant]: fragment asks '$line' but .config has '$(grep "^$sym=\|^# $sym " "$out/.config" || echo unset)'"
			bad=1
		fi
	fi
done <"$out/.checkconfig"
if [ $bad != 0 ]; then
	[ "${KCHECK:-}" = warn ] || die "kernel[$variant]: config does not match its fragments (missing dependency or typo)"
	warn "kernel[$variant]: config does not match its fragments; going on (KCHECK=warn)"
fi

say "kernel[$variant]: building ${targets[*]} (cold: about 6 minutes from allnoconfig, far longer from defconfig; log: $out/build.log)"
set +e
"${K[@]}" "${targets[@]}" 2>&1 | tee "$out/build.log" |
	awk '/^  [A-Z]+ / { n++; if (n % 500 == 0) { printf "    kernel[%s]: %d steps\n", v, n; fflush() } }' v="$variant"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" != 0 ]; then
	grep -E -m 20 -B 2 -A 8 'error:|Error [0-9]' "$out/build.log" >&2 || tail -n 40 "$out/build.log" >&2
	die "kernel[$variant]: build failed; see $out/build.log"
fi
say "kernel[$variant]: ready: $out/arch/arm64/boot/Image ($(cat "$out/include/config/kernel.release"))"
