#!/usr/bin/env python3
"""Turn the console logs of 'make bench' into bench.md, bench.csv,
summary.json (one object per target: its paired ratio and verdict),
bench.png (the paired ratios against their targets, and the leaf entries
visited) and bench-growth.png (how the cost grows), or print the headline
table of one log.

usage: bench-report.py DIR          (DIR holds the bench boots' *.log)
       bench-report.py --headline LOG

The guest prints one line per measurement:
  BENCH tag=.. scenario=S caps=0x0003|0x0007 side=off|on|a|b rep=R walk=W
        mib=M ms=.. visited=..
  RECLAIM caps=.. rep=.. kops_per_s=.. stime=.. pgscan=.. ...
  GUARD tag=haft|nohaft|cpu-nohaft (mmap-touch|gups|scenario=..) ...
  AGENT tag=.. caps=.. pair=P round=R settle=0|1 memcg=GROUP cpu_ms=.. visited=..
  AGENT-JOB tag=.. caps=.. pair=P job=J ops_per_s=..
  APP tag=WORKLOAD/POLICY caps=.. pair=P ops_per_s=.. p50_us=.. p99_us=..
(AGENT lines whose tag is WORKLOAD/POLICY are bench-apps', the real
applications, judged against APPS_BOUNDS.)
Every comparison is made pair by pair (the runs of one repetition, or the
boots of one round), and reported as the median ratio with its range,
next to the medians and ranges of the raw values. The tags of the
aging boots: none (the matrix), control (0x0003 on both sides, side a and
b), wallclock (timed by the host's clock, not icount), growth-size and
growth-cold (the cost growth sweeps).
"""
import csv
import functools
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

OFF, ON = "0x0003", "0x0007"
# aging boots that are not the matrix (bench-age's lab.bench_tag)
CONTROL, WALLCLOCK, GROWTH_SIZE, GROWTH_COLD = "control", "wallclock", "growth-size", "growth-cold"
NOT_MATRIX = (CONTROL, WALLCLOCK, GROWTH_SIZE, GROWTH_COLD)
KV = re.compile(r"(\w+)=(\S+)")
# order and wording of the aging rows
AGING = [
    ("seed-fs1", 2, "seed protocol, sleeping owner, force_scan=1 (debugfs default)"),
    ("seed-fs0", 2, "seed protocol, sleeping owner, force_scan=0"),
    ("running-owner", 1, "set built once, owner running, first walk"),
    ("running-owner", 2, "set built once, owner running, next walk"),
    ("cold-after-hot", 1, "cold after hot (first walk after the set went cold)"),
    ("steady-cold", 2, "steady cold (the walk after that)"),
    ("hot", 1, "fully hot (every page touched)"),
    ("hot10", 1, "10% hot (every 10th 2 MiB region touched)"),
    ("sparse", 1, "worst case (one page per 2 MiB region)"),
]


def fields(line, prefix):
    i = line.find(prefix + " ")
    if i < 0:
        return None
    rest = line[i + len(prefix) + 1:].strip()
    d = dict(KV.findall(rest))
    d["_kind"] = rest.split()[1] if rest.startswith("tag=") and len(rest.split()) > 1 else ""
    return d


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def med(xs):
    return statistics.median(xs) if xs else None


def fmt(x, digits=1):
    if x is None:
        return "–"
    if abs(x) >= 1000 and float(x).is_integer():
        return f"{int(x):,}"
    if float(x).is_integer():
        return f"{int(x)}"
    return f"{x:.{digits}f}"


def spread(xs, digits=1):
    if not xs:
        return "–"
    m, lo, hi = med(xs), min(xs), max(xs)
    if lo == hi:
        return fmt(m, digits)
    return f"{fmt(m, digits)} ({fmt(lo, digits)}..{fmt(hi, digits)})"


def ratio(pairs, digits=3):
    """((median, min, max) of the ratios b/a, text), or (None, '–')."""
    r = [b / a for a, b in pairs if a and b is not None]
    if not r:
        return None, "–"
    return (med(r), min(r), max(r)), f"{med(r):.{digits}f} ({min(r):.{digits}f}..{max(r):.{digits}f})"


def aa_arm(d):
    """An A/A control's line (bench-apps lab.apps=NAME:aa3|aa7, arm=A|B, both
    phases one setting): its first phase takes 0x0003's place and its
    second 0x0007's, so that the same code pairs them and its 'on/off'
    ratios are the A/A spread. The setting stays in 'setting'."""
    if d.get("arm") in ("A", "B"):
        d["setting"] = d.get("caps")
        d["caps"] = OFF if d["arm"] == "A" else ON


def read_logs(paths):
    bench, reclaim, guard, agent = [], [], [], []
    global APP_LINES
    for p in paths:
        x86 = False
        # the boot a line came from: bench-apps' '# bench-apps: run=ID'
        # (the boot_id's first 8 hex digits; a replayed apps.csv's run
        # column), else the log itself, one boot each
        run = "log:" + os.path.basename(p)
        with open(p, errors="replace") as f:
            for line in f:
                line = line.rstrip("\r\n")
                m = re.search(r"# bench-apps: run=(\S+)$", line)
                if m:
                    run = m.group(1)
                # bench-apps on Debian's amd64 kernel: its tags get "x86-"
                if re.search(r"LAB: booted \S*(amd64|x86_64)", line):
                    x86 = True
                if x86 and "tag=" in line and "bench-apps" not in line:
                    line = re.sub(r"tag=([a-z0-9@-]+/)", r"tag=x86-\1", line)
                if "BENCH-ERROR" in line:
                    print(f"{p}: {line}", file=sys.stderr)
                d = fields(line, "BENCH")
                if d and "scenario" in d:
                    bench.append(d)
                    continue
                d = fields(line, "RECLAIM")
                if d and "kops_per_s" in d:
                    reclaim.append(d)
                    continue
                d = fields(line, "AGENT")
                if d and "cpu_ms" in d:
                    aa_arm(d)
                    d["_part"] = "agent"
                    d["_run"] = run
                    agent.append(d)
                    continue
                m = re.search(r"# bench-apps: (\S+), (\d+) MiB, .* rounds of (\d+) ms", line)
                if m:
                    APPS_INTERVAL[("x86-" if x86 else "") + m.group(1)] = float(m.group(3))
                    APPS_MIB[("x86-" if x86 else "") + m.group(1)] = float(m.group(2))
                m = re.search(r"# bench-apps: replayed (\S+/\S+): pairs dropped ([\d ]+)$", line)
                if m:
                    REPLAYED_DROPS[m.group(1)] = {int(x) for x in m.group(2).split()}
                d = fields(line, "APP")
                if d and "ops_per_s" in d and "/" in d.get("tag", ""):
                    aa_arm(d)
                    d["_run"] = run
                    APP_LINES.append(d)
                    continue
                d = fields(line, "AGENT-JOB")
                if d and "ops_per_s" in d:
                    aa_arm(d)
                    d["_part"] = "agent-job"
                    d["_run"] = run
                    agent.append(d)
                    continue
                d = fields(line, "GUARD")
                if d:
                    m = re.search(r"GUARD tag=\S+ (mmap-touch|gups) ", line)
                    d["what"] = m.group(1) if m else d.get("scenario", "")
                    guard.append(d)
    return bench, reclaim, guard, agent


def read_csv(path):
    """The measurements of a bench.csv (write_csv's output), in the shape
    read_logs gives them, so that published figures are computed from the
    committed samples (scripts/results.py)."""
    groups = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            part = row["part"]
            if part == "aging":
                key = (part, row["tag"], row["scenario"], row["walk"], row["setting"], row.get("side"),
                       row.get("mib"), row["rep"])
                d = groups.setdefault(key, {"tag": row["tag"], "scenario": row["scenario"],
                                            "walk": row["walk"], "caps": row["setting"], "rep": row["rep"]})
                for k in ("side", "mib"):
                    if row.get(k):
                        d[k] = row[k]
            elif part == "reclaim":
                key = (part, row["setting"], row["rep"])
                d = groups.setdefault(key, {"caps": row["setting"], "rep": row["rep"]})
            elif part in ("agent", "agent-job"):
                # scenario is the memcg group (or the job), walk the round,
                # rep the pair (write_csv)
                job = part == "agent-job"
                key = (part, row["tag"], row["scenario"], row["walk"], row["setting"], row["rep"])
                d = groups.setdefault(key, {"_part": part, "tag": row["tag"], "caps": row["setting"],
                                            "pair": row["rep"], ("job" if job else "memcg"): row["scenario"]})
                if not job:
                    d["round"] = row["walk"]
                    d["settle"] = "1" if int(row["walk"]) < 1 else "0"
            else:
                key = (part, row["tag"], row["scenario"], row["walk"], row["setting"], row["rep"])
                d = groups.setdefault(key, {"tag": row["tag"], "what": row["scenario"],
                                            "walk": row["walk"], "caps": row["setting"]})
            d[row["metric"]] = row["value"]
    bench = [d for k, d in groups.items() if k[0] == "aging"]
    reclaim = [d for k, d in groups.items() if k[0] == "reclaim"]
    guard = [d for k, d in groups.items() if k[0] == "guard"]
    agent = [d for k, d in groups.items() if k[0] in ("agent", "agent-job")]
    return bench, reclaim, guard, agent


def aging_rows(bench):
    """(label, visited off/on, young, youngest, ms off/on, pairs) per row."""
    rows = []
    bench = [d for d in bench if d.get("tag") not in NOT_MATRIX]
    for scen, walk, label in AGING:
        by = {OFF: {}, ON: {}}
        for d in bench:
            if d["scenario"] == scen and int(d["walk"]) == walk and d["caps"] in by:
                by[d["caps"]][int(d["rep"])] = d
        if not by[OFF] and not by[ON]:
            continue
        reps = sorted(set(by[OFF]) & set(by[ON]))
        pairs = [(float(by[OFF][r]["ms"]), float(by[ON][r]["ms"])) for r in reps]
        rows.append((scen, walk, label, by, pairs))
    return rows


