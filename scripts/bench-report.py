#!/usr/bin/env python3
"""Turn the console logs of 'make bench' into bench.md, bench.csv and
bench.png, or print the headline table of one log.

usage: bench-report.py DIR          (DIR holds the bench boots' *.log)
       bench-report.py --headline LOG

The guest prints one line per measurement:
  BENCH tag=.. scenario=S caps=0x0003|0x0007 rep=R walk=W ms=.. visited=..
  RECLAIM caps=.. rep=.. kops_per_s=.. stime=.. pgscan=.. ...
  GUARD tag=haft|nohaft|cpu-nohaft (mmap-touch|gups|scenario=..) ...
  AGENT tag=.. caps=.. pair=P round=R settle=0|1 memcg=GROUP cpu_ms=.. visited=..
  AGENT-JOB tag=.. caps=.. pair=P job=J ops_per_s=..
Every comparison is made pair by pair (the runs of one repetition, or the
boots of one round), and reported as the median ratio with its range,
next to the medians and ranges of the raw values.
"""
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys

OFF, ON = "0x0003", "0x0007"
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


def read_logs(paths):
    bench, reclaim, guard, agent = [], [], [], []
    for p in paths:
        with open(p, errors="replace") as f:
            for line in f:
                line = line.rstrip("\r\n")
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
                    d["_part"] = "agent"
                    agent.append(d)
                    continue
                d = fields(line, "AGENT-JOB")
                if d and "ops_per_s" in d:
                    d["_part"] = "agent-job"
                    agent.append(d)
                    continue
                d = fields(line, "GUARD")
                if d:
                    m = re.search(r"GUARD tag=\S+ (mmap-touch|gups) ", line)
                    d["what"] = m.group(1) if m else d.get("scenario", "")
                    guard.append(d)
    return bench, reclaim, guard, agent


def aging_rows(bench):
    """(label, visited off/on, young, youngest, ms off/on, pairs) per row."""
    rows = []
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


def targets(age, rec, grd, out):
    """Each target: met, missed, or not resolved when the paired ratios
    fall on both sides of the threshold (the noise is larger than the
    effect)."""
    lines = []

    def verdict(ok, text, unresolved=False):
        word = "not resolved" if unresolved else ("met" if ok else "**missed**")
        lines.append(f"- {word}: {text}")

    def bound(key, limit, label, r):
        if r is None or r[0] is None:
            return
        m, lo, hi = r
        verdict(m <= limit, f"{label}: median ratio {m:.3f} ({lo:.3f}..{hi:.3f}), limit {limit:.2f}",
                unresolved=lo <= limit < hi)

    c = age.get(("cold-after-hot", 1))
    if c and c[0] is not None and c[1]:
        verdict(c[0][0] <= 0.10, f"cold set, aging-pass time saved ≥ 90%: {100 * (1 - c[0][0]):.1f}% "
                f"(paired ratio {c[0][0]:.3f}, {c[0][1]:.3f}..{c[0][2]:.3f})")
        verdict(c[2] <= 0.01 * c[1], f"cold set, ≥ 99% fewer leaf entries visited: "
                f"{100 * (1 - c[2] / c[1]):.2f}% ({fmt(c[1], 0)} → {fmt(c[2], 0)})")
    bound("hot", 1.03, "fully hot walk no more than 3% slower", (age.get(("hot", 1)) or (None,))[0])
    bound("sparse", 1.03, "worst-case walk (one page per 2 MiB) no more than 3% slower",
          (age.get(("sparse", 1)) or (None,))[0])
    for w, label in (("mmap-touch", "mmap/touch/munmap"), ("gups", "GUPS")):
        v = grd.get(w)
        if v:
            bound(w, 1.03, f"{label} with HAFT in use no more than 3% slower than with arm64.nohaft", v[0])
    st, kops = rec.get("stime"), rec.get("kops_per_s")
    if st and kops and st[0] is not None and kops[0] is not None:
        verdict(st[2] < 1, f"realistic workload, system time (aging and reclaim) lower with 0x0007: "
                f"median ratio {st[0]:.3f} ({st[1]:.3f}..{st[2]:.3f})", unresolved=st[1] < 1 <= st[2])
        verdict(kops[0] >= 0.97, f"realistic workload, throughput no worse: median ratio {kops[0]:.3f} "
                f"({kops[1]:.3f}..{kops[2]:.3f})", unresolved=kops[1] < 0.97 <= kops[0])
    if lines:
        out.append("\n### Targets\n")
        out.extend(lines)


