#!/usr/bin/env python3
"""Compare the mm-selftests suite between two guest console logs.

Each log is a boot that ran guest/tests/mm-selftests (e.g. -c max and
-c max,haft=off): the kselftest runner's TAP nested in the suite's, the
runner's tests (mseal_test, droppable, run_vmtests.sh) nested in it, and
run_vmtests.sh's results for the programs it ran, whose own output is '# '
lines there. For every program either log ran, the verdict (pass, fail,
skip) and the sub-result counts must be the same in both. The counts come
from kselftest.h's '# Totals:' line, else from the program's TAP results,
else from khugepaged's coloured OK/Fail/Skip steps. Prints one TAP line
per program and a plan; exits 1 on any difference, a missing suite or no
test.

usage: compare-mm-selftests.py LOG_A LOG_B
"""
import os
import re
import sys

RESULT = re.compile(r"^(not ok|ok) \d+(?: - | |$)(.*)$")
SUITE = "LAB: suite mm-selftests"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Counts:
    """Sub-results of one program, from the lines of its output."""

    def __init__(self):
        self.totals = None
        self.tap = [0, 0, 0]
        self.steps = [0, 0, 0]

    def add(self, line):
        line = ANSI.sub("", line)
        if line.startswith("# Totals: "):
            t = dict(kv.split(":", 1) for kv in line[10:].split() if ":" in kv)
            n = {k: int(v) for k, v in t.items() if v.isdigit()}
            self.totals = [n.get("pass", 0) + n.get("xfail", 0),
                           n.get("fail", 0) + n.get("xpass", 0) + n.get("error", 0),
                           n.get("skip", 0)]
            return
        m = RESULT.match(line)
        if m:
            i = 1 if m.group(1) == "not ok" else \
                2 if re.search(r"#\s*SKIP", m.group(2), re.I) else 0
            self.tap[i] += 1
            return
        for i, word in enumerate(("OK", "Fail", "Skip")):
            if line.rstrip().endswith(" " + word):
                self.steps[i] += 1

    def __str__(self):
        c = self.totals or (self.tap if any(self.tap) else self.steps)
        return "pass:%d fail:%d skip:%d" % tuple(c)


def verdict(result, rest):
    if result == "not ok":
        return "fail"
    return "skip" if re.search(r"#\s*SKIP", rest, re.I) else "pass"


def parse(log):
    """{program: [verdict, sub-results]} from the mm-selftests section."""
    tests, inside, seen = {}, False, False
    runner_test = None  # the runner's test whose output is being read
    counts = {1: Counts(), 2: Counts()}
    with open(log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line == SUITE:
                inside = seen = True
                continue
            if line.startswith("LAB: "):
                inside = False
                continue
            if not inside:
                continue
            body = line.lstrip(" ")
            depth = (len(line) - len(body)) // 4
            m = RESULT.match(body)
            if depth == 1:  # the runner's stream
                if m:
                    name = re.sub(r"^selftests: mm: ", "", m.group(2))
                    name = re.sub(r"\s*#.*$", "", name)
                    tests[name] = [verdict(m.group(1), m.group(2)), str(counts[1])]
                    counts[1] = Counts()
                    runner_test = None
                elif body.startswith("# selftests: mm: "):
                    runner_test = body[len("# selftests: mm: "):].strip()
                    counts = {1: Counts(), 2: Counts()}
            elif depth == 2:  # a runner test's own stream
                if runner_test == "run_vmtests.sh":
                    if m:
                        name = re.sub(r"\s*#.*$", "", m.group(2))
                        tests[name] = [verdict(m.group(1), m.group(2)), str(counts[2])]
                        counts[2] = Counts()
                        counts[1].add(body)
                    elif body.startswith("# running "):
                        counts[2] = Counts()
                    elif body.startswith("# "):
                        counts[2].add(body[2:])
                else:
                    counts[1].add(body)
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