def col(by, caps, key):
    return [float(d[key]) for d in by[caps].values()]


def aging_table(bench, out):
    rows = aging_rows(bench)
    if not rows:
        return {}
    out.append("| scenario | leaf entries visited, off / on | found young, off / on | "
               "walk ms, off | walk ms, on | on/off time, paired | saved |")
    out.append("|---|---|---|---|---|---|---|")
    summary = {}
    for scen, walk, label, by, pairs in rows:
        r, rs = ratio(pairs)
        saved = f"{100 * (1 - r[0]):.1f}%" if r is not None else "–"
        vo, vn = col(by, OFF, "visited"), col(by, ON, "visited")
        yo, yn = col(by, OFF, "young"), col(by, ON, "young")
        out.append(f"| {label} | {spread(vo, 0)} / {spread(vn, 0)} | {spread(yo, 0)} / {spread(yn, 0)} | "
                   f"{spread(col(by, OFF, 'ms'), 2)} | {spread(col(by, ON, 'ms'), 2)} | {rs} | {saved} |")
        summary[(scen, walk)] = (r, med(vo), med(vn), len(pairs))
    out.append(f"\n{max(len(p) for *_, p in rows)} repetitions per row, 0x0003 and 0x0007 "
               "alternated in one boot; ranges are min..max.")
    return summary


def reclaim_table(reclaim, out):
    by = {OFF: {}, ON: {}}
    for d in reclaim:
        if d["caps"] in by:
            by[d["caps"]][int(d["rep"])] = d
    if not by[OFF]:
        return {}
    keys = [("kops_per_s", "throughput, k accesses/s", 1), ("stime", "job system time, s", 2),
            ("utime", "job user time, s", 2), ("kswapd_s", "kswapd0 CPU, s", 2),
            ("agings", "aging passes (new generations)", 0),
            ("last_walk_visited", "leaf entries visited by the last aging walk", 0),
            ("last_walk_young", "found young by the last aging walk", 0),
            ("pgscan", "pages scanned", 0),
            ("pgsteal", "pages reclaimed", 0), ("refault_anon", "anon refaults", 0),
            ("pswpout", "pages swapped out", 0), ("majflt", "major faults", 0)]
    reps = sorted(set(by[OFF]) & set(by[ON]))
    out.append("| metric | off (0x0003) | on (0x0007) | on/off, paired |")
    out.append("|---|---|---|---|")
    summary = {}
    for k, label, dg in keys:
        vo = [float(d[k]) for d in by[OFF].values() if k in d]
        vn = [float(d[k]) for d in by[ON].values() if k in d]
        if not vo and not vn:
            continue
        r, rs = ratio([(float(by[OFF][i][k]), float(by[ON][i][k])) for i in reps
                       if k in by[OFF][i] and k in by[ON][i]])
        summary[k] = r
        out.append(f"| {label} | {spread(vo, dg)} | {spread(vn, dg) if vn else '–'} | {rs} |")
    d0 = next(iter(by[OFF].values()))
    out.append(f"\n{len(reps)} repetitions of {fmt(num(d0.get('seconds')), 0)} s each, "
               f"{d0.get('set_mib')} MiB of data, hot window {d0.get('window_mib')} MiB, "
               "0x0003 and 0x0007 alternated in one boot.")
    return summary


def guard_table(guard, out):
    metric = {"mmap-touch": ("mmap/touch/munmap loop, s", "seconds"),
              "gups": ("GUPS loop, s", "seconds"),
              "hot": ("aging walk, fully hot, 0x0003, ms", "ms"),
              "sparse": ("aging walk, one page per 2 MiB, 0x0003, ms", "ms")}
    # round number: boots are named guard-TAG-N; lines carry only the tag,
    # so the n-th line of a tag and metric is round n
    seen = {}
    vals = {}
    for d in guard:
        w, tag = d["what"], d.get("tag")
        if w not in metric:
            continue
        n = seen.get((w, tag), 0) + 1
        seen[(w, tag)] = n
        vals.setdefault(w, {}).setdefault(tag, {})[n] = float(d[metric[w][1]])
    if not vals:
        return {}
    out.append("| metric | HAFT in use | HAFT off (arm64.nohaft) | CPU without HAFT | "
               "in use / off, paired | in use / no-HAFT CPU, paired |")
    out.append("|---|---|---|---|---|---|")
    summary = {}
    for w, (label, _) in metric.items():
        v = vals.get(w, {})
        a, b, c = v.get("haft", {}), v.get("nohaft", {}), v.get("cpu-nohaft", {})
        r1, s1 = ratio([(b[i], a[i]) for i in sorted(set(a) & set(b))])
        r2, s2 = ratio([(c[i], a[i]) for i in sorted(set(a) & set(c))])
        summary[w] = (r1, r2)
        out.append(f"| {label} | {spread(list(a.values()), 3)} | {spread(list(b.values()), 3)} | "
                   f"{spread(list(c.values()), 3)} | {s1} | {s2} |")
    n = max((len(t) for x in vals.values() for t in x.values()), default=0)
    out.append(f"\n{n} rounds of three boots, in the order HAFT in use, arm64.nohaft, "
               "CPU model without HAFT (-cpu max,haft=off); a ratio above 1 means slower with HAFT in use.")
    return summary


def paired_walks(bench, tag, scen, walk, sides, mib=None):
    """{side: {rep: line}} of one tag's walks of @scen (walk @walk), and
    the paired (side 0, side 1) (ms, visited) of each repetition."""
    by = {s: {} for s in sides}
    for d in bench:
        if (d.get("tag") == tag and d["scenario"] == scen and int(d["walk"]) == walk
                and d.get("side") in by and (mib is None or int(d.get("mib", 0)) == mib)):
            by[d["side"]][int(d["rep"])] = d
    reps = sorted(set(by[sides[0]]) & set(by[sides[1]]))
    pairs = [(by[sides[0]][r], by[sides[1]][r]) for r in reps]
    return by, pairs


def control_table(bench, out):
    """The same-versus-same control: 0x0003 on both sides (a, b). Returns
    the paired ratios b/a of every walk, or None."""
    rows, allr = [], []
    for scen, walk, label in AGING:
        by, pairs = paired_walks(bench, CONTROL, scen, walk, ("a", "b"))
        if not pairs:
            continue
        r = [float(b["ms"]) / float(a["ms"]) for a, b in pairs if float(a["ms"])]
        allr += r
        rows.append(f"| {label} | {spread(col_side(by, 'a', 'ms'), 3)} | {spread(col_side(by, 'b', 'ms'), 3)} | "
                    f"{med(r):.4f} ({min(r):.4f}..{max(r):.4f}) | {100 * max(abs(x - 1) for x in r):.3f}% |")
    if not rows:
        return None
    out.append("| scenario | walk ms, side a (0x0003) | walk ms, side b (0x0003) | b/a, paired | "
               "largest departure from 1 |")
    out.append("|---|---|---|---|---|")
    out.extend(rows)
    out.append(f"\nBoth sides 0x0003, alternated as the matrix alternates 0x0003 and 0x0007; "
               f"{len(allr)} pairs in all. Under icount a walk's time is the instructions the guest "
               "executed (1 ns each), so a same-versus-same pair differs only by what the kernel did "
               "differently, not by the host.")
    return allr


def col_side(by, side, key):
    return [float(d[key]) for d in by[side].values()]


def wallclock_table(bench, out):
    """The cold walks timed by the host's clock (no icount): (ratio, text)."""
    res = {}
    rows = []
    for scen, walk, label in AGING:
        by, pairs = paired_walks(bench, WALLCLOCK, scen, walk, ("off", "on"))
        if not pairs:
            continue
        r, rs = ratio([(float(a["ms"]), float(b["ms"])) for a, b in pairs])
        res[(scen, walk)] = r
        rows.append(f"| {label} | {spread(col_side(by, 'off', 'ms'), 2)} | {spread(col_side(by, 'on', 'ms'), 2)} | {rs} |")
    if rows:
        out.append("| scenario | walk ms, off | walk ms, on | on/off, paired |")
        out.append("|---|---|---|---|")
        out.extend(rows)
        out.append("\nThe same walks timed by the host's clock (TCG without icount): emulated time, "
                   "noisy, only its direction counts.")
    return res


GROWTH_SCEN = [("hot", 1, "fully hot"), ("cold-after-hot", 1, "cold after hot"),
               ("steady-cold", 2, "steady cold")]


def growth_points(bench):
    """[(what, x, scen label, {side: (median ms, median visited)}, paired ratio)]
    for the size sweep (x: MiB) and the cold-share sweep (x: % cold)."""
    pts = []
    sizes = sorted({int(d["mib"]) for d in bench if d.get("tag") == GROWTH_SIZE and d.get("mib")})
    for mib in sizes:
        for scen, walk, label in GROWTH_SCEN:
            by, pairs = paired_walks(bench, GROWTH_SIZE, scen, walk, ("off", "on"), mib)
            if pairs:
                pts.append(("size", mib, label, growth_medians(by), ratio_of(pairs)))
    for pct in range(0, 101, 5):
        by, pairs = paired_walks(bench, GROWTH_COLD, f"cold{pct}", 1, ("off", "on"))
        if pairs:
            pts.append(("cold", pct, "the walk after", growth_medians(by), ratio_of(pairs)))
    return pts


def growth_medians(by):
    return {s: (med(col_side(by, s, "ms")), med(col_side(by, s, "visited"))) for s in by if by[s]}


def ratio_of(pairs):
    return ratio([(float(a["ms"]), float(b["ms"])) for a, b in pairs])[0]


