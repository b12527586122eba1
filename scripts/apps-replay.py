#!/usr/bin/env python3
"""Turn a published apps.csv back into the log lines it was made from.

usage: apps-replay.py APPS.CSV [--except TAG ...] > DIR/apps-published.log
       apps-replay.py APPS.CSV --except-logs LOG ... > DIR/apps-published.log

bench-report.py writes results/apps.csv from the AGENT, AGENT-JOB and APP
lines of the bench-apps logs (every memcg=ALL round, the jobs' and the
programs' per-phase figures, and one size and interval per workload). This
prints those lines again, in the order they were written, so that:

- the published verdicts can be recomputed from the published samples
  alone (scripts/check-sync.sh: bench-report on this output must give
  results/apps.md byte for byte), and
- a bench row run again (or a control added to it) can be reported
  beside the rows that were not, without their logs: the tags given with
  --except (a re-run's tags, WORKLOAD/POLICY) are left out, so that the
  new log's lines stand in for them, not beside them; --except-logs
  leaves out every tag those logs carry, read as bench-report reads them
  (an amd64 boot's tags get x86-). scripts/bench.sh does this with
  APPS_REPLAY=1.

What the CSV does not hold is not made up. The per-memcg lines behind
bench-report's dropped-pair rule (a settle round that did not walk a
memcg) are not in it: the pairs each tag dropped are taken from the phase
design table of the apps.md beside the CSV, published with it, and passed
on as a '# bench-apps: replayed TAG: pairs dropped P ...' line. An A/A
control's lines come back with their arm as their setting (the CSV stores
the arm, bench-report's pairing key), which is all bench-report reads of
them. The boot each tag came from (its meta row 'run'; 'unrecorded' where
it has none) comes back as a '# bench-apps: run=ID' line wherever it
changes.
"""
import csv
import os
import re
import sys


def dropped_pairs(md):
    """{tag: [pairs]} from an apps.md's phase design table ('pairs dropped')."""
    out, cols = {}, None
    if not os.path.exists(md):
        return out
    with open(md) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[:2] == ["tag", "rounds"] and "pairs dropped" in cells:
                cols = cells.index("pairs dropped")
                continue
            if cols is None:
                continue
            if not line.startswith("|"):
                cols = None
                continue
            if len(cells) > cols and re.fullmatch(r"\d+(, \d+)*", cells[cols]) and cells[cols] != "0":
                out[cells[0]] = cells[cols].split(", ")
    return out


def replay(path, skip=()):
    lines, meta, order, runs = [], {}, [], {}
    groups = {}
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    cols = {"part", "tag", "memcg", "round", "setting", "pair", "metric", "value"}
    if not rows or set(rows[0]) != cols:
        raise SystemExit(f"apps-replay: {path} is not an apps.csv (bench-report.py's columns)")
    for r in rows:
        if r["tag"] in skip:
            continue
        if r["part"] == "meta" and r["metric"] == "run":
            runs[r["tag"]] = r["value"]
            continue
        if r["part"] == "meta":
            wl = r["tag"].split("/", 1)[0]
            meta.setdefault(wl, {})[r["metric"]] = r["value"]
            continue
        key = (r["part"], r["tag"], r["memcg"], r["round"], r["setting"], r["pair"])
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append((r["metric"], r["value"]))
    # the sizes and intervals first: bench-report reads them from a
    # '# bench-apps: WORKLOAD, MIB MiB, ... rounds of MS ms' line
    for wl, m in meta.items():
        if "mib" in m and "interval_ms" in m:
            lines.append(f"# bench-apps: {wl}, {float(m['mib']):g} MiB, policies (replayed), "
                         f"rounds of {float(m['interval_ms']):g} ms")
    md = os.path.join(os.path.dirname(os.path.abspath(path)), "apps.md")
    for tag, ps in dropped_pairs(md).items():
        if tag not in skip:
            lines.append(f"# bench-apps: replayed {tag}: pairs dropped {' '.join(ps)}")
    run = None
    for part, tag, memcg, rnd, setting, pair in order:
        r = runs.get(tag, "unrecorded")
        if r != run:
            lines.append(f"# bench-apps: run={r}")
            run = r
        kv = " ".join(f"{k}={v}" for k, v in groups[(part, tag, memcg, rnd, setting, pair)])
        if part == "agent":
            settle = 1 if int(rnd) < 1 else 0
            lines.append(f"AGENT tag={tag} caps={setting} pair={pair} round={rnd} settle={settle} "
                         f"memcg={memcg} {kv}")
        elif part == "agent-job":
            lines.append(f"AGENT-JOB tag={tag} caps={setting} pair={pair} job={memcg} {kv}")
        elif part == "app":
            lines.append(f"APP tag={tag} caps={setting} pair={pair} {kv}")
        else:
            raise SystemExit(f"apps-replay: {path}: unknown part '{part}'")
    return lines


def logged_tags(paths):
    """The WORKLOAD/POLICY tags of bench-apps lines in these logs, as
    bench-report.py reads them."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "bench_report", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-report.py"))
    br = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(br)
    _, _, _, agent = br.read_logs(paths)
    return {d["tag"] for d in agent + br.APP_LINES if "/" in d.get("tag", "")}


def main(argv):
    if len(argv) < 2 or (len(argv) > 2 and argv[2] not in ("--except", "--except-logs")):
        print(__doc__, file=sys.stderr)
        return 2
    skip = set(argv[3:]) if argv[2:3] != ["--except-logs"] else logged_tags(argv[3:])
    if skip:
        print(f"apps-replay: left out, as the logs carry them: {' '.join(sorted(skip))}", file=sys.stderr)
    print("\n".join(replay(argv[1], skip)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
