#!/usr/bin/env python3
"""The lab's one accounting path: judge what a step or a boot printed
against what was expected of it, and sum the run.

  verdict.py host NAME OUTPUT STATUS [--tap]
      A host step that exited with STATUS and printed OUTPUT. Without --tap
      the step is one result, from its exit status alone: lines in its
      output that look like TAP count for nothing. With --tap its output
      must hold one TAP stream (plan, numbering) and it must exit 0.

  verdict.py guest NAME LOG --suites A,B,...
      A guest boot's console log. Each suite asked for must appear once,
      in order, between 'LAB: suite X' and 'LAB: suite X exit 0', and
      print one TAP stream; the guest must reach 'LAB: done'; no kernel
      splat anywhere in the log, before or after that line.

  verdict.py summary RESULTS_DIR
      Every name listed in RESULTS_DIR/planned must have been judged
      exactly once, and nothing else; prints 'N passed, N failed[, N
      skipped]' and exits 1 on any failure.

A TAP stream (the TAP 13 / KTAP 1 subset the lab uses): results
'ok N - desc' / 'not ok N - desc' numbered 1, 2, 3 ..., exactly one plan
'1..N' (first or last) equal to the number of results, '# ' diagnostics,
'ok N - desc # SKIP why' for skips and '1..0 # SKIP why' for a stream
that skipped everything. A nested (KTAP) subtest is a stream indented by
four more spaces, right before the result line that carries it. Counted
are the innermost results; a result that fails although none of its
subtest's results did (an exit status) is one failure. Unnumbered,
duplicate, out-of-order or unplanned results, a missing or second plan, a
'Bail out!' and TAP lines outside any suite are failures of their own.
Other lines (the kernel's console, a program's stderr) are ignored.

host and guest append 'NAME PASSED FAILED SKIPPED' to DIR/counts, write
the judged item as KTAP to DIR/NAME.ktap, print one verdict line and, for
each failure, the lines that show why. DIR is LAB_RESULTS when set (the
run's results directory, which scripts/steps.sh gives it, so that a row
whose name has a subdirectory, x86/6.12, is counted in the run that
planned it), else where OUTPUT or LOG is (NAME.ktap then named by the last
part of NAME).
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
RESULT = re.compile(r"^(not ok|ok)\b(?:\s+(\d+)\b)?\s*(?:-\s*)?(.*)$")
PLAN = re.compile(r"^(\d+)\.\.(\d+)\s*(?:#\s*(.*))?$")
SKIP = re.compile(r"#\s*SKIP\b\s*(.*)$", re.I)
HEADER = re.compile(r"^K?TAP version \d+$")
SUITE = re.compile(r"^LAB: suite (\S+)$")
SUITE_EXIT = re.compile(r"^LAB: suite (\S+) exit (-?\d+)$")
INDENT = "    "


class Tally:
    """Counts of one judged item, and the failures with where they were."""

    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.problems = []  # (what, index into the log's lines)

    def problem(self, what, where):
        self.failed += 1
        self.problems.append((what, where))

    def note(self, what, where):
        """Shown with the failures, not counted: what else went wrong in
        an item that already failed."""
        self.problems.append((what + " (noted; already counted as failed)",
                              where))

    def add(self, other):
        self.passed += other.passed
        self.failed += other.failed
        self.skipped += other.skipped
        self.problems += other.problems


def level_of(line):
    """(depth, text) of a line by its four-space indentation."""
    depth = 0
    while line.startswith(INDENT):
        line = line[len(INDENT):]
        depth += 1
    return depth, line


def judge_stream(lines, what, out, depth=0, top=True):
    """Judge one TAP stream: lines are (index, text) pairs. Writes the
    normalised KTAP to out (a list), indented by depth. top: the stream is
    a whole item's (a suite's or a step's), not a nested subtest, whose
    skip its parent's result line counts. Returns a Tally."""
    t = Tally()
    plans, results = [], 0
    child = []  # (index, text) lines of a nested stream awaiting its result
    pad = INDENT * depth
    last = lines[-1][0] if lines else 0

    def close_child(index, result_line):
        """The nested stream in child belongs to the result at index:
        returns its Tally, or None when there was none."""
        nonlocal child
        if not child:
            return None
        sub = [(i, s[len(INDENT):]) for i, s in child]
        name = result_line if result_line is not None else "(no result line)"
        c = judge_stream(sub, f"{what} > {name}", out, depth + 1, False)
        child = []
        return c

    for i, line in lines:
        if line.startswith(INDENT):
            child.append((i, line))
            continue
        if not line.strip():
            continue
        m = RESULT.match(line)
        if m:
            ok, num, desc = m.group(1) == "ok", m.group(2), m.group(3)
            results += 1
            c = close_child(i, desc)
            out.append(pad + line)
            if num is None:
                t.problem(f"{what}: result without a number: '{line}'", i)
            elif int(num) != results:
                t.problem(f"{what}: result numbered {num} where {results} "
                          f"was due (duplicate, out of order or unplanned): "
                          f"'{line}'", i)
            if plans and results > plans[0][0]:
                t.problem(f"{what}: result {results} is beyond the plan "
                          f"1..{plans[0][0]}", i)
            skip = bool(SKIP.search(desc))
            if c is None:
                if not ok:
                    t.problem(f"{what}: {line}", i)
                elif skip:
                    t.skipped += 1
                else:
                    t.passed += 1
                continue
            t.add(c)
            if not ok and c.failed == 0:
                t.problem(f"{what}: {line} (its subtest's own results all "
                          "passed)", i)
            elif ok and c.passed + c.failed + c.skipped == 0:
                # a subtest that ran nothing ('1..0 # SKIP'): the parent
                # result is what counts
                if skip:
                    t.skipped += 1
                else:
                    t.passed += 1
            continue
        m = PLAN.match(line)
        if m and m.group(1) == "1":
            out.append(pad + line)
            if plans:
                t.problem(f"{what}: a second plan '{line}' (the first was "
                          f"1..{plans[0][0]})", i)
            plans.append((int(m.group(2)), m.group(3) or "", i))
            continue
        if line.startswith("Bail out!"):
            out.append(pad + line)
            t.problem(f"{what}: {line}", i)
            continue
        if line.startswith("#") or HEADER.match(line):
            out.append(pad + line)
            continue
        # anything else is console noise or a program's stderr
    if child:
        c = close_child(last, None)
        t.add(c)
        t.problem(f"{what}: a nested stream is not followed by the result "
                  "that carries it", child[-1][0] if child else last)
    if not plans:
        t.problem(f"{what}: no plan (1..N): {results} result(s) seen; the "
                  "stream stopped early or never started", last)
    else:
        n, reason, i = plans[0]
        if n != results:
            t.problem(f"{what}: plan 1..{n} but {results} result(s)", i)
        elif n == 0 and not SKIP.search("# " + reason):
            t.problem(f"{what}: plan 1..0 without a SKIP reason", i)
        elif n == 0 and top:
            t.skipped += 1
    return t