def growth_table(bench, out):
    pts = growth_points(bench)
    if not pts:
        return pts
    for what, head, note in (
            ("size", "| mapped set, MiB | walk | ms, 0x0003 | ms, 0x0007 | on/off | leaf entries, 0x0003 | "
                     "leaf entries, 0x0007 | ms per GiB, 0x0003 | ms per GiB, 0x0007 |",
             "Sets of 4 KiB pages, each size its own agebench run; medians of the repetitions."),
            ("cold", "| tables gone cold since the last walk | walk | ms, 0x0003 | ms, 0x0007 | on/off | "
                     "leaf entries, 0x0003 | leaf entries, 0x0007 |",
             "A 1 GiB set found all young by the last walk; then the given share of its 512 PTE "
             "tables, spread evenly, stayed cold and the rest were touched whole.")):
        rows = [p for p in pts if p[0] == what]
        if not rows:
            continue
        out.append(head)
        out.append("|---" * (head.count("|") - 1) + "|")
        for _, x, label, m, r in rows:
            off, on = m.get("off", (None, None)), m.get("on", (None, None))
            per = ""
            if what == "size":
                per = (f" {fmt(off[0] * 1024 / x, 2)} | {fmt(on[0] * 1024 / x, 2)} |" if off[0] and on[0]
                       else " – | – |")
            xs = f"{x:,}" if what == "size" else f"{x}%"
            out.append(f"| {xs} | {label} | {fmt(off[0], 3)} | {fmt(on[0], 3)} | "
                       f"{f'{r[0]:.3f}' if r else '–'} | {fmt(off[1], 0)} | {fmt(on[1], 0)} |{per}")
        out.append("\n" + note + "\n")
    return pts


def target(name, label, r, bound, holds, unit="ratio", exercised=True, why=None):
    """One target of summary.json: the paired ratio's median, low and high
    against its bound. met: every pair on the right side of the bound;
    missed: every pair on the wrong side; unresolved: pairs on both sides
    (or no pairs); not exercised: the phases did not do what the target
    names (exercised=False: no walk, no reclaim), whatever the ratios say,
    so a target that could not fail is never met; why: a reason the
    comparison cannot be judged (the phases alias the workload's cycle),
    which leaves it unresolved."""
    t = {"name": name, "label": label, "median": None, "low": None, "high": None, "bound": bound,
         "holds": holds, "unit": unit, "verdict": "unresolved"}
    if r is not None and r[0] is not None:
        m, lo, hi = r
        t.update(median=round(m, 6), low=round(lo, 6), high=round(hi, 6))
    if not exercised:
        t["verdict"] = "not exercised"
        return t
    if why:
        t["why"] = why
        return t
    if r is None or r[0] is None:
        return t
    m, lo, hi = r
    if holds == "<=":
        ok_all, bad_all = hi <= bound, lo > bound
    elif holds == ">=":
        ok_all, bad_all = lo >= bound, hi < bound
    elif holds == "<":
        ok_all, bad_all = hi < bound, lo >= bound
    else:  # "|r-1|<=": every ratio within bound of 1
        dev_hi, dev_lo = max(abs(hi - 1), abs(lo - 1)), min(abs(x - 1) for x in (lo, hi, m))
        ok_all, bad_all = dev_hi <= bound, dev_lo > bound
    t["verdict"] = "met" if ok_all else ("missed" if bad_all else "unresolved")
    return t


def summary_targets(bench, age, rec, grd, ctl, wall):
    """Every target, resolved against its bound, for summary.json and the
    table of bench.md (and, through summary.json, the README and the
    cover letter)."""
    ts = []
    if ctl:
        ts.append(target("control", "control: 0x0003 against 0x0003, every paired walk-time ratio "
                         "within 0.5% of 1", (med(ctl), min(ctl), max(ctl)), 0.005, "|r-1|<="))
    c = age.get(("cold-after-hot", 1))
    if c and c[0] is not None:
        ts.append(target("cold-time", "cold after hot: aging-walk time saved at least 90% (on/off at most 0.10)",
                         c[0], 0.10, "<="))
        _, pairs = paired_walks(bench, "none", "cold-after-hot", 1, ("off", "on"))
        vis = ratio([(float(a["visited"]), float(b["visited"])) for a, b in pairs])[0]
        ts.append(target("cold-visited", "cold after hot: at least 99% fewer leaf entries visited "
                         "(on/off at most 0.01)", vis, 0.01, "<=", "ratio of leaf entries"))
    w = wall.get(("cold-after-hot", 1)) if wall else None
    if w is not None:
        ts.append(target("cold-direction", "cold after hot timed by the host's clock (no icount): "
                         "0x0007 faster too (on/off below 1)", w, 1.0, "<"))
    for scen, name, label in (("hot", "hot", "fully hot walk no more than 3% slower with 0x0007"),
                              ("sparse", "worst-case", "worst-case walk (one page per 2 MiB) no more "
                               "than 3% slower with 0x0007")):
        a = age.get((scen, 1))
        ts.append(target(name, label, a[0] if a else None, 1.03, "<="))
    v = grd.get("mmap-touch")
    ts.append(target("mmap-touch", "mmap/touch/munmap loop with HAFT in use no more than 3% slower "
                     "than with arm64.nohaft", v[0] if v else None, 1.03, "<="))
    st, kops = rec.get("stime"), rec.get("kops_per_s")
    if st or kops:
        ts.append(target("reclaim-stime", "memcg-limited job swapping to zram: system time lower with "
                         "0x0007 (on/off below 1)", st, 1.0, "<"))
        ts.append(target("reclaim-throughput", "memcg-limited job swapping to zram: throughput no "
                         "worse than 3% (on/off at least 0.97)", kops, 0.97, ">="))
    return ts


HOLDS = {"<=": "≤ {b:g}", ">=": "≥ {b:g}", "<": "< {b:g}", "|r-1|<=": "1 ± {b:g}"}


def targets_md(ts, out):
    if not ts:
        return
    out.append("\n## Targets\n")
    out.append("| target | paired ratio, median (low..high) | bound | verdict |")
    out.append("|---|---|---|---|")
    for t in ts:
        r = "–" if t["median"] is None else f"{t['median']:.4f} ({t['low']:.4f}..{t['high']:.4f})"
        word = t["verdict"] if t["verdict"] == "met" else f"**{t['verdict']}**"
        out.append(f"| {t['label']} | {r} | {HOLDS[t['holds']].format(b=t['bound'])} | {word} |")
    out.append("\nmet: every pair on the right side of the bound; missed: every pair on the wrong "
               "side; unresolved: pairs on both sides. GUPS is not a target: under icount it counts "
               "the guest's instructions, which HAFT does not change (the table of the guards shows "
               "it equal on every boot); the memory and TLB costs it was meant to expose are not "
               "modelled by the emulator.")


def write_summary(path, ts, pts, apps=()):
    doc = {"targets": [{k: t[k] for k in ("name", "label", "median", "low", "high", "bound", "holds",
                                          "verdict", "aa") if k in t} for t in ts],
           "growth": [{"sweep": w, "x": x, "walk": label,
                       "ms_off": m.get("off", (None, None))[0], "ms_on": m.get("on", (None, None))[0],
                       "visited_off": m.get("off", (None, None))[1], "visited_on": m.get("on", (None, None))[1],
                       "ratio": r[0] if r else None} for w, x, label, m, r in pts]}
    if apps:
        doc["apps"] = list(apps)
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def write_csv(path, bench, reclaim, guard, agent=()):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["part", "tag", "scenario", "walk", "setting", "side", "mib", "rep", "metric", "value"])
        for d in bench:
            for k in ("ms", "visited", "young", "tables_found", "tables_added", "youngest"):
                w.writerow(["aging", d.get("tag"), d["scenario"], d["walk"], d["caps"], d.get("side", ""),
                            d.get("mib", ""), d["rep"], k, d.get(k)])
        for d in reclaim:
            for k, v in d.items():
                if k not in ("caps", "rep", "check", "_kind") and num(v) is not None:
                    w.writerow(["reclaim", "", "reclaim-job", "", d["caps"], "", "", d["rep"], k, v])
        n = {}
        for d in guard:
            key = (d["what"], d.get("tag"))
            n[key] = n.get(key, 0) + 1
            for k in ("seconds", "mups", "ms", "visited"):
                if k in d:
                    w.writerow(["guard", d.get("tag"), d["what"], d.get("walk", ""), d.get("caps", ""),
                                "", d.get("mib", ""), n[key], k, d[k]])
        # the agent: scenario is the memcg group (or the job), walk the
        # round (settle rounds negative or 0), rep the pair
        for d in agent:
            job = d["_part"] == "agent-job"
            for k, v in d.items():
                if k not in AGENT_KEYS and not k.startswith("_") and num(v) is not None:
                    w.writerow([d["_part"], d.get("tag", ""), d["job"] if job else d["memcg"],
                                "" if job else d["round"], d["caps"], "", "", d["pair"], k, v])


AGENT_KEYS = ("tag", "caps", "pair", "round", "settle", "memcg", "job")
APP_LINES = []
APPS_STATS = []  # per WORKLOAD/POLICY, for summary.json's "apps"
APPS_INTERVAL = {}  # the aging interval of each workload, ms (its '# bench-apps:' line)
APPS_MIB = {}  # and its data's size, MiB
# the pairs a published run dropped, for a tag replayed from its apps.csv
# (scripts/apps-replay.py: the per-memcg lines the rule reads are not in it)
REPLAYED_DROPS = {}


def base_workload(wl):
    """A tag's workload without the x86- prefix and the @LABEL of a row
    that ran it at another size or interval (bench-apps lab.apps_label)."""
    return wl.removeprefix("x86-").split("@", 1)[0]
