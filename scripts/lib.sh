# Common helpers for the lab scripts. Sourced, never run.
# shellcheck shell=bash
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
# Caches live outside the clone so a fresh clone (and CI) reuses them.
CACHE=${CACHE:-/var/cache/haftlab}
CROSS=${CROSS:-aarch64-linux-gnu-}
JOBS=${JOBS:-$(nproc)}

QEMU_DIR=${QEMU_DIR:-$CACHE/qemu}
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