def show(log_lines, where, context=4):
    lo = max(0, where - context)
    hi = min(len(log_lines), where + context + 1)
    for i in range(lo, hi):
        mark = ">" if i == where else " "
        print(f"   {mark}{i + 1:6} | {log_lines[i]}")


# The failed steps of a program that prints no TAP of its own
# (khugepaged's "... Fail", "... Timeout"): a failed result line is
# preceded by its program's output, back to the result line before it.
STEP_FAIL = re.compile(r"\b(Fail|FAIL|Timeout|TIMEOUT|Bail out)\b")
STEP_END = re.compile(r"^\s*(# )*(not )?ok \d+")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def show_failed_steps(log_lines, where, limit=10):
    if not (0 <= where < len(log_lines)) or \
            not re.search(r"\bnot ok \d+", log_lines[where]):
        return
    steps = []
    for i in range(where - 1, max(-1, where - 2000), -1):
        if STEP_END.match(log_lines[i]):
            break
        if STEP_FAIL.search(ANSI.sub("", log_lines[i])):
            steps.append(i)
    for i in reversed(steps[:limit]):
        print(f"    step {i + 1:6} | {log_lines[i]}")


def record(name, path, t, ktap, log_lines):
    d = os.environ.get("LAB_RESULTS")
    if d:
        kpath = os.path.join(d, name + ".ktap")
    else:
        d = os.path.dirname(os.path.abspath(path))
        kpath = os.path.join(d, os.path.basename(name) + ".ktap")
    os.makedirs(os.path.dirname(kpath), exist_ok=True)
    for what, where in t.problems:
        print(f"--- {name}: {what} (line {where + 1} of {path}):")
        show(log_lines, where)
        show_failed_steps(log_lines, where)
    verdict = "PASS" if t.failed == 0 else "FAIL"
    print(f"{name}: {verdict}: {t.passed} passed, {t.failed} failed, "
          f"{t.skipped} skipped")
    status = "ok" if t.failed == 0 else "not ok"
    with open(kpath, "w") as f:
        f.write("KTAP version 1\n# Subtest: %s\n" % name)
        f.write("\n".join(ktap) + "\n")
        f.write(f"# {name}: {t.passed} passed, {t.failed} failed, "
                f"{t.skipped} skipped\n{status} - {name}\n")
    with open(os.path.join(d, "counts"), "a") as f:
        f.write(f"{name} {t.passed} {t.failed} {t.skipped}\n")
    # The summary repeats why, so that the end of a long run says it.
    with open(os.path.join(d, "problems"), "a") as f:
        for what, where in t.problems:
            f.write(f"{name}: {what} (line {where + 1} of {path})\n")
    return 0 if t.failed == 0 else 1