# The real applications (guest/tests/bench-apps), each workload's bound as
# stated before it was measured (the commit that added this table came
# before the first bench/apps-* boot). "pays": with the working-set
# estimator (policy wss, force_scan=0) the aging CPU is at least 30% lower
# with 0x0007; "neutral": no more than 1% higher. Every other policy is held
# to "neutral" (force_scan=1 bypasses the non-leaf test; reclaim-driven aging
# walks only when reclaim needs a generation). Every workload and policy:
# the program's throughput no more than 1% lower.
APPS_PAYS, APPS_NEUTRAL = 0.70, 1.01
APPS_BOUNDS = {
    "redis-recent": ("neutral", "the hot window moves by the inserts of one interval, a few tables; "
                     "eviction frees old keys that new ones reuse, so cold memory is scattered"),
    "redis-zipf": ("neutral", "the control: a static popular set, nothing goes cold between walks"),
    "memcached": ("neutral", "the LRU crawler reads item headers all over the slabs"),
    "memcached-nocrawl": ("neutral", "a static popular set, as redis-zipf"),
    "pgbench": ("pays", "the hot range (2% of the accounts) moves 1% a second: half of what each "
                "backend's walk carried in its Bloom filter has gone cold by the next walk"),
    "jvm-short": ("neutral", "young collections sweep the eden many times an interval: all of it is young"),
    "jvm-long": ("pays", "the eden is filled over about 4 intervals: what was filled in one interval "
                 "is left alone in the next"),
    "client": ("neutral", "the foreground set is static; a background instance that woke is walked whole"),
}
# Stated on 2026-12-03, before any run measured it: the p99 latency from
# when each request was due (kvload -r, pgbench -R) no more than 10%
# higher with 0x0007, paired. It replaces the fixed-rate throughput
# targets, which could not fail while the program kept up with the rate.
APPS_P99 = 1.10
AA = re.compile(r"-aa[37]$")  # an A/A control's policy suffix (bench-apps lab.apps=NAME:aa3|aa7)
# A workload whose walks repeat with a period of P walks (the generations
# the agent makes and evicts: redis-recent's leaf entries cycled 12,236 /
# 18,161 / 27,979 under both settings) is compared only over a whole number
# of its cycles: a phase's measured rounds must be a multiple of P, or the
# two settings land on different positions of the cycle (aliasing). P is
# the first lag from 2 at which the walk series' autocorrelation is at least
# PERIOD_AC and a local maximum; none such, no cycle.
PERIOD_AC = 0.5
PERIOD_LAGS = 8


def autocorr(x, k):
    """The lag-k autocorrelation of the series x (0 when it is constant)."""
    if len(x) <= k:
        return None
    m = sum(x) / len(x)
    v = sum((a - m) ** 2 for a in x)
    return sum((x[i] - m) * (x[i + k] - m) for i in range(len(x) - k)) / v if v else 0.0


