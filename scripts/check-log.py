#!/usr/bin/env python3
"""Judge one guest console log.

Counts the TAP results the guest printed and looks for kernel splats
(panic, Oops, BUG, WARNING, lockdep, hung task, soft lockup, KFENCE, ...).
A splat, a timeout, a missing 'LAB: done' or a QEMU failure is one failed
test each, shown with the console lines around it. Prints the verdict and
appends 'NAME PASSED FAILED SKIPPED' to build/results/counts.

usage: check-log.py [--host] LOG NAME
With --host the log is a host-side TAP step: no splat or 'LAB: done' check.
"""
import os
import re
import sys

SPLAT = re.compile(
    r"Kernel panic|Internal error:|Oops|BUG:|kernel BUG at|WARNING:|"
    r"cut here \]|possible circular locking|possible recursive locking|"
    r"inconsistent lock state|suspicious RCU usage|blocked for more than|"
    r"soft lockup|hard LOCKUP|rcu: INFO|KFENCE: |UBSAN:|list_add corruption|"
    r"list_del corruption|Unable to handle kernel|Bad page state|"
    r"page_table_check|SError|Kernel offset:|Call trace:")
TAP = re.compile(r"^(not ok|ok)\b(.*)$")


def main():
    args = sys.argv[1:]
    host = args[0] == "--host"
    if host:
        args = args[1:]
    log, name = args[0], args[1]
    with open(log, errors="replace") as f:
        lines = [l.rstrip("\r\n") for l in f]
    passed = failed = skipped = 0
    problems = []
    for i, line in enumerate(lines):
        m = TAP.match(line)
        if m:
            if m.group(1) == "ok":
                if re.search(r"#\s*SKIP", m.group(2), re.I):
                    skipped += 1
                else:
                    passed += 1
            else:
                failed += 1
                problems.append(("test failed", i, 0))
            continue
        if not host and SPLAT.search(line) and not line.startswith(("LAB", "#")):
            problems.append(("kernel splat", i, 12))
            failed += 1
    # One splat prints many matching lines: count a burst once.
    merged, last = [], -100
    for kind, i, ctx in problems:
        if kind == "kernel splat" and i - last < 40:
            failed -= 1
            continue
        if kind == "kernel splat":
            last = i
        merged.append((kind, i, ctx))
    if not host and not any(l.startswith("LAB: done") for l in lines):
        why = next((l for l in lines if l.startswith("LAB-HOST:")),
                   "the guest never printed 'LAB: done'")
        merged.append(("run did not finish: " + why, len(lines) - 1, 15))
        failed += 1
    if passed + failed == 0:
        merged.append(("no test ran", len(lines) - 1, 15))
        failed += 1
    for kind, i, ctx in merged:
        print(f"--- {name}: {kind} (console line {i + 1} of {log}):")
        for l in lines[max(0, i - 3):i + ctx + 1]:
            print("    " + l)
    verdict = "PASS" if failed == 0 else "FAIL"
    print(f"{name}: {verdict}: {passed} passed, {failed} failed, {skipped} skipped")
    with open(os.path.join(os.path.dirname(log), "counts"), "a") as f:
        f.write(f"{name} {passed} {failed} {skipped}\n")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