def read_lines(path):
    try:
        with open(path, errors="replace") as f:
            return [l.rstrip("\r\n").replace("\r", "") for l in f]
    except OSError:
        return None


def exit_status(t, what, status, where):
    """A non-zero exit fails an item whose results all passed; where they
    did not, it is shown with them."""
    if status != 0 and t.failed == 0:
        t.problem(f"{what} exited with status {status} after results that "
                  "all passed", where)
    elif status != 0:
        t.note(f"{what} exited with status {status}", where)


def missing(name, path):
    """The verdict on an item whose output or log is not there."""
    t = Tally()
    t.problem(f"{name}: {path} is missing", 0)
    return record(name, path, t, [], [])


def judge_host(name, path, status, tap):
    lines = read_lines(path)
    if lines is None:
        return missing(name, path)
    t, ktap = Tally(), []
    last = max(0, len(lines) - 1)
    if not tap:
        if status == 0:
            t.passed += 1
            ktap.append(f"ok 1 - {name}")
        else:
            t.problem(f"{name}: exited with status {status}", last)
            ktap.append(f"not ok 1 - {name} # exit {status}")
        ktap.insert(0, "1..1")
        return record(name, path, t, ktap, lines)
    t = judge_stream(list(enumerate(lines)), name, ktap)
    exit_status(t, f"{name}:", status, last)
    return record(name, path, t, ktap, lines)


def judge_guest(name, path, suites):
    lines = read_lines(path)
    if lines is None:
        return missing(name, path)
    t, ktap = Tally(), []
    last = max(0, len(lines) - 1)
    seen = []  # (suite, start index, end index or None, exit status)
    current = None
    for i, line in enumerate(lines):
        m = SUITE_EXIT.match(line)
        if m:
            if current and current[0] == m.group(1):
                seen.append((current[0], current[1], i, int(m.group(2))))
            else:
                t.problem(f"{name}: '{line}' without its 'LAB: suite "
                          f"{m.group(1)}'", i)
            current = None
            continue
        m = SUITE.match(line)
        if m or line.startswith("LAB: done"):
            if current:
                seen.append((current[0], current[1], None, None))
            current = (m.group(1), i) if m else None
            continue
        if current is None and (RESULT.match(line) or PLAN.match(line)):
            t.problem(f"{name}: TAP line outside any suite: '{line}'", i)
    if current:
        seen.append((current[0], current[1], None, None))

    names = [s[0] for s in seen]
    ktap.append(f"1..{len(suites)}")
    n = 0
    for s in suites:
        n += 1
        runs = [x for x in seen if x[0] == s]
        if not runs:
            t.problem(f"{name}: suite {s} was asked for and never ran", last)
            ktap.append(f"not ok {n} - {s} # never ran")
            continue
        if len(runs) > 1:
            t.problem(f"{name}: suite {s} ran {len(runs)} times", runs[1][1])
        suite, start, end, status = runs[0]
        body = lines[start + 1:end if end is not None else len(lines)]
        # The suite's stream: everything but the lab's own and the host's
        # lines; the stream's own checks find what is missing.
        stream = [(start + 1 + k, l) for k, l in enumerate(body)
                  if not l.startswith(("LAB: ", "LAB-HOST: "))]
        sub = []
        st = judge_stream(stream, f"{name} > {s}", sub, 1, True)
        ktap.append(INDENT + "KTAP version 1")
        ktap.append(INDENT + f"# Subtest: {s}")
        ktap += sub
        if end is None:
            st.problem(f"{name}: suite {s} never finished (no 'LAB: suite "
                       f"{s} exit N')", start + len(body))
        else:
            exit_status(st, f"{name}: suite {s}", status, end)
        t.add(st)
        ktap.append(f"{'ok' if st.failed == 0 else 'not ok'} {n} - {s}")
    for s in sorted(set(names) - set(suites)):
        i = next(x[1] for x in seen if x[0] == s)
        t.problem(f"{name}: suite {s} ran but was not asked for", i)
    order = [x for x in names if x in suites]
    if order != [x for x in suites if x in names] and len(set(order)) == len(order):
        t.problem(f"{name}: suites ran in the order {','.join(order)}, not "
                  f"{','.join(suites)}", last)

    burst = -100
    for i, line in enumerate(lines):
        text = line.lstrip()
        if text.startswith(("LAB", "#")) or RESULT.match(text):
            continue
        if SPLAT.search(line):
            if i - burst >= 40:
                t.problem(f"{name}: kernel splat: '{line.strip()}'", i)
            burst = i
    if not any(l.startswith("LAB: done") for l in lines):
        why = next((l for l in lines if l.startswith("LAB-HOST:")),
                   "the guest never printed 'LAB: done' (log cut short)")
        t.problem(f"{name}: run did not finish: {why}", last)
    for i, line in enumerate(lines):
        if line.startswith("LAB-HOST:") and "timeout" not in line:
            t.problem(f"{name}: {line}", i)
    return record(name, path, t, ktap, lines)