def write_csv(path, bench, reclaim, guard, agent=()):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["part", "tag", "scenario", "walk", "setting", "rep", "metric", "value"])
        for d in bench:
            for k in ("ms", "visited", "young", "tables_found", "tables_added", "youngest"):
                w.writerow(["aging", d.get("tag"), d["scenario"], d["walk"], d["caps"], d["rep"], k, d.get(k)])
        for d in reclaim:
            for k, v in d.items():
                if k not in ("caps", "rep", "check", "_kind") and num(v) is not None:
                    w.writerow(["reclaim", "", "reclaim-job", "", d["caps"], d["rep"], k, v])
        n = {}
        for d in guard:
            key = (d["what"], d.get("tag"))
            n[key] = n.get(key, 0) + 1
            for k in ("seconds", "mups", "ms", "visited"):
                if k in d:
                    w.writerow(["guard", d.get("tag"), d["what"], d.get("walk", ""), d.get("caps", ""),
                                n[key], k, d[k]])
        # the agent: scenario is the memcg group (or the job), walk the
        # round (settle rounds negative or 0), rep the pair
        for d in agent:
            job = d["_part"] == "agent-job"
            for k, v in d.items():
                if k not in AGENT_KEYS and not k.startswith("_") and num(v) is not None:
                    w.writerow([d["_part"], d.get("tag", ""), d["job"] if job else d["memcg"],
                                "" if job else d["round"], d["caps"], d["pair"], k, v])


AGENT_KEYS = ("tag", "caps", "pair", "round", "settle", "memcg", "job")
AGENT_BOUND = 0.5   # the goal: aging CPU at least 50% lower with 0x0007
JOB_BOUND = 0.99    # and the jobs' throughput no more than 1% lower


def read_agent_csv(path):
    """The agent's records back from bench.csv, as read_logs gives them."""
    recs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["part"] not in ("agent", "agent-job"):
                continue
            job = row["part"] == "agent-job"
            key = (row["part"], row["tag"], row["scenario"], row["walk"], row["setting"], row["rep"])
            d = recs.setdefault(key, {"_part": row["part"], "tag": row["tag"], "caps": row["setting"],
                                      "pair": row["rep"], ("job" if job else "memcg"): row["scenario"]})
            if not job:
                d["round"] = row["walk"]
                d["settle"] = "1" if int(row["walk"]) < 1 else "0"
            d[row["metric"]] = row["value"]
    return list(recs.values())


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
        for k in ("cpu_ms", "ms", "visited", "young", "found", "added", "reclaimed_kib",
                  "mapped_kib", "evict_cpu_ms", "n", "full"):
            s[k] = s.get(k, 0) + float(d.get(k, 0))
    return groups, jobs


def per_round(phases, caps, key):
    return [round(v[key] / v["rounds"], 6) for v in phases.get(caps, {}).values() if v["rounds"]]


def per_gib(phases, caps):
    return [v["cpu_ms"] / (v["mapped_kib"] / 2**20) for v in phases.get(caps, {}).values()
            if v["mapped_kib"]]


def agent_section(agent, out):
    tags = sorted({d.get("tag", "") for d in agent})
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
                       f"{spread(per_gib(ph, OFF), 2)} / {spread(per_gib(ph, ON), 2)} | {two('visited')} | "
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


def plot(dirname, bench):
    rows = aging_rows(bench)
    if not rows or not shutil.which("gnuplot"):
        return False
    dat = os.path.join(dirname, "bench-plot.dat")
    with open(dat, "w") as f:
        f.write("# label off_med off_min off_max on_med on_min on_max\n")
        for scen, walk, label, by, pairs in rows:
            o, n = col(by, OFF, "ms"), col(by, ON, "ms")
            if not o or not n:
                continue
            name = f"{scen}" + (f" w{walk}" if scen.startswith(("seed", "running")) else "")
            f.write(f'"{name}" {med(o)} {min(o)} {max(o)} {med(n)} {min(n)} {max(n)}\n')
    script = f"""
set terminal pngcairo size 1200,600 noenhanced font ",10"
set output "{os.path.join(dirname, 'bench.png')}"
set title "MGLRU aging walk time per scenario, non-leaf PMD young off (0x0003) vs on (0x0007), median and min..max (TCG)"
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set logscale y
set ylabel "walk time, ms (log scale)"
set xtics rotate by -25
set key top right
set grid ytics
plot "{dat}" using 2:3:4:xtic(1) title "off (0x0003)", "" using 5:6:7 title "on (0x0007)"
"""
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True, capture_output=True)
    except subprocess.CalledProcessError as e:
        print("bench-report: gnuplot failed: " + e.stderr.strip(), file=sys.stderr)
        return False
    return True


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
    if not (bench or reclaim or guard or agent):
        print(f"bench-report: no measurements in {d}/*.log", file=sys.stderr)
        return 1
    out = ["# Non-leaf PMD young on arm64 (FEAT_HAFT): benchmark results", "",
           "Produced by `make bench` (scripts/bench.sh) on the patched QEMU (TCG). "
           "Times are emulated and indicative only; entry counts are exact.", ""]
    out.append("## Aging walks\n")
    age = aging_table(bench, out)
    out.append("\n## Realistic workload: memcg-limited job swapping to zram\n")
    rec = reclaim_table(reclaim, out)
    out.append("\n## Regression guards and the cost of HAFT when it cannot help\n")
    grd = guard_table(guard, out)
    targets(age, rec, grd, out)
    agent_section(agent, out)
    md = os.path.join(d, "bench.md")
    with open(md, "w") as f:
        f.write("\n".join(out) + "\n")
    write_csv(os.path.join(d, "bench.csv"), bench, reclaim, guard, agent)
    png = plot(d, bench)
    print("\n".join(out))
    print(f"\nbench-report: wrote {md}, bench.csv" + (", bench.png" if png else " (no plot: gnuplot missing)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
