# Common helpers for the lab scripts. Sourced, never run.
# shellcheck shell=bash
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# Caches live outside the clone so a fresh clone (and CI) reuses them.
CACHE=${CACHE:-/var/cache/haftlab}
CROSS=${CROSS:-aarch64-linux-gnu-}
JOBS=${JOBS:-$(nproc)}

# QEMU 10.2 (Debian sid's source package) with qemu/fixes and qemu/patches
# (scripts/qemu-build.sh); the QEMU 7.2 build of earlier lab versions stays
# in $CACHE/qemu, untouched.
QEMU_DIR=${QEMU_DIR:-$CACHE/qemu-10.2}
QEMU=${QEMU:-$QEMU_DIR/build/qemu-system-aarch64}

export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_BASEDIR=$TOP
export CCACHE_NOHASHDIR=1
# Kbuild passes the absolute source path in -fmacro-prefix-map; it maps to
# "" and so never reaches the object, but would make every clone miss.
export CCACHE_IGNOREOPTIONS='-fmacro-prefix-map=*'
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}

say() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# disk_room WHAT SPEC... : stop, before anything is written, when a file
# system cannot take what is still to come. SPEC is PATH:MIB (PATH grows
# to MIB in all; what it holds already counts) or +PATH:MIB (MIB more).
# The needs are summed per file system, with 1 GiB more on each for logs
# and temporary files.
disk_room() {
	local what=$1 spec path mib kib probe fs line used
	local -A want=() free=() names=()
	shift
	for spec in "$@"; do
		path=${spec%:*} mib=${spec##*:}
		kib=$((mib * 1024))
		if [ "${path#+}" = "$path" ] && [ -e "$path" ]; then
			# du exits 1 when a file goes away under it (a step beside
			# this one writing into build/), and still prints the total;
			# under pipefail that status alone failed deps-x86 once.
			used=$(du -sk "$path" 2>/dev/null | cut -f1) || true
			kib=$((kib - ${used:-0}))
			[ $kib -gt 0 ] || kib=0
		fi
		path=${path#+}
		probe=$path
		while [ ! -e "$probe" ]; do probe=$(dirname "$probe"); done
		line=$(df -P -k "$probe" | awk 'NR == 2 { print $4, $6 }')
		fs=${line#* }
		free[$fs]=${line%% *}
		want[$fs]=$((${want[$fs]:-1048576} + kib))
		names[$fs]="${names[$fs]:+${names[$fs]}, }$path"
	done
	for fs in "${!want[@]}"; do
		[ "${free[$fs]}" -lt "${want[$fs]}" ] || continue
		die "$what: the file system at $fs (${names[$fs]}) has $(awk -v k="${free[$fs]}" 'BEGIN { printf "%.1f", k / 1048576 }') GiB free, and this needs $(awk -v k="${want[$fs]}" 'BEGIN { printf "%.1f", k / 1048576 }') GiB there; free some space (old clones' build/ directories are the usual culprit) and run again"
	done
}

need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "'$t' not found: run 'make deps' (scripts/deps.sh) first"
	done
}

# hash_of FILE... : one short hash over the contents of the given files
hash_of() { cat "$@" 2>/dev/null | sha256sum | cut -c1-16; }

# series_files DIR : the patches named by DIR/series, in order
series_files() {
	local dir=$1 p
	[ -f "$dir/series" ] || return 0
	while read -r p; do
		case "$p" in '' | '#'*) continue ;; esac
		[ -f "$dir/$p" ] || die "$dir/series names '$p', which does not exist"
		printf '%s\n' "$dir/$p"
	done <"$dir/series"
}

# base_fits DIR MIN : can the series go on the kernel tree in DIR? It needs
# 6.12.MIN or later of the 6.12 line, with the partial stable backport of
# mainline's 62df5870ebf7 ("arm64: Enable ARCH_HAS_NONLEAF_PMD_YOUNG",
# between 6.12.108 and 6.12.111) that it completes, and without FEAT_HAFT
# support of its own (efe72541355d and its companions, should 6.12.y ever
# take them): the series would then add a second ARM64_HAFT. Prints why
# not and fails.
base_fits() {
	local dir=$1 min=$2 v p s
	v=$(sed -n 's/^VERSION = //p' "$dir/Makefile" 2>/dev/null)
	p=$(sed -n 's/^PATCHLEVEL = //p' "$dir/Makefile" 2>/dev/null)
	s=$(sed -n 's/^SUBLEVEL = //p' "$dir/Makefile" 2>/dev/null)
	if [ "$v.$p" != 6.12 ] || ! [[ "$s" =~ ^[0-9]+$ ]]; then
		echo "the tree is Linux ${v:-?}.${p:-?}.${s:-?}, not 6.12.y: the series is for the 6.12 LTS line (mainline has FEAT_HAFT since v6.13)"
		return 1
	fi
	if [ "$s" -lt "$min" ]; then
		echo "the tree is Linux 6.12.$s; the series needs 6.12.$min or later, which carries mainline's 62df5870ebf7 (\"arm64: Enable ARCH_HAS_NONLEAF_PMD_YOUNG\") that the series completes"
		return 1
	fi
	if grep -qE '^config ARM64_HAFT$' "$dir/arch/arm64/Kconfig" ||
		grep -qxF HAFT "$dir/arch/arm64/tools/cpucaps"; then
		echo "Linux 6.12.$s already has FEAT_HAFT support (config ARM64_HAFT or the HAFT cpucap, from mainline's efe72541355d): use the tree's own; the series would add it twice"
		return 1
	fi
	if ! grep -qE '^[[:space:]]*select ARCH_HAS_NONLEAF_PMD_YOUNG if ARM64_HAFT$' "$dir/arch/arm64/Kconfig" ||
		! grep -qE '^#define arch_has_hw_nonleaf_pmd_young[[:space:]]+system_supports_haft$' "$dir/arch/arm64/include/asm/pgtable.h"; then
		echo "Linux 6.12.$s lacks what mainline's 62df5870ebf7 adds (arm64 selecting ARCH_HAS_NONLEAF_PMD_YOUNG if ARM64_HAFT, arch_has_hw_nonleaf_pmd_young defined as system_supports_haft), which 6.12.y carries since 6.12.$min and the series builds on"
		return 1
	fi
}

# tree_from_tarball DIR TARBALL BRANCH MESSAGE : DIR becomes a git tree of
# TARBALL's contents (its top directory stripped): one commit MESSAGE on
# BRANCH, tagged 'base', with a fixed date so that its id repeats.
tree_from_tarball() {
	local dir=$1 tarball=$2 branch=$3 msg=$4
	local G=(git -C "$dir" -c user.name=lab -c user.email=lab@localhost)
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" --strip-components=1 -xf "$tarball"
	"${G[@]}" init -q -b "$branch"
	# A kernel tree: no automatic gc after every commit or am.
	"${G[@]}" config gc.auto 0
	"${G[@]}" add -A -f .
	GIT_AUTHOR_DATE='2024-01-01T00:00:00+0000' GIT_COMMITTER_DATE='2024-01-01T00:00:00+0000' \
		"${G[@]}" commit -q -m "$msg"
	"${G[@]}" tag base
}

# am_all DIR WHY PATCH... : 'git am' each PATCH in DIR, in order; at the
# first that does not apply, show git's output, abort the am and die with
# "patch NAME WHY"
am_all() {
	local dir=$1 why=$2 p out
	shift 2
	for p; do
		if ! out=$(git -C "$dir" -c user.name=lab -c user.email=lab@localhost am -q "$p" 2>&1); then
			printf '%s\n' "$out" >&2
			git -C "$dir" am --abort >/dev/null 2>&1 || true
			die "patch $(basename "$p") $why"
		fi
	done
}

# checkpatch_ok TREE PATCH... [-- CHECKPATCH_OPTIONS...] : TREE's
# scripts/checkpatch.pl --strict finds nothing in the PATCHes (all at once);
# shows what it found otherwise
checkpatch_ok() {
	local tree=$1 out rc=0
	local -a files=() opts=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do files+=("$(realpath "$1")"); shift; done
	[ $# = 0 ] || { shift; opts=("$@"); }
	# Debian's python3 (with python3-ply and python3-git) for spdxcheck.py.
	out=$(cd "$tree" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict -q --color=never \
		"${opts[@]}" "${files[@]}" 2>&1) || rc=1
	grep -qE "^(ERROR|WARNING|CHECK):|Traceback" <<<"$out" && rc=1
	[ $rc = 0 ] || sed 's/^/#   /' <<<"$out" | head -40
	return $rc
}

# run_logged LOG CMD... : run CMD with output to LOG; on failure show the tail
run_logged() {
	local log=$1
	shift
	if ! "$@" >"$log" 2>&1; then
		printf 'error: "%s" failed; last lines of %s:\n' "$*" "$log" >&2
		tail -n 40 "$log" >&2
		return 1
	fi
}

# TAP for host steps that print results (scripts/verdict.py checks the
# numbering and the plan): tap_result STATUS DESC (status 0 is ok),
# tap_skip DESC, and tap_plan once at the end.
TAP_N=0
TAP_FAILED=0
tap_result() {
	TAP_N=$((TAP_N + 1))
	if [ "$1" = 0 ]; then
		echo "ok $TAP_N - $2"
	else
		TAP_FAILED=$((TAP_FAILED + 1))
		echo "not ok $TAP_N - $2"
	fi
}
tap_skip() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1 # SKIP"; }
tap_plan() { echo "1..$TAP_N"; }

# LAB_ARCH: the guests' architecture, arm64 (the lab's own) or x86 (the
# x86-64 boots: rows with kernel x86:*, 'make x86'); kselftest-build.sh,
# initramfs.sh and stock-kernel.sh build and fetch for it. DEB_ARCH is
# Debian's name for it.
LAB_ARCH=${LAB_ARCH:-arm64}
case $LAB_ARCH in
arm64) DEB_ARCH=arm64 ;;
x86) DEB_ARCH=amd64 ;;
*) die "LAB_ARCH is arm64 or x86, not '$LAB_ARCH'" ;;
esac