def summary(d):
    planned_path = os.path.join(d, "planned")
    planned = []
    if os.path.exists(planned_path):
        with open(planned_path) as f:
            planned = [l.split()[0] for l in f if l.strip()]
    judged = []
    if os.path.exists(os.path.join(d, "counts")):
        with open(os.path.join(d, "counts")) as f:
            judged = [l.split() for l in f if l.strip()]
    p = f = s = 0
    names = []
    for row in judged:
        if len(row) != 4 or not all(x.isdigit() for x in row[1:]):
            print(f"--- counts: malformed line: {' '.join(row)}")
            f += 1
            continue
        names.append(row[0])
        p, f, s = p + int(row[1]), f + int(row[2]), s + int(row[3])
    for name in planned:
        c = names.count(name)
        if c == 0:
            print(f"--- {name}: planned but never judged (it did not run, "
                  "or died before its verdict; see above)")
            f += 1
        elif c > 1:
            print(f"--- {name}: judged {c} times")
            f += 1
    for name in sorted(set(names) - set(planned)):
        print(f"--- {name}: judged but not planned")
        f += 1
    if not planned:
        print("--- no step was planned")
        f += 1
    with open(os.path.join(d, "report.ktap"), "w") as out:
        out.write("KTAP version 1\n1..%d\n" % len(planned))
        for k, name in enumerate(planned, 1):
            path = os.path.join(d, name + ".ktap")
            body = []
            if os.path.exists(path):
                with open(path) as g:
                    body = g.read().splitlines()
            for line in body[:-1]:
                out.write(INDENT + line + "\n")
            good = body and body[-1].startswith("ok") and names.count(name) == 1
            out.write(f"{'ok' if good else 'not ok'} {k} - {name}\n")
    problems = os.path.join(d, "problems")
    if f and os.path.exists(problems):
        with open(problems) as g:
            why = g.read().splitlines()
        print()
        print(f"--- what failed ({len(why)} problem(s); each is shown with "
              "its log lines above):")
        for w in why[:20]:
            print(f"    {w}")
        if len(why) > 20:
            print(f"    ... and {len(why) - 20} more in {problems}")
    print()
    line = f"{p} passed, {f} failed"
    if s:
        line += f", {s} skipped"
    print(line)
    return 1 if f else 0


def main(argv):
    usage = __doc__.split("\n\n")[1]
    try:
        if argv[0] == "host":
            name, path, status = argv[1], argv[2], int(argv[3])
            return judge_host(name, path, status, "--tap" in argv[4:])
        if argv[0] == "guest":
            name, path = argv[1], argv[2]
            if argv[3:4] != ["--suites"] or len(argv) != 5:
                raise IndexError
            suites = [s for s in argv[4].split(",") if s]
            return judge_guest(name, path, suites)
        if argv[0] == "summary" and len(argv) == 2:
            return summary(argv[1])
    except (IndexError, ValueError):
        pass
    print("usage:\n" + usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