def walk_period(series):
    """(period or None, [autocorrelation at lags 1..PERIOD_LAGS]) of one
    tag's walk series (leaf entries of every round, settle rounds included,
    in the order they ran). A cycle repeats: P counts only where 2P is
    within the lags and its autocorrelation is at least half PERIOD_AC
    (jvm-long's first A/A control read 0.51 at lag 7 alone, in 48 walks)."""
    ac = [autocorr(series, k) for k in range(1, PERIOD_LAGS + 1)]
    for k in range(2, PERIOD_LAGS // 2 + 1):
        a, prev, nxt, twice = ac[k - 1], ac[k - 2], ac[k], ac[2 * k - 1]
        if (a is not None and a >= PERIOD_AC and a >= prev and a >= nxt
                and twice is not None and twice >= PERIOD_AC / 2):
            return k, ac
    return None, ac


def aa_clears(t):
    """One more clause of the verdict rule where an A/A control stood beside
    the target: a verdict that says 0x0007 made a difference (met below a
    bound under 1, missed above a bound of 1 or more; the mirror for '>=')
    stands only when no A/A control, judged by the same bound, reads the
    same: else the path alone produces it and the target is unresolved."""
    if t["verdict"] not in ("met", "missed") or not t.get("aa"):
        return
    b, h = t["bound"], t["holds"]
    says_diff = ((h in ("<=", "<") and ((t["verdict"] == "met" and b < 1) or (t["verdict"] == "missed" and b >= 1)))
                 or (h == ">=" and ((t["verdict"] == "met" and b > 1) or (t["verdict"] == "missed" and b <= 1))))
    if not says_diff:
        return
    for name, r in t["aa"].items():
        if r is None:
            continue
        lo, hi = r
        if h == "<=":
            same = hi <= b if t["verdict"] == "met" else lo > b
        elif h == "<":
            same = hi < b if t["verdict"] == "met" else lo >= b
        else:
            same = lo >= b if t["verdict"] == "met" else hi < b
        if same:
            t["verdict"] = "unresolved"
            t["why"] = f"its A/A control {name} reads the same ({lo:.3f}..{hi:.3f})"
            return


AGENT_BOUND = 0.5   # the goal: aging CPU at least 50% lower with 0x0007
JOB_BOUND = 0.99    # and the jobs' throughput no more than 1% lower


GROWTH_PTS = []  # this run's growth points, when it had a growth sweep


@functools.cache
def model_coefficients():
    """The walk-cost model's coefficients (scripts/model.py), fitted to this
    run's growth sweep, else to the published results/summary.json's, or
    None; fitted once (GROWTH_PTS is set before the first call)."""
    import model
    growth = GROWTH_PTS
    if not growth:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", "summary.json")
        try:
            with open(path) as f:
                growth = json.load(f).get("growth", [])
        except (OSError, ValueError):
            return None
    return model.fit(growth)


def cost_per_work(co, v, on):
    """A phase's measured cost (the agent's instructions, as guest ms)
    over what the model predicts from its counters (the PMD entries found
    young: the tables entered): the cost of the work the walks did, which
    repeats where the work does not."""
    import model
    pred = model.predict_ms(co, v["n"], v["mapped_kib"] / model.TABLE_KIB, v["visited"], v["young"], on, v["found"])
    return v["inst"] / 1e6 / pred if pred > 0 else None


def cold_curve():
    """The growth-cold sweep's (share of tables gone cold, %, walk time
    on/off) points, from this run's growth logs or the published
    results/summary.json: the curve the applications are placed on."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", "summary.json")
    try:
        with open(path) as f:
            g = json.load(f).get("growth", [])
    except (OSError, ValueError):
        return []
    return sorted((p["x"], p["ratio"]) for p in g if p["sweep"] == "cold" and p["ratio"] is not None)


def on_curve(curve, x):
    """The curve's walk-time ratio at x % cold (linear between points)."""
    for (x0, r0), (x1, r1) in zip(curve, curve[1:]):
        if x0 <= x <= x1:
            return r0 + (r1 - r0) * (x - x0) / (x1 - x0)
    return None


def apps_section(agent, out):
    """The real applications: per WORKLOAD/POLICY tag, the aging CPU (the
    agent's aging commands, or the memory.reclaim writes), the walks'
    counters, the share of tables carried in the Bloom filter that went
    cold, the program's throughput and tail latency, 0x0003 vs 0x0007
    paired; the verdicts against APPS_BOUNDS. Returns summary targets."""
    tags = sorted({d.get("tag", "") for d in agent if "/" in d.get("tag", "")})
    if not tags:
        return []
    out.append("\n## Real applications: Debian's servers in memcgs, 0x0003 vs 0x0007\n")
    out.append("guest/tests/bench-apps: each server in its own memcg, THP off, driven by a load "
               "generator of stated locality (kvload, pgbench, a JVM allocating), aged by a policy: "
               "wss (age-agent, force_scan=0, evicting the oldest generation for room), wss-force "
               "(force_scan=1), senpai (memory.reclaim in steps while PSI is low), senpai-pub (senpai.py "
               "as published: memory.high, a 6 s interval of 1 s ticks, 10 ms of stall, 1% probes), memmax "
               "(memory.max at 85%: the kernel's own reclaim ages). Per tag, medians over the pairs "
               "(min..max): aging CPU ms per round (for senpai the memory.reclaim writes, for senpai-pub "
               "the memory.high writes, eviction "
               "included; for memmax not separable, so blank), its paired ratio on/off, ms per "
               "GiB-second mapped, its share of the one CPU; per walk: leaf entries visited, "
               "tables found in the Bloom filter; the thinned share, 1 - added/found of the 0x0003 "
               "walks (tables carried in whose walk found less than a young entry per cache line, "
               "so the filter drops them: the churn, of which 0x0007 can skip only the tables with "
               "no young entry at all); skipped, 1 - found on/found off (the carried tables 0x0007 "
               "left alone) and where that puts the run on the growth-cold sweep (the walk-time "
               "ratio of a 1 GiB set with that share of its tables gone cold: the saving the "
               "run could expect); the program's operations per second (paired ratio) and its p99 "
               "latency. The aging CPU is the agent thread's CPU time in the aging commands, one "
               "walk a phase: it scatters far more than the walks' counters, which repeat. Where the "
               "PMU counted them (under icount), the CPU targets compare the agent's retired "
               "instructions in the aging commands instead (summary.json's apps 'cost': inst), "
               "which the thread clock undercounts whenever another task was woken during a walk.")
    out.append("\n| workload/policy | bound | aging CPU ms/round, off / on | on/off, paired | "
               "ms per GiB-s, off | CPU share, off | visited/round, off / on | found/round, off / on | "
               "thinned | skipped | sweep at skipped | ops/s, off / on | on/off, paired | p99 us, off / on |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    curve = cold_curve()
    ts = []
    floors = {}  # "apps-WORKLOAD-POLICY": [(aa3|aa7, cpu spread, program spread)]
    apps = {}
    for d in APP_LINES:
        apps.setdefault(d["tag"], {}).setdefault(d["caps"], {})[int(d["pair"])] = d
    for tag in tags:
        wl, pol = tag.split("/", 1)
        groups, jobs = agent_phases(agent, tag)
        ph = groups.get("ALL")
        if not ph:
            continue
        kind = APPS_BOUNDS.get(base_workload(wl), ("neutral", ""))[0] if pol == "wss" else "neutral"
        if AA.search(pol):
            kind = "A/A"
        bound = APPS_PAYS if kind == "pays" else APPS_NEUTRAL
        design = phase_design(agent, tag, ph)
        pairs = sorted(set(ph.get(OFF, {})) & set(ph.get(ON, {})) - set(design["dropped"]))
        why = None
        if design["period"] and design["rounds"] % design["period"]:
            why = (f"its walks cycle every {design['period']} (autocorrelation "
                   f"{design['ac'][design['period'] - 1]:.2f}) and a phase measured {design['rounds']:g} "
                   f"round{'' if design['rounds'] == 1 else 's'}")
        DESIGN.append(design)
        # The aging cost: the agent thread's retired instructions (PMU) where
        # every round counted them, else its CPU clock. Under icount the
        # thread clock loses the time between a wakeup that asks for a
        # reschedule and the walk's next cond_resched() (docs/findings.md):
        # its A/A spread was 0.04..1.41 where the instructions repeat.
        use_inst = bool(pairs) and all(ph[c][p]["n_inst"] == ph[c][p]["rounds"] for c in (OFF, ON) for p in pairs)
        cost = "inst" if use_inst else "cpu_ms"
        cpu_pairs = [(ph[OFF][p][cost], ph[ON][p][cost]) for p in pairs]
        # the leaf entries visited, paired (the counters repeat exactly
        # for the same work: their A/A spread is the design's own)
        vr = ratio([(ph[OFF][p]["visited"], ph[ON][p]["visited"]) for p in pairs])[0]
        # and the cost of the same work: instructions over the model's
        # prediction from the counters, paired (an A/A control's aa7 runs
        # 0x0007 in both arms)
        co = model_coefficients() if use_inst else None
        wr = None
        if co:
            ons = {OFF: pol.endswith("-aa7"), ON: not pol.endswith("-aa3")}
            wr = ratio([(cost_per_work(co, ph[OFF][p], ons[OFF]), cost_per_work(co, ph[ON][p], ons[ON]))
                        for p in pairs])[0]
        design["work"] = wr
        r, rs = ratio(cpu_pairs) if pol != "memmax" else (None, "–")

        def pr(caps, key):
            return per_round(ph, caps, key)
        per_gibs = [v["cpu_ms"] / v["rounds"] / (v["mapped_kib"] / v["rounds"] / 2**20)
                    for v in ph.get(OFF, {}).values() if v["mapped_kib"]]
        cold = [1 - v["added"] / v["found"] for v in ph.get(OFF, {}).values() if v["found"]]
        a = apps.get(tag, {})
        tp = [(float(a[OFF][p]["ops_per_s"]), float(a[ON][p]["ops_per_s"]))
              for p in sorted(set(a.get(OFF, {})) & set(a.get(ON, {})) & set(pairs))]
        if not tp and len(jobs) == 1:
            # no APP lines (the JVM): the requests its counter published
            (j,) = jobs.values()
            tp = [(j[OFF][p], j[ON][p]) for p in sorted(set(j.get(OFF, {})) & set(j.get(ON, {})) & set(pairs))]
        tr, trs = ratio(tp)
        p99 = {c: [float(x["p99_us"]) for x in a.get(c, {}).values() if num(x.get("p99_us"))] for c in (OFF, ON)}
        intv = APPS_INTERVAL.get(wl, 1000)
        share = [x / intv for x in pr(OFF, "cpu_ms")]
        f_off, f_on = med(pr(OFF, "found")), med(pr(ON, "found"))
        # (a run cut short can leave a tag with one setting's phases only)
        skipped = 1 - f_on / f_off if f_off and f_on is not None else None
        sweep = on_curve(curve, min(100, max(0, 100 * skipped))) if skipped is not None and curve else None
        APPS_STATS.append({
            "tag": tag, "workload": wl, "policy": pol, "bound": kind, "pairs": len(pairs),
            "cpu_ms_round_off": med(pr(OFF, "cpu_ms")), "cpu_ms_round_on": med(pr(ON, "cpu_ms")),
            "cpu_ratio": r[0] if r else None, "cost": cost, "cpu_share_off": med(share),
            "inst_round_off": med(pr(OFF, "inst")) if use_inst else None,
            "inst_round_on": med(pr(ON, "inst")) if use_inst else None,
            "ms_per_gib_s_off": med([x / (intv / 1000) for x in per_gibs]),
            "visited_off": med(pr(OFF, "visited")), "visited_on": med(pr(ON, "visited")),
            "found_off": med(pr(OFF, "found")), "found_on": med(pr(ON, "found")),
            "walks_off": med(pr(OFF, "walks")), "walks_on": med(pr(ON, "walks")),
            "thinned_share": med(cold), "skipped_share": skipped, "sweep_ratio": sweep, "reclaimed_kib_round_off": med(pr(OFF, "reclaimed_kib")),
            "reclaimed_kib_round_on": med(pr(ON, "reclaimed_kib")),
            "ops_off": med([x for x, _ in tp]), "ops_on": med([y for _, y in tp]),
            "ops_ratio": tr[0] if tr else None,
            "p99_us_off": med(p99[OFF]), "p99_us_on": med(p99[ON]),
            "visited_paired": None if not vr else [round(x, 4) for x in vr],
            "cost_paired": None if not r else [round(x, 4) for x in r],
            "cost_per_work_paired": None if not wr else [round(x, 4) for x in wr],
            "rounds": design["rounds"], "period": design["period"],
            "autocorr": [None if a is None else round(a, 3) for a in design["ac"]],
            "order": design["order"], "dropped_pairs": design["dropped"],
            "mib": APPS_MIB.get(wl), "interval_ms": intv,
            "mapped_mib_off": None if not pr(OFF, "mapped_kib") else round(med(pr(OFF, "mapped_kib")) / 1024, 1),
            "runs": design["runs"],
            # the boot the row ran in: a row and its A/A control with the
            # same value ran in one boot
            "boot": "+".join(design["runs"]) or "unrecorded"})
        out.append(f"| {tag} | {kind} | {spread(pr(OFF, 'cpu_ms'), 2)} / {spread(pr(ON, 'cpu_ms'), 2)} | {rs} | "
                   f"{spread([x / (intv / 1000) for x in per_gibs], 2)} | "
                   f"{spread([100 * x for x in share], 2)}% | "
                   f"{spread(pr(OFF, 'visited'), 0)} / {spread(pr(ON, 'visited'), 0)} | "
                   f"{spread(pr(OFF, 'found'), 0)} / {spread(pr(ON, 'found'), 0)} | "
                   f"{spread([100 * x for x in cold], 1)}% | "
                   f"{'–' if skipped is None else f'{100 * skipped:.0f}%'} | "
                   f"{'–' if sweep is None else f'{sweep:.2f}'} | "
                   f"{spread([x for x, _ in tp], 0)} / {spread([y for _, y in tp], 0)} | {trs} | "
                   f"{spread(p99[OFF], 0)} / {spread(p99[ON], 0)} |")
        # What the phases did: a target about aging is exercised only when
        # every measured phase walked, one about the program only when
        # every phase walked or reclaimed; otherwise its ratios compare
        # phases that did nothing and it is "not exercised", never met
        # (redis-zipf/memmax made no walk and reclaimed nothing in all 40
        # phases, and its throughput target read "met").
        phases = [v for c in (OFF, ON) for v in ph.get(c, {}).values()]
        walked = bool(phases) and all(v["walks"] > 0 for v in phases)
        touched = bool(phases) and all(v["walks"] > 0 or v["reclaimed_kib"] > 0 for v in phases)
        lp = [(float(a[OFF][p]["p99_us"]), float(a[ON][p]["p99_us"]))
              for p in sorted(set(a.get(OFF, {})) & set(a.get(ON, {})) & set(pairs))
              if num(a[OFF][p].get("p99_us")) and num(a[ON][p].get("p99_us"))]
        aa = AA.search(pol)
        if aa:
            # an A/A control: no target of its own; its spreads are the
            # floor printed beside the targets of the policy it controls
            floors.setdefault(f"apps-{wl}-{pol[:aa.start()]}", []).append(
                (aa.group(0)[1:], r, ratio(lp)[0] if lp else None, tr))
            continue
        if pol != "memmax":
            word = "at least 30% lower" if kind == "pays" else "no more than 1% higher"
            # One rule for every target (target()): met only when every
            # pair is on the right side of the bound.
            what = "aging cost (the agent's retired instructions)" if use_inst else "aging CPU (thread clock)"
            t = target(f"apps-{wl}-{pol}-cpu", f"{tag}: {what} {word} with 0x0007 (stated before "
                       f"measuring: {kind}), {len(pairs)} pairs", r, bound, "<=", exercised=walked, why=why)
            ts.append(t)
        # The load is offered at a fixed rate, about a third of what the
        # servers manage: their throughput follows the rate unless they fall
        # behind, so it is shown (the table) but is not a target. What a
        # stall costs shows in the latency counted from when each request
        # was due (kvload -r, pgbench -R): the p99, paired, is the target.
        # The JVM has no latency: its published request count stays a
        # target there, as the one program measure it has.
        # A saturated run (bench-apps NAME:sat, policy POLICY-sat) offers
        # no rate: there the throughput is what aging can cost.
        if (any(p99[OFF]) or any(p99[ON])) and not pol.endswith("-sat"):
            tt = target(f"apps-{wl}-{pol}-p99", f"{tag}: the program's p99 latency, from when each "
                        f"request was due, no more than {100 * (APPS_P99 - 1):.0f}% higher with 0x0007, "
                        f"{len(lp)} pairs", ratio(lp)[0], APPS_P99, "<=", exercised=touched, why=why)
        else:
            tt = target(f"apps-{wl}-{pol}-throughput", f"{tag}: the program's throughput"
                        f"{', saturated,' if pol.endswith('-sat') else ''} no more than 1% "
                        f"lower with 0x0007, {len(tp)} pairs", tr, JOB_BOUND, ">=", exercised=touched, why=why)
        ts.append(tt)
    out.append("\nBounds, stated before measuring (scripts/bench-report.py, APPS_BOUNDS):\n")
    for wl, (kind, why) in APPS_BOUNDS.items():
        out.append(f"- {wl}: {kind} with wss ({why})")
    out.append("\n### Real-application targets\n")
    out.append("Beside each, where the run had one, its A/A control (lab.apps=NAME:aa3 or NAME:aa7: both phases "
               "of every pair one setting, through the same path): the range of its paired ratios, "
               "the floor an on/off range must clear.\n")
    for t in ts:
        rng = "–" if t["median"] is None else f"{t['median']:.3f} ({t['low']:.3f}..{t['high']:.3f})"
        fl = []
        # a target's name is its workload's and policy's, then -cpu, -p99
        # or -throughput
        # each target against its own metric's A/A range (a p99 target
        # against the controls' p99 pairs, never their throughput)
        for name, rc, rp, rt in floors.get(t["name"].rsplit("-", 1)[0], []):
            x = rc if t["name"].endswith("-cpu") else (rp if t["name"].endswith("-p99") else rt)
            t.setdefault("aa", {})[name] = None if not x else [round(x[1], 6), round(x[2], 6)]
            fl.append(f"{name} {'–' if not x else f'{x[1]:.3f}..{x[2]:.3f}'}")
        aa_clears(t)
        out.append(f"- {t['verdict']}: {t['label']}: {rng}" + (f"; A/A: {', '.join(fl)}" if fl else "")
                   + (f" (unresolved: {t['why']})" if t.get("why") else ""))
    design_table(out)
    return ts


DESIGN = []  # per WORKLOAD/POLICY: the phase design's facts (phase_design)


def phase_design(agent, tag, ph):
    """What the phases of one tag were: measured rounds per phase; the walk
    series' autocorrelation and period (walk_period); the order (ABBA when
    lines carry order=1|2 and each setting ran first in some pair, else
    fixed: 0x0003 first in every pair); and the pairs dropped because a
    memcg group (the agent's lines sum the memcgs named NAME-N as NAME)
    that walked in the measured rounds did not walk in its settle rounds,
    so that its first measured walk read the Bloom filter the other
    setting's walk had built."""
    series, pos, settle, meas, first = [], [], {}, {}, {}
    for d in agent:
        if d.get("tag") != tag or d["_part"] != "agent" or int(d["pair"]) < 1:
            continue
        k = (d["caps"], int(d["pair"]))
        if d["memcg"] == "ALL":
            series.append(float(d.get("visited", 0)))
            pos.append(d["round"])
            if d.get("order") == "1":
                first.setdefault(d["caps"], set()).add(k[1])
            continue
        w = float(d.get("walks", 0))
        box = settle if d["settle"] != "0" else meas
        box[k + (d["memcg"],)] = box.get(k + (d["memcg"],), 0) + w
    dropped = sorted({p for (c, p, m), w in meas.items() if w > 0 and not settle.get((c, p, m))}
                     | REPLAYED_DROPS.get(tag, set()))
    # Each walk less the mean of its position in the phase (the settle
    # walk, the first measured...): what the phase design itself makes
    # repeat (a settle walk reading the other setting's filter, every
    # 1+R walks) is not the workload's cycle. A cycle locked to the phase
    # length is taken out too, and needs no whole-cycle rule: every phase
    # sees the same positions of it.
    mean = {}
    for x, q in zip(series, pos):
        mean.setdefault(q, []).append(x)
    mean = {q: sum(v) / len(v) for q, v in mean.items()}
    period, ac = walk_period([x - mean[q] for x, q in zip(series, pos)])
    rounds = med([v["rounds"] for c in (OFF, ON) for v in ph.get(c, {}).values()]) or 0
    runs = sorted({d.get("_run", "") for d in agent if d.get("tag") == tag} - {""})
    return {"tag": tag, "rounds": rounds, "period": period, "ac": ac, "walks": len(series),
            "order": "ABBA" if len(first) == 2 else "fixed", "dropped": dropped, "runs": runs}


def design_table(out):
    if not DESIGN:
        return
    out.append("\n### The phase design\n")
    out.append(f"Per tag: measured rounds per phase; the autocorrelation of its walks' leaf entries at "
               f"lags 1..{PERIOD_LAGS} (every round, settle rounds included, in the order they ran) and "
               f"the period it shows (the first lag from 2 at {PERIOD_AC} or more, a local maximum, "
               f"and at least {PERIOD_AC / 2} at twice the lag); "
               "whether the measured rounds are a whole number of cycles (if not, the tag's targets are "
               "unresolved: the settings were compared at different positions of the cycle); the order "
               "of the settings in a pair (ABBA, or fixed: 0x0003 first); the pairs dropped because a "
               "settle round did not walk a memcg that the measured rounds walked; and the cost of the "
               "same work, paired: the agent's instructions over what scripts/model.py predicts from the "
               "phase's counters (an A/A control's spread here is the cost's own, the walks' differing "
               "work taken out); and the boot it ran in (bench-apps' run id, the boot_id's first 8 hex "
               "digits; 'unrecorded' for rows measured before runs were recorded): a tag and its A/A "
               "control with the same id ran in one boot.\n")
    out.append("| tag | rounds | autocorrelation, lags 1.. | period | whole cycles | order | pairs dropped | "
               "cost per work, paired | run |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for g in DESIGN:
        acs = " ".join("–" if a is None else f"{a:+.2f}" for a in g["ac"])
        whole = "–" if not g["period"] else ("yes" if g["rounds"] % g["period"] == 0 else "**no**")
        out.append(f"| {g['tag']} | {g['rounds']:g} | {acs} | {g['period'] or 'none'} | {whole} | "
                   f"{g['order']} | {', '.join(map(str, g['dropped'])) or '0'} | "
                   + ("–" if not g.get("work") else
                      f"{g['work'][0]:.3f} ({g['work'][1]:.3f}..{g['work'][2]:.3f})") + " | "
                   + (", ".join(g.get("runs") or []) or "–") + " |")


def agent_phases(agent, tag):
    """{group: {caps: {pair: sums over the measured rounds}}} and the
    jobs' {job: {caps: {pair: ops_per_s}}} of one tag (pair 0 is warm-up)."""
    groups, jobs = {}, {}
    for d in agent:
        if d.get("tag", "") != tag or int(d["pair"]) < 1:
            continue
        p = int(d["pair"])
        if d["_part"] == "agent-job":
            jobs.setdefault(d["job"], {}).setdefault(d["caps"], {})[p] = float(d["ops_per_s"])
            continue
        if d["settle"] != "0":
            continue
        s = groups.setdefault(d["memcg"], {}).setdefault(d["caps"], {}).setdefault(p, {"rounds": 0})
        s["rounds"] += 1
        # inst: the PMU's retired instructions of the aging commands, where
        # the agent could count them (QEMU under icount); n_inst the rounds
        # that had them
        s["n_inst"] = s.get("n_inst", 0) + ("inst" in d)
        for k in ("cpu_ms", "ms", "visited", "young", "found", "added", "reclaimed_kib",
                  "mapped_kib", "evict_cpu_ms", "n", "full", "walks", "inst", "all_inst", "kswapd_inst"):
            s[k] = s.get(k, 0) + float(d.get(k, 0))
    return groups, jobs


def per_round(phases, caps, key):
    return [round(v[key] / v["rounds"], 6) for v in phases.get(caps, {}).values() if v["rounds"]]


def agent_ms_per_gib(phases, caps):
    """The agent's aging CPU time in ms per GiB mapped, one value per pair
    of a group's {caps: {pair: sums}} (agent_phases)."""
    return [v["cpu_ms"] / (v["mapped_kib"] / 2**20) for v in phases.get(caps, {}).values()
            if v["mapped_kib"]]


def agent_section(agent, out):
    tags = sorted({d.get("tag", "") for d in agent if "/" not in d.get("tag", "")})
    if not tags:
        return {}
    out.append("\n## Aging agent: many memcgs, drifting jobs, 0x0003 vs 0x0007\n")
    out.append("age-agent ages every memcg each interval with force_scan=0, evicting the oldest "
               "generation for room (guest/tests/bench-agent). Per memcg group and in total (ALL): "
               "the agent's CPU time in the aging commands per round, off (0x0003) / on (0x0007), "
               "median over the pairs; the paired ratio on/off of the CPU time summed over each "
               "phase's measured rounds, median (min..max); the CPU per GiB mapped (anon + "
               "file_mapped); per round: leaf entries visited and found young, PTE tables found "
               "in and added to the Bloom filter, memory reclaimed by the evictions.")
    verdicts = {}
    for tag in tags:
        groups, jobs = agent_phases(agent, tag)
        if not groups:
            continue
        out.append(f"\n### {tag or 'agent'}\n")
        out.append("| memcgs | aging CPU ms/round, off / on | on/off, paired | CPU ms per GiB mapped, "
                   "off / on | visited, off / on | young, off / on | tables found, off / on | "
                   "tables added, off / on | reclaimed KiB/round, off / on |")
        out.append("|---|---|---|---|---|---|---|---|---|")
        order = sorted(groups, key=lambda g: (g == "ALL", g))
        for g in order:
            ph = groups[g]
            pairs = sorted(set(ph.get(OFF, {})) & set(ph.get(ON, {})))
            r, rs = ratio([(ph[OFF][p]["cpu_ms"], ph[ON][p]["cpu_ms"]) for p in pairs])
            n = int(next(iter(next(iter(ph.values())).values()))["n"] /
                    max(1, next(iter(next(iter(ph.values())).values()))["rounds"]))

            def two(key, dg=0):
                return f"{spread(per_round(ph, OFF, key), dg)} / {spread(per_round(ph, ON, key), dg)}"
            out.append(f"| {g}{f' ({n})' if n > 1 else ''} | {two('cpu_ms', 2)} | {rs} | "
                       f"{spread(agent_ms_per_gib(ph, OFF), 2)} / {spread(agent_ms_per_gib(ph, ON), 2)} | {two('visited')} | "
                       f"{two('young')} | {two('found')} | {two('added')} | {two('reclaimed_kib')} |")
            if g == "ALL":
                verdicts[(tag, "cpu")] = (r, len(pairs))
        if jobs:
            out.append("\n| job | throughput, ops/s, off | on | on/off, paired |")
            out.append("|---|---|---|---|")
            for j in sorted(jobs):
                v = jobs[j]
                pairs = sorted(set(v.get(OFF, {})) & set(v.get(ON, {})))
                r, rs = ratio([(v[OFF][p], v[ON][p]) for p in pairs])
                verdicts[(tag, "job", j)] = (r, len(pairs))
                out.append(f"| {j} | {spread(list(v.get(OFF, {}).values()), 0)} | "
                           f"{spread(list(v.get(ON, {}).values()), 0)} | {rs} |")
        npairs = verdicts.get((tag, "cpu"), (None, 0))[1]
        out.append(f"\n{npairs} pairs of phases, 0x0003 and 0x0007 alternated in one boot.")
    agent_targets(verdicts, out)
    return verdicts


def agent_targets(verdicts, out):
    """met / missed / unresolved, as targets() words them: missed when the
    whole paired range is on the wrong side of the bound, unresolved when
    it straddles it."""
    lines = []
    for key, (r, n) in sorted(verdicts.items()):
        if r is None:
            continue
        m, lo, hi = r
        tag = key[0] or "agent"
        if key[1] == "cpu":
            ok = m <= AGENT_BOUND and hi < 1
            word = "met" if ok else ("**missed**" if lo > AGENT_BOUND or lo >= 1 else "not resolved")
            lines.append(f"- {word}: {tag}, the agent's aging CPU at least {100 * (1 - AGENT_BOUND):.0f}% "
                         f"lower with 0x0007 and the whole paired range below 1: median ratio {m:.3f} "
                         f"({lo:.3f}..{hi:.3f}), {n} pairs")
        else:
            word = "met" if lo >= JOB_BOUND else ("**missed**" if hi < JOB_BOUND else "not resolved")
            lines.append(f"- {word}: {tag}, job {key[2]} throughput no more than "
                         f"{100 * (1 - JOB_BOUND):.0f}% lower: median ratio {m:.3f} ({lo:.3f}..{hi:.3f})")
    if lines:
        out.append("\n### Agent targets\n")
        out.extend(lines)


def agent_summary(verdicts):
    """The agent's targets for summary.json, worded and judged as
    agent_targets() does."""
    ts = []
    for key, (r, n) in sorted(verdicts.items()):
        tag = key[0] or "agent"
        if key[1] == "cpu":
            t = target(f"agent-{tag}", f"aging agent ({tag}): aging CPU at least "
                       f"{100 * (1 - AGENT_BOUND):.0f}% lower with 0x0007, the whole paired range below 1, "
                       f"{n} pairs", r, AGENT_BOUND, "<=")
            if r is not None and r[0] is not None:
                m, lo, hi = r
                t["verdict"] = ("met" if m <= AGENT_BOUND and hi < 1 else
                                "missed" if lo > AGENT_BOUND or lo >= 1 else "unresolved")
        else:
            t = target(f"agent-{tag}-job-{key[2]}", f"aging agent ({tag}): job {key[2]}'s throughput "
                       f"no more than {100 * (1 - JOB_BOUND):.0f}% lower with 0x0007", r, JOB_BOUND, ">=")
        ts.append(t)
    return ts


def gnuplot(script):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True, capture_output=True)
    except subprocess.CalledProcessError as e:
        print("bench-report: gnuplot failed: " + e.stderr.strip(), file=sys.stderr)
        return False
    return True


def plot_apps(dirname, stats):
    """apps-saving.png: the estimator's aging instructions with non-leaf
    young over without (paired, median and min..max) against the memory
    the program mapped (rows aged every second) and against the interval
    (rows at 128 MiB), each beside the range of its A/A controls (grey)."""
    if not shutil.which("gnuplot"):
        return False
    by = {(a["workload"], a["policy"]): a for a in stats}

    def floor(a):
        rs = [by.get((a["workload"], f"{a['policy']}-{c}"), {}).get("cost_paired") for c in ("aa3", "aa7")]
        rs = [r for r in rs if r]
        return (min(r[1] for r in rs), max(r[2] for r in rs)) if rs else None
    rows = [a for a in stats if a["policy"] == "wss" and a.get("cost_paired") and a.get("mapped_mib_off")
            and not a["workload"].startswith("x86-")]
    size = [a for a in rows if a.get("interval_ms") == 1000]
    intv = [a for a in rows if a.get("mib") == 128 and a["workload"].split("@")[0] in ("jvm-long", "redis-recent")]
    if not size:
        return False
    dats = []
    for name, group, x in (("size", size, lambda a: a["mapped_mib_off"]),
                           ("interval", intv, lambda a: a["interval_ms"] / 1000)):
        path = os.path.join(dirname, f"apps-plot-{name}.dat")
        with open(path, "w") as f:
            f.write("# x median low high aa_low aa_high label\n")
            for a in sorted(group, key=x):
                fl = floor(a) or (float("nan"), float("nan"))
                c = a["cost_paired"]
                # names where they do not crowd (the 128 MiB programs sit together)
                lab = a["workload"] if name == "interval" or "@" in a["workload"] or a["workload"] == "jvm-long" else ""
                f.write(f'{x(a)} {c[0]} {c[1]} {c[2]} {fl[0]} {fl[1]} "{lab}"\n')
        dats.append(path)
    out = os.path.join(dirname, "apps-saving.png")
    # every bar inside the frame: the y axis reaches the highest on/off or
    # A/A maximum plotted (at least 1.6)
    tops = [a["cost_paired"][2] for a in size + intv] + [f[1] for a in size + intv if (f := floor(a))]
    ymax = math.ceil(max([1.6] + tops) * 10 + 0.5) / 10
    panel = """
set title "{title}"
set xlabel "{xlab}"
set logscale x
set ylabel "aging instructions, 0x0007 / 0x0003 (paired)"
set yrange [0:{ymax}]
set grid
set key top left
plot "{dat}" using ($1*1.06):(($5+$6)/2):($1*1.06*0.97):($1*1.06*1.03):5:6 with boxxyerrorbars fs solid 0.3 lc rgb "#808080" title "A/A control: min..max", \\
     "" using 1:2:3:4 with yerrorbars pt 7 ps 1.2 lw 2 lc rgb "#0050a0" title "on/off: median, min..max", \\
     "" using 1:2:7 with labels offset 0,1.2 font ",8" notitle, \\
     1 with lines dt 2 lc rgb "#000000" notitle
"""
    script = f"""
set terminal pngcairo size 1500,600 noenhanced font ",10"
set output "{out}"
set multiplot layout 1,2 title "The estimator's aging cost with non-leaf young over without, beside its A/A controls (make bench BENCH_PARTS=apps, QEMU TCG -icount: instructions)"
""" + panel.format(title="against the memory the program mapped (aged every 1 s)",
                    xlab="memory mapped, MiB (median of the 0x0003 rounds)", dat=dats[0], ymax=ymax)
    if intv:
        script += panel.format(title="against the interval (128 MiB of data)", xlab="aging interval, s", dat=dats[1],
                               ymax=ymax)
    script += "unset multiplot\n"
    return gnuplot(script)


def plot(dirname, bench, ts):
    """bench.png: the paired on/off ratios of the targets (median, low..high)
    against their bounds, and the leaf entries visited per scenario; all
    axes linear."""
    rows = aging_rows(bench)
    if not (rows or ts) or not shutil.which("gnuplot"):
        return False
    # the agent's aging CPU goes with the savings (its bound is 0.5); its
    # jobs' throughput with the costs
    near = [t for t in ts if t["median"] is not None and t["name"] != "cold-direction"
            and (t["bound"] > 0.5 or t["holds"] == "|r-1|<=")]
    far = [t for t in ts if t["median"] is not None and t not in near]
    short = {"control": "control\\n(0x0003 vs 0x0003)", "hot": "fully hot", "worst-case": "one page\\nper 2 MiB",
             "mmap-touch": "mmap loop\\n(HAFT/nohaft)", "reclaim-stime": "reclaim job\\nsystem time",
             "reclaim-throughput": "reclaim job\\nthroughput", "cold-time": "cold after hot\\nwalk time",
             "cold-visited": "cold after hot\\nleaf entries", "cold-direction": "cold after hot\\nhost clock"}
    for t in ts:
        m = re.match(r"agent-(.*?)(?:-job-(.*))?$", t["name"])
        if m and t["name"] not in short:
            what = m.group(1).replace("gc-rate350000", "gc capped")
            short[t["name"]] = (f"{m.group(2)} ({what})\\nthroughput" if m.group(2)
                                else f"agent {what}:\\naging CPU")
    dats = []
    for tag, group in (("near", near), ("far", far)):
        path = os.path.join(dirname, f"bench-plot-{tag}.dat")
        with open(path, "w") as f:
            f.write("# x median low high bound label\n")
            for x, t in enumerate(group):
                bounds = [1 - t["bound"], 1 + t["bound"]] if t["holds"] == "|r-1|<=" else [t["bound"]]
                for b in bounds:
                    f.write(f'{x} {t["median"]} {t["low"]} {t["high"]} {b}\n')
        dats.append(path)
    vis = os.path.join(dirname, "bench-plot-visited.dat")
    with open(vis, "w") as f:
        f.write("# label visited_off visited_on\n")
        for scen, walk, label, by, pairs in rows:
            o, n = col(by, OFF, "visited"), col(by, ON, "visited")
            if o and n:
                name = scen + (f" w{walk}" if scen.startswith(("seed", "running")) else "")
                f.write(f'"{name}" {med(o)} {med(n)}\n')
    out = os.path.join(dirname, "bench.png")
    panel = """
set xrange [-0.5:{n}-0.5]
set xtics ({tics}) font ",9"
set ylabel "{ylab}"
set title "{title}"
set key top right
set grid ytics
plot "{dat}" using 1:5:(0.35) with xerrorbars pt 0 lw 3 lc rgb "#c00000" title "bound of the target", \\
     "" using 1:2:3:4 with yerrorbars pt 7 ps 1.3 lw 2 lc rgb "#0050a0" title "paired ratio: median, low..high"
"""

    def tics(group):
        return ", ".join(f'"{short.get(t["name"], t["name"])}" {x}' for x, t in enumerate(group))

    script = f"""
set terminal pngcairo size 1500,1000 noenhanced font ",10"
set output "{out}"
set multiplot layout 2,2 title "Non-leaf PMD young on arm64 (FEAT_HAFT): make bench under QEMU TCG, -icount shift=0 (guest time = instructions executed)"
"""
    if near:
        script += "set yrange [0.96:1.05]\n" + panel.format(
            n=len(near), tics=tics(near), dat=dats[0], ylab="on/off ratio of paired runs (1 = no difference)",
            title="Cost targets: 0x0007 (or HAFT in use) against 0x0003 (or arm64.nohaft); above the red bar is missed")
    if far:
        script += "set yrange [0:1.1]\n" + panel.format(
            n=len(far), tics=tics(far), dat=dats[1], ylab="on/off ratio of paired runs",
            title="Savings targets: on/off must stay below the red bar")
    if rows:
        script += f"""
unset yrange
set xrange [*:*]
set title "Leaf entries (PTEs) the aging walk visited, median per scenario (1 GiB set: 262,144 pages)"
set style data histogram
set style histogram clustered gap 2
set style fill solid 0.7 border -1
set ylabel "leaf entries visited per walk"
set format y "%.0f"
set xtics rotate by -25 font ",9"
set xtics auto
plot "{vis}" using 2:xtic(1) title "0x0003 (non-leaf young off)", "" using 3 title "0x0007 (on)"
"""
    script += "unset multiplot\n"
    return gnuplot(script)


def plot_growth(dirname, pts):
    """bench-growth.png: aging walk time and leaf entries visited against
    the mapped set and against the share of tables gone cold."""
    if not pts or not shutil.which("gnuplot"):
        return False
    dat = os.path.join(dirname, "bench-plot-growth.dat")
    series = []
    with open(dat, "w") as f:
        for what in ("size", "cold"):
            for label in dict.fromkeys(p[2] for p in pts if p[0] == what):
                f.write(f"# {what} {label}: x ms_off ms_on visited_off visited_on\n")
                for w, x, lab, m, r in pts:
                    if w == what and lab == label:
                        o, n = m.get("off", (float("nan"),) * 2), m.get("on", (float("nan"),) * 2)
                        f.write(f"{x} {o[0]} {n[0]} {o[1]} {n[1]}\n")
                f.write("\n\n")
                series.append((what, label))
    out = os.path.join(dirname, "bench-growth.png")

    def plots(what, ycol_off, ycol_on):
        cs = []
        for i, (w, label) in enumerate(series):
            if w == what:
                cs.append(f'"{dat}" index {i} using 1:{ycol_off} with linespoints pt 7 dt 2 title "{label}, 0x0003"')
                cs.append(f'"{dat}" index {i} using 1:{ycol_on} with linespoints pt 5 title "{label}, 0x0007"')
        return ", ".join(cs)

    script = f"""
set terminal pngcairo size 1500,1000 noenhanced font ",10"
set output "{out}"
set multiplot layout 2,2 title "How the aging walk's cost grows (QEMU TCG, -icount shift=0: 1 ms = 1 million guest instructions)"
set key top left
set grid
set format y "%.0f"
"""
    if any(p[0] == "size" for p in pts):
        script += f"""
set title "Walk time against the mapped set"
set xlabel "mapped set, MiB (4 KiB pages)"
set ylabel "aging walk time, ms of guest time"
plot {plots("size", 2, 3)}
set title "Leaf entries visited against the mapped set"
set ylabel "leaf entries (PTEs) visited per walk"
plot {plots("size", 4, 5)}
"""
    if any(p[0] == "cold" for p in pts):
        script += f"""
set title "1 GiB set: walk time against the share of tables gone cold since the last walk"
set xlabel "PTE tables gone cold since the last walk, % (the rest touched whole)"
set ylabel "aging walk time, ms of guest time"
set xrange [0:100]
plot {plots("cold", 2, 3)}
set title "1 GiB set: leaf entries visited against the share gone cold"
set ylabel "leaf entries (PTEs) visited per walk"
plot {plots("cold", 4, 5)}
"""
    script += "unset multiplot\n"
    return gnuplot(script)


def headline(log):
    bench, _, _, _ = read_logs([log])
    bench = [d for d in bench if d["scenario"] in ("cold-after-hot", "steady-cold", "hot", "sparse")]
    out = []
    age = aging_table(bench, out)
    if not age:
        print(f"headline: no alternated aging walks in {log}")
        return 1
    with open(log, errors="replace") as f:
        m = re.search(r"# agebench: (\d+) MiB", f.read())
    size = f"a {m.group(1)} MiB" if m else "a"
    print(f"Aging walks of {size} working set, non-leaf PMD young off vs on "
          "(agebench, alternated; 'make bench' runs the full matrix)\n")
    print("\n".join(out))
    return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--headline":
        return headline(sys.argv[2])
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print(__doc__, file=sys.stderr)
        return 2
    d = sys.argv[1]
    logs = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".log"))
    bench, reclaim, guard, agent = read_logs(logs)
    if not (bench or reclaim or guard or agent or APP_LINES):
        print(f"bench-report: no measurements in {d}/*.log", file=sys.stderr)
        return 1
    out = ["# Non-leaf PMD young on arm64 (FEAT_HAFT): benchmark results", "",
           "Produced by `make bench` (scripts/bench.sh) on the patched QEMU (TCG) with "
           "`-icount shift=0,sleep=off`: the guest's clock advances 1 ns per instruction it executes, "
           "so every time below (but the host-timed cold walks) is the guest's instruction count: a "
           "synthetic walk's repeats exactly, a real program's does not (its A/A controls say by how "
           "much). It is the kernel's own cost: caches, TLBs and the hardware's Access-flag "
           "updates (free in QEMU's walker) are not modelled. Entry counts are exact.", ""]
    out.append("## Aging walks\n")
    age = aging_table(bench, out)
    out.append("\n## Realistic workload: memcg-limited job swapping to zram\n")
    rec = reclaim_table(reclaim, out)
    if not rec:
        out.append("Not measured in this run (no bench/reclaim log).")
    out.append("\n## Regression guards and the cost of HAFT when it cannot help\n")
    grd = guard_table(guard, out)
    ctl, wall, pts = method_and_growth(bench, out)
    GROWTH_PTS[:] = pts or []
    ts = summary_targets(bench, age, rec, grd, ctl, wall)
    targets_md(ts, out)
    ts += agent_summary(agent_section(agent, out))
    n0 = len(out)
    ats = apps_section(agent, out)
    ts += ats
    if ats:
        # the real applications alone too: 'make bench BENCH_PARTS=apps'
        # publishes these without the rest (scripts/bench.sh)
        with open(os.path.join(d, "apps.md"), "w") as f:
            f.write("# Non-leaf PMD young on arm64 (FEAT_HAFT): real applications\n" +
                    "\n".join(out[n0:]) + "\n")
        # the samples behind apps.md: the agent's round totals, the jobs'
        # counters and the programs' own lines
        with open(os.path.join(d, "apps.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["part", "tag", "memcg", "round", "setting", "pair", "metric", "value"])
            for x in agent:
                if "/" not in x.get("tag", "") or x.get("memcg", "ALL") != "ALL":
                    continue
                job = x["_part"] == "agent-job"
                for k, v in x.items():
                    if k not in AGENT_KEYS and not k.startswith("_") and num(v) is not None:
                        w.writerow([x["_part"], x["tag"], x["job"] if job else x["memcg"],
                                    "" if job else x["round"], x["caps"], x["pair"], k, v])
            for x in APP_LINES:
                for k, v in x.items():
                    if k not in ("tag", "caps", "pair") and not k.startswith("_") and num(v) is not None:
                        w.writerow(["app", x["tag"], "", "", x["caps"], x["pair"], k, v])
            # each tag's size and interval (scripts/model.py places it)
            # and the boot(s) it ran in (one meta row a tag, not a column
            # on every sample: a tag is one row of boots)
            runs = {}
            for x in agent + APP_LINES:
                if "/" in x.get("tag", "") and x.get("_run"):
                    runs.setdefault(x["tag"], set()).add(x["_run"])
            for tag in sorted({x["tag"] for x in agent if "/" in x.get("tag", "")}):
                wl = tag.split("/", 1)[0]
                for k, v in (("mib", APPS_MIB.get(wl)), ("interval_ms", APPS_INTERVAL.get(wl)),
                             ("run", "+".join(sorted(runs.get(tag, ()))) or None)):
                    if v is not None:
                        w.writerow(["meta", tag, "", "", "", "", k, v])
        with open(os.path.join(d, "apps-summary.json"), "w") as f:
            json.dump({"targets": [{k: t[k] for k in ("name", "label", "median", "low", "high", "bound",
                                                       "holds", "verdict", "aa") if k in t} for t in ats],
                       "apps": APPS_STATS}, f, indent=1)
            f.write("\n")
    md = os.path.join(d, "bench.md")
    with open(md, "w") as f:
        f.write("\n".join(out) + "\n")
    write_csv(os.path.join(d, "bench.csv"), bench, reclaim, guard, agent)
    write_summary(os.path.join(d, "summary.json"), ts, pts, APPS_STATS)
    png = plot(d, bench, ts) and plot_growth(d, pts)
    if APPS_STATS:
        plot_apps(d, APPS_STATS)
    print("\n".join(out))
    print(f"\nbench-report: wrote {md}, bench.csv, summary.json" +
          (", bench.png, bench-growth.png" if png else " (no plots: gnuplot missing or failed)"))
    return 0


def method_and_growth(bench, out):
    """The sections of the control, the host-timed walks and the cost
    growth: (control ratios, host-timed ratios, growth points)."""
    out.append("\n## The method: same-versus-same control (icount)\n")
    ctl = control_table(bench, out)
    if ctl is None:
        out.pop()
    out.append("\n## The method: cold walks timed by the host's clock\n")
    wall = wallclock_table(bench, out)
    if not wall:
        out.pop()
    out.append("\n## How the cost grows\n")
    pts = growth_table(bench, out)
    if not pts:
        out.pop()
    return ctl, wall, pts


if __name__ == "__main__":
    sys.exit(main())