# Debian's newer suites (sid, trixie-backports, trixie-security) through a
# private apt state in $CACHE/newer-apt, so that the host's own sources,
# lists and pins stay as they are. Used to fetch Debian's current arm64
# kernel (scripts/stock-kernel.sh current) and the newest 6.12.y source
# (scripts/kernel-tree.sh with BASE=newest). Architecture-independent
# packages are listed in the arm64 indexes too. With LAB_ARCH=x86 the
# state is $CACHE/newer-apt-amd64, with amd64's indexes.
NEWER_APT=$CACHE/newer-apt
[ "$DEB_ARCH" = arm64 ] || NEWER_APT=$CACHE/newer-apt-$DEB_ARCH
NEWER_MIRROR=${NEWER_MIRROR:-http://deb.debian.org}
newer_apt() { private_apt "$NEWER_APT" "$@"; }
# private_apt DIR TOOL ARGS... : apt-get/apt-cache on the private state in
# DIR, for arm64, or amd64 when DIR's name ends in -amd64.
private_apt() {
	local dir=$1 tool=$2 arch=arm64
	shift 2
	[ "${dir%-amd64}" = "$dir" ] || arch=amd64
	"$tool" -o Dir::State="$dir/state" -o Dir::Cache="$dir/cache" \
		-o Dir::Etc::SourceList="$dir/sources.list" \
		-o Dir::Etc::SourceParts=/nonexistent -o Dir::Etc::Preferences=/nonexistent \
		-o Dir::Etc::PreferencesParts=/nonexistent \
		-o APT::Architecture=$arch -o APT::Architectures::=$arch \
		-o APT::Sandbox::User=root "$@"
}
# newer_apt_update: refresh the private lists when they are missing or
# older than six hours (a mirror in the middle of a sync fails the update:
# tried three times).
newer_apt_update() {
	local kr=/usr/share/keyrings/debian-archive-keyring.gpg
	private_apt_update "$NEWER_APT" "sid, trixie-backports, trixie-security" \
		"deb [signed-by=$kr] $NEWER_MIRROR/debian sid main" \
		"deb [signed-by=$kr] $NEWER_MIRROR/debian trixie-backports main" \
		"deb [signed-by=$kr] $NEWER_MIRROR/debian-security trixie-security main"
}
# private_apt_update DIR WHAT LINE... : write DIR's sources.list from the
# LINEs and apt-get update it, under a lock, when the list changed or is
# older than six hours.
private_apt_update() {
	local dir=$1 what=$2 try
	shift 2
	mkdir -p "$dir/state/lists/partial" "$dir/cache/archives/partial"
	# Under the lock from the start: make test boots rows of Debian's
	# kernels side by side, and each asks for the kernel (and so for the
	# lists) as it boots.
	exec 7>"$dir/.lock"
	flock 7
	printf '%s\n' "$@" >"$dir/sources.list.new"
	if ! cmp -s "$dir/sources.list.new" "$dir/sources.list" ||
		[ -z "$(find "$dir/updated" -mmin -360 2>/dev/null)" ]; then
		mv "$dir/sources.list.new" "$dir/sources.list"
		say "Debian $what: apt-get update (private state in $dir)"
		for try in 1 2 3; do
			if private_apt "$dir" apt-get update -q >"$dir/update.log" 2>&1 &&
				! grep -q '^[EW]: Failed to fetch' "$dir/update.log"; then
				touch "$dir/updated"
				break
			fi
			[ $try = 3 ] && { tail -5 "$dir/update.log" >&2; flock -u 7; die "apt-get update of Debian's $what failed three times"; }
			sleep 10
		done
	fi
	rm -f "$dir/sources.list.new"
	flock -u 7
}

# QEMU's source comes from Debian sid (deb-src) and the build tools its
# configure needs beyond Debian 12's (meson >= 1.5, and pycotap that
# QEMU's meson.build asks for) from trixie: both through one more private
# apt state, so the host's sources stay as they are. The tools are
# architecture-independent packages, unpacked (dpkg-deb -x) into
# $QEMU_TOOLS, never installed; qemu_tools_env puts them first on PATH
# and PYTHONPATH.
QEMU_APT=$CACHE/qemu-apt
QEMU_TOOLS=$CACHE/qemu-tools
qemu_apt() { private_apt "$QEMU_APT" "$@"; }
qemu_apt_update() {
	local kr=/usr/share/keyrings/debian-archive-keyring.gpg
	private_apt_update "$QEMU_APT" "sid (qemu source) and trixie (meson)" \
		"deb-src [signed-by=$kr] $NEWER_MIRROR/debian sid main" \
		"deb [signed-by=$kr] $NEWER_MIRROR/debian trixie main"
}
qemu_tools_env() {
	export PATH="$QEMU_TOOLS/usr/bin:$PATH"
	export PYTHONPATH="$QEMU_TOOLS/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
}
# cache_fill DIR FUNC ARGS... : make DIR once, with FUNC TMPDIR ARGS...
# filling TMPDIR. The caches are shared by every clone on the machine, so
# DIR is made under a lock, in DIR.tmp, and renamed into place only when
# complete (DIR/.done); returns at once when DIR is complete already.
cache_fill() {
	local dir=$1 fn=$2 rc=0
	shift 2
	mkdir -p "$(dirname "$dir")"
	exec 8>"$dir.lock"
	flock 8
	if [ ! -f "$dir/.done" ]; then
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$dir.tmp"
		"$fn" "$dir.tmp" "$@" || rc=$?
		if [ $rc = 0 ]; then
			touch "$dir.tmp/.done"
			mv "$dir.tmp" "$dir"
		fi
	fi
	flock -u 8
	return $rc
}

# apt_unpack DIR APTDIR PKG[=VERSION]... : download the packages with the
# private apt state in APTDIR and unpack them all into DIR, once
# (cache_fill).
apt_unpack() {
	local dir=$1
	shift
	cache_fill "$dir" _apt_download_unpack "$@" || die "could not fetch and unpack ${*:2}"
}
newer_apt_unpack() { apt_unpack "$1" "$NEWER_APT" "${@:2}"; }
# _apt_download_unpack TMP APTDIR PKG... : download the packages with the
# private apt state in APTDIR and unpack them all into TMP.
_apt_download_unpack() {
	local tmp=$1 aptdir=$2 deb
	shift 2
	say "fetching Debian's $* into ${tmp%.tmp}"
	mkdir -p "$tmp/dl"
	(cd "$tmp/dl" && run_logged "$tmp/download.log" private_apt "$aptdir" apt-get download -q "$@") || return 1
	for deb in "$tmp"/dl/*.deb; do
		dpkg-deb -x "$deb" "$tmp" || return 1
	done
	rm -rf "$tmp/dl"
}

# qemu_cpu_props CPU PROP... : what the properties of a stopped virt
# machine's CPU (CPU: the whole -cpu string, max,haft=off) read after
# realize (QMP qom-get), each a bool read as on or off, space separated;
# '-' for a property the model does not have; nothing at all when QEMU
# refuses the CPU.
qemu_cpu_props() {
	local cpu=$1 prop
	shift
	{
		echo '{"execute":"qmp_capabilities"}'
		for prop; do
			echo '{"execute":"qom-get","arguments":{"path":"/machine/unattached/device[0]","property":"'"$prop"'"}}'
		done
		echo '{"execute":"quit"}'
	} | timeout 30 "$QEMU" -M virt -cpu "$cpu" -nodefaults -nic none -display none -S \
		-qmp stdio 2>/dev/null | sed -n -e 's/^{"return": true}.*/on/p' \
		-e 's/^{"return": false}.*/off/p' -e 's/^{"error": .*/-/p' | paste -sd' '
}

# haft_off_by CMDLINE: true when the kernel command line turns FEAT_HAFT
# off (arm64.nohaft, or id_aa64mmfr1.hafdbs=1 or 2); BASH_REMATCH[1]
# holds the word that does.
haft_off_by() { [[ " $1 " =~ \ (arm64\.nohaft|id_aa64mmfr1\.hafdbs=(0x)?[12])\  ]]; }

# The table of boots (boots at the top; its comment says what each column
# holds). boot_rows TARGET prints the names of the rows TARGET makes, in
# order; boot_row NAME sets ROW_TARGETS ROW_KERNEL ROW_CPU ROW_MACHINE
# ROW_SUITES ROW_TIMEOUT ROW_HAFT ROW_CAPS ROW_APPEND ('-' made empty).
# Either checks the whole table first and dies, naming the line, on a
# malformed row.
BOOTS=${BOOTS:-$TOP/boots}
BOOT_COLUMNS="name targets kernel cpu machine suites timeout haft caps append"
declare -A _BOOT_LINE=()
_BOOT_ROWS=()
boots_load() {
	[ ${#_BOOT_ROWS[@]} = 0 ] || return 0
	[ -f "$BOOTS" ] || die "the table of boots $BOOTS is missing"
	local n=0 header= line name targets kernel cpu machine suites timeout haft caps append m s
	local where
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case "$line" in '' | '#'*) continue ;; esac
		where="${BOOTS#"$TOP"/}:$n"
		read -r name targets kernel cpu machine suites timeout haft caps append <<<"$line"
		if [ -z "$header" ]; then
			header=$(echo $line)
			[ "$header" = "$BOOT_COLUMNS" ] ||
				die "$where: the columns must be '$BOOT_COLUMNS', not '$header'"
			continue
		fi
		[ -n "$append" ] || die "$where: row '$name' has fewer than the ${BOOT_COLUMNS// /, } columns ('-' for an empty one)"
		[[ "$name" =~ ^[a-z0-9][a-z0-9/_.-]*$ ]] || die "$where: bad name '$name'"
		[ -z "${_BOOT_LINE[$name]:-}" ] || die "$where: row '$name' repeats the row of line ${_BOOT_LINE[$name]%%$'\t'*}"
		[[ ",$targets," =~ ^(,(test|check|bench|soak|run|x86))+,$ ]] ||
			die "$where: $name: targets '$targets' is not a comma list of test, check, bench, soak, run, x86"
		[[ "$kernel" =~ ^((newest/)?[a-z0-9][a-z0-9+-]*|mainline/[a-z0-9][a-z0-9-]*|(stock|x86):(6\.12|current))$ ]] ||
			die "$where: $name: kernel '$kernel' is not VARIANT, newest/VARIANT, mainline/NAME (build/kernel-mainline-NAME), stock:6.12, stock:current, x86:6.12 or x86:current"
		[[ "$cpu" =~ ^[a-z0-9][a-z0-9,=_.-]*$ ]] || die "$where: $name: bad cpu '$cpu'"
		if [ "$machine" != - ]; then
			for m in ${machine//+/ }; do
				[[ "$m" =~ ^(mem=[1-9][0-9]*[MG]|numa=[0-9]+,[0-9]+|virt|icount|icount=[0-9]|initrd=[a-z0-9-]+)$ ]] ||
					die "$where: $name: machine item '$m' is not mem=SIZE, numa=MIB0,MIB1, virt, icount, icount=SHIFT or initrd=NAME"
			done
		fi
		for s in ${suites//,/ }; do
			[ -x "$TOP/guest/tests/$s" ] || die "$where: $name: no suite guest/tests/$s"
		done
		[[ "$timeout" =~ ^[0-9A-Z_{}+*/-]+$ ]] || die "$where: $name: bad timeout '$timeout'"
		[[ "$haft" =~ ^(yes|no)$ ]] || die "$where: $name: haft must be yes or no, not '$haft'"
		[[ "$caps" =~ ^0x000[137]$ ]] || die "$where: $name: caps must be 0x0001, 0x0003 or 0x0007, not '$caps'"
		# x86 has no FEAT_HAFT: its CPUs set non-leaf Accessed bits anyway.
		if [ "${kernel#x86:}" != "$kernel" ]; then
			[ "$haft" = no ] || die "$where: $name: haft=yes on an x86 kernel (x86 has no FEAT_HAFT)"
		else
			[[ ( "$haft" = yes && "$caps" = 0x0007 ) || ( "$haft" = no && "$caps" != 0x0007 ) ]] ||
				die "$where: $name: haft=$haft with caps $caps (0x0007 is exactly HAFT in use)"
		fi
		if [ "$haft" = yes ] && haft_off_by "$append"; then
			die "$where: $name: expects HAFT with '${BASH_REMATCH[1]}' on its command line, which turns it off"
		fi
		_BOOT_LINE[$name]="$n"$'\t'"$targets"$'\t'"$kernel"$'\t'"$cpu"$'\t'"$machine"$'\t'"$suites"$'\t'"$timeout"$'\t'"$haft"$'\t'"$caps"$'\t'"$append"
		_BOOT_ROWS+=("$name")
	done <"$BOOTS"
	[ ${#_BOOT_ROWS[@]} -gt 0 ] || die "$BOOTS has no rows"
}
boot_rows() {
	local r t
	boots_load
	for r in "${_BOOT_ROWS[@]}"; do
		IFS=$'\t' read -r _ t _ <<<"${_BOOT_LINE[$r]}"
		[[ ",$t," == *",$1,"* ]] && printf '%s\n' "$r"
	done
	return 0
}
boot_row() {
	local v
	boots_load
	[ -n "${_BOOT_LINE[$1]:-}" ] || die "no row '$1' in ${BOOTS#"$TOP"/} (rows: ${_BOOT_ROWS[*]})"
	IFS=$'\t' read -r _ ROW_TARGETS ROW_KERNEL ROW_CPU ROW_MACHINE ROW_SUITES ROW_TIMEOUT \
		ROW_HAFT ROW_CAPS ROW_APPEND <<<"${_BOOT_LINE[$1]}"
	for v in ROW_MACHINE ROW_APPEND; do
		[ "${!v}" != - ] || printf -v "$v" ''
	done
}

# debian_extract NAME PKGS : Debian bookworm's packages PKGS (comma
# separated; DEB_ARCH's) with what they depend on, extracted by mmdebstrap
# once into $CACHE/guest/NAME-HASH (arm64) or NAME-amd64-HASH, the cache
# every clone shares (cache_fill); prints that directory.
debian_extract() {
	local dir name=$1
	[ "$DEB_ARCH" = arm64 ] || name=$name-$DEB_ARCH
	dir=$CACHE/guest/$name-$(echo "$2" | sha256sum | cut -c1-12)
	cache_fill "$dir" _debian_extract "$name" "$2" >&2 || die "could not extract Debian's $DEB_ARCH $2"
	echo "$dir"
}
_debian_extract() {
	say "extracting Debian $DEB_ARCH packages: $3"
	run_logged "$CACHE/guest/mmdebstrap-$2.log" mmdebstrap --variant=extract \
		--arch="$DEB_ARCH" --include="$3" bookworm "$1"
}

# elf_closure ROOT STAGE FILE... : copy into STAGE the shared libraries
# that the ELF files FILE (paths in STAGE) need, and those they need in
# turn, from the extracted tree ROOT: looked up in the multiarch library
# directories (DEB_ARCH's) and in the directories given in ELF_DIRS (paths
# below ROOT and STAGE alike, e.g. a JVM's lib/), as the loader would; a
# library already in STAGE counts; and each one's loader (PT_INTERP).
# Stops at the first one it cannot find.
elf_closure() {
	local root=$1 stage=$2 f lib d found ma
	shift 2
	ma=aarch64-linux-gnu
	[ "$DEB_ARCH" = arm64 ] || ma=x86_64-linux-gnu
	local -a todo=("$@") dirs=(lib/$ma usr/lib/$ma ${ELF_DIRS:-})
	local -A seen=()
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		lib=$(readelf -l "$stage/$f" 2>/dev/null | sed -n 's/.*interpreter: \(.*\)]/\1/p')
		if [ -n "$lib" ] && [ ! -e "$stage$lib" ]; then
			[ -e "$root$lib" ] || die "the loader $lib (of $f) is not in $root"
			mkdir -p "$stage${lib%/*}"
			cp -L "$root$lib" "$stage$lib"
		fi
		for lib in $(readelf -d "$stage/$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			[ -z "${seen[$lib]:-}" ] || continue
			seen[$lib]=1
			found=
			for d in "${dirs[@]}"; do
				if [ -e "$stage/$d/$lib" ]; then
					found=$d/$lib
					break
				elif [ -e "$root/$d/$lib" ]; then
					found=usr/lib/$ma/$lib
					[ "${d#usr/lib/$ma}" = "$d" ] && [ "${d#lib/$ma}" = "$d" ] && found=$d/$lib
					mkdir -p "$stage/${found%/*}"
					cp -L "$root/$d/$lib" "$stage/$found"
					break
				fi
			done
			[ -n "$found" ] || die "$lib (needed by $f) is not in $root"
			todo+=("$found")
		done
	done
}

# pack_archive STAGE FILE : a cpio archive of STAGE in FILE, packed as
# initramfs.sh packs (the tree's usr/gen_initramfs.sh, every file owned by
# root, one timestamp). Appended to the lab's initramfs it adds STAGE (the
# kernel unpacks concatenated archives in order).
pack_archive() {
	local tools=$BUILD/initramfs-tools
	[ -x "$tools/usr/gen_init_cpio" ] || die "$tools/usr/gen_init_cpio missing: run scripts/initramfs.sh"
	(cd "$tools" && sh "$BUILD/linux/usr/gen_initramfs.sh" -o "$2.tmp" \
		-d "${KBUILD_BUILD_TIMESTAMP:-2026-01-01 00:00:00 UTC}" -u squash -g squash "$1") ||
		die "usr/gen_initramfs.sh could not pack $1"
	mv "$2.tmp" "$2"
}
