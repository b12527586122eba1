#!/usr/bin/env python3
"""Compare the mm-selftests suite between two guest console logs.

Each log is a boot that ran guest/tests/mm-selftests (e.g. -c max and
-c max,haft=off). For every test program either log ran, the verdict
(pass, fail, skip) and the sub-result counts ('# NAME: sub-results
pass:P fail:F skip:S') must be the same in both. Prints one TAP line per
program and a plan; exits 1 on any difference, a missing suite or no test.

usage: compare-mm-selftests.py LOG_A LOG_B
"""
import os
import re
import sys

RESULT = re.compile(r"^(not ok|ok) \d+ - ([\w.+-]+)(.*)$")
SUB = re.compile(r"^# ([\w.+-]+): sub-results (.*)$")


def parse(log):
    """{test: [verdict, sub-results]} from the mm-selftests section."""
    tests, inside, seen = {}, False, False
    with open(log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line == "LAB: suite mm-selftests":
                inside = seen = True
                continue
            if line.startswith("LAB: "):
                inside = False
                continue
            if not inside:
                continue
            m = SUB.match(line)
            if m:
                tests.setdefault(m.group(1), [None, None])[1] = m.group(2)
                continue
            m = RESULT.match(line)
            if m:
                if m.group(1) == "not ok":
                    verdict = "fail"
                elif re.search(r"#\s*SKIP", m.group(3), re.I):
                    verdict = "skip"
                else:
                    verdict = "pass"
                tests.setdefault(m.group(2), [None, None])[0] = verdict
    return tests if seen else None


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    logs = sys.argv[1:]
    names = [os.path.basename(l).removesuffix(".log") for l in logs]
    parsed = [parse(l) for l in logs]
    n = bad = 0
    for log, p in zip(logs, parsed):
        if p is None or not p:
            n += 1
            bad += 1
            print(f"not ok {n} - {log}: no mm-selftests results in it")
    if bad:
        print(f"1..{n}")
        return 1
    a, b = parsed
    for t in sorted(set(a) | set(b)):
        va = a.get(t, ["missing", "-"])
        vb = b.get(t, ["missing", "-"])
        n += 1
        if va == vb:
            print(f"ok {n} - {t}: {va[0]} on both ({va[1]})")
        else:
            bad += 1
            print(f"not ok {n} - {t}: {names[0]} {va[0]} ({va[1]}), "
                  f"{names[1]} {vb[0]} ({vb[1]})")
    print(f"1..{n}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
