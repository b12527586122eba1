#!/bin/bash
# Check (and apply, in order) the master port in this directory against
# QEMU master files of one commit.
#
#   port.sh MASTER_DIR [QUEUE_DIR ...]
#
# MASTER_DIR: a directory holding the files the queue touches, as they are
#   at one qemu/qemu commit (a full checkout works too).  QUEUE_DIR: a
#   directory of patches, applied in the order of its 'series' file (or of
#   its 0*.patch names when it has none; 0000-* is skipped); several are
#   applied one after the other, in the order given.  Default: this
#   script's fixes/ then patches/.
# WORK_DIR (environment): where the scratch git tree is made (default: a
#   new temporary directory; never the lab repo).
# ONLY="path ..." restricts the check to those files (git apply --include),
#   for a MASTER_DIR whose other files are not from the commit; the patches
#   are then applied file-restricted with git apply and committed, instead
#   of with git am.
# Prints one line per patch: OK, FAIL (with git's reason) or SKIP (no hunk
# in ONLY).  Exit status: the number of FAILs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
master=${1:?usage: port.sh MASTER_DIR [QUEUE_DIR ...]}
shift
[ $# -gt 0 ] || set -- "$here/fixes" "$here/patches"
work=${WORK_DIR:-$(mktemp -d /tmp/qemu-master-port.XXXXXX)}
master=$(cd "$master" && pwd) || exit 99

patches=()
for q in "$@"; do
    q=$(cd "$q" && pwd) || exit 99
    if [ -f "$q/series" ]; then
        while read -r p; do
            case "$p" in '' | '#'*) continue ;; esac
            [ -f "$q/$p" ] || { echo "$q/series names $p, which does not exist"; exit 99; }
            patches+=("$q/$p")
        done <"$q/series"
    else
        for p in "$q"/0*.patch; do
            case "$(basename "$p")" in 0000-*) continue ;; esac
            [ -f "$p" ] && patches+=("$p")
        done
    fi
done
[ ${#patches[@]} -gt 0 ] || { echo "no patches in $*"; exit 99; }

files=$(grep -h '^diff --git a/' "${patches[@]}" | awk '{print substr($3, 3)}' | sort -u)
rm -rf "$work/tree" && mkdir -p "$work/tree" && cd "$work/tree" || exit 99
git init -q && git config user.name port && git config user.email port@localhost
missing=0
for f in $files; do
    if [ -f "$master/$f" ]; then
        mkdir -p "$(dirname "$f")" && cp "$master/$f" "$f"
    elif grep -q "^--- /dev/null" <(awk -v f="$f" '$0 == "diff --git a/" f " b/" f {p=1; next} /^diff --git/ {p=0} p' "${patches[@]}"); then
        :   # created by the queue
    else
        echo "MISSING $f (not in $master)"; missing=$((missing + 1))
    fi
done
git add -A && git commit -qm "master files" --allow-empty
fails=0
for p in "${patches[@]}"; do
    name=$(basename "$(dirname "$p")")/$(basename "$p")
    inc=()
    if [ -n "${ONLY:-}" ]; then
        for f in $ONLY; do
            grep -q "^diff --git a/$f b/$f\$" "$p" && inc+=("--include=$f")
        done
        [ ${#inc[@]} -eq 0 ] && { echo "SKIP $name (no hunk in ONLY)"; continue; }
    fi
    if ! err=$(git apply --check "${inc[@]}" "$p" 2>&1); then
        echo "FAIL $name"; echo "$err" | sed 's/^/    /'; fails=$((fails + 1)); continue
    fi
    if [ -n "${ONLY:-}" ]; then
        git apply "${inc[@]}" "$p" && git add -A && git commit -qm "$name (${inc[*]})"
        echo "OK   $name (${inc[*]#--include=})"
    elif git am -q "$p"; then
        echo "OK   $name"
    else
        git am --abort; echo "FAIL $name (git am)"; fails=$((fails + 1))
    fi
done
echo "tree: $work/tree; $missing missing file(s), $fails failed patch(es)"
exit $fails
