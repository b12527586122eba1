#!/bin/bash
# Check (and apply, in order) the master port in this directory against
# QEMU master files of one commit.
#
#   port.sh MASTER_DIR [QUEUE_DIR] [WORK_DIR]
#
# MASTER_DIR: a directory holding the files the queue touches, as they are
#   at one qemu/qemu commit (a full checkout works too).  QUEUE_DIR: the
#   patches (default: this script's directory).  WORK_DIR: where the scratch
#   git tree is made (default: a new temporary directory; never the lab repo).
# ONLY="path ..." restricts the check to those files (git apply --include),
#   for a MASTER_DIR whose other files are not from the commit; the patches
#   are then applied file-restricted with git apply and committed, instead
#   of with git am.
# Prints one line per patch: OK, FAIL (with git's reason) or SKIP (no hunk
# in ONLY).  Exit status: the number of FAILs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
master=${1:?usage: port.sh MASTER_DIR [QUEUE_DIR] [WORK_DIR]}
queue=${2:-$here}
work=${3:-$(mktemp -d /tmp/qemu-master-port.XXXXXX)}
master=$(cd "$master" && pwd); queue=$(cd "$queue" && pwd)

files=$(grep -h '^diff --git a/' "$queue"/0*.patch | awk '{print substr($3, 3)}' | sort -u)
rm -rf "$work/tree" && mkdir -p "$work/tree" && cd "$work/tree" || exit 99
git init -q && git config user.name port && git config user.email port@localhost
missing=0
for f in $files; do
    if [ -f "$master/$f" ]; then
        mkdir -p "$(dirname "$f")" && cp "$master/$f" "$f"
    elif grep -q "^--- /dev/null" <(awk -v f="$f" '$0 == "diff --git a/" f " b/" f {p=1; next} /^diff --git/ {p=0} p' "$queue"/0*.patch); then
        :   # created by the queue
    else
        echo "MISSING $f (not in $master)"; missing=$((missing + 1))
    fi
done
git add -A && git commit -qm "master files" --allow-empty
fails=0
for p in "$queue"/0*.patch; do
    name=$(basename "$p")
    case "$name" in 0000-*) continue ;; esac
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
