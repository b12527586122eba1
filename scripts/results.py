#!/usr/bin/env python3
"""The lab's published results, kept in one place.

usage: results.py collect RESULTS_DIR JSON   facts of one 'make test' run
       results.py publish RESULTS_DIR        collect into results/test.json,
                                             then render
       results.py render [--check]           results/README.md, the
                                             cover letter's 'Numbers'
                                             and the README's 'how much'

Every figure the project quotes comes from committed data files:
results/test.json (what the last 'make test' on a fresh clone saw,
collected from its build/results/), results/bench.csv (every sample of
the last 'make bench', with results/bench.json saying where it ran) and
results/summary.json (its targets, each resolved, and the cost growth,
which bench-report.py computed from the same samples).
'render' writes results/README.md, the section of
patches/0000-cover-letter.patch between its 'Numbers' and 'Base'
headings, and the README's answer to "how much" (between its two
HOW_MUCH lines) from them; '--check' (run by scripts/check-sync.sh in
'make test') fails when any of them differs from what render would
write, so a figure typed by hand, or data changed without a render,
cannot get in.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys
import textwrap
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(TOP, "results")
COVER = os.path.join(TOP, "patches", "0000-cover-letter.patch")
NUMBERS, BASE = "\nNumbers\n-------\n", "\nBase\n----\n"
# the top README's answer to "how much": the cover letter's paragraph,
# between these two lines
README = os.path.join(TOP, "README.md")
HOW_MUCH = ("<!-- how much: scripts/results.py render writes this paragraph from results/; "
            "make test checks it -->\n", "<!-- end of how much -->\n")


def bench_report():
    spec = importlib.util.spec_from_file_location("bench_report", os.path.join(TOP, "scripts", "bench-report.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Missing(Exception):
    pass


def grab(pattern, text, what, flags=re.M):
    m = re.search(pattern, text, flags)
    if not m:
        raise Missing(what)
    return m


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


# ---------------------------------------------------------------- collect

def kselftest_facts(log):
    """The first lru_gen_nonleaf run of a boot, either form: its cases and walks."""
    text = read(log)
    # Both forms name their eight cases alike: 'ok N - NAME' or 'ok N - NAME # SKIP why'
    cases = re.findall(r"^ +(ok|not ok) [1-8] - ((?:cold set|hot regions|new table|THP).*)$", text, re.M)
    if not cases:
        return None
    first = [(r, "# SKIP" in rest) for r, rest in cases[:8]]
    f = {
        "ok": sum(1 for r, s in first if r == "ok" and not s),
        "skip": sum(1 for _, s in first if s),
        "fail": sum(1 for r, _ in first if r == "not ok"),
    }
    cold = re.findall(r"^ +# cold set, non-leaf young (off|on): .*: cold walk: (\d+) of (\d+) tables "
                      r"entered, (\d+) entries visited", text, re.M)
    for setting, entered, tables, visited in cold:
        f.setdefault("cold_visited_" + setting, int(visited))
        f.setdefault("cold_tables_" + setting, int(entered))
        f.setdefault("tables", int(tables))
    m = re.search(r"^ +# off cold: visited (\d+) ", text, re.M)
    if m:
        f["set_pages"] = int(m.group(1))
    m = re.search(r"hot walk: all \d+ tables entered, \d+ added; (\d+) pages touched", text)
    if m:
        f["hot_pages"] = int(m.group(1))
    return f


def boot_facts(log):
    text = read(log)
    f = {}
    m = re.search(r"Linux version (\S+)", text)
    if m:
        f["kernel"] = m.group(1)
    m = re.search(r"lab\.cpu=(\S+)", text)
    if m:
        f["cpu"] = m.group(1).replace("+", ",")
    f["haft_detected"] = "detected: Hardware managed Access Flag for Table Descriptors" in text
    m = re.search(r"^ok \d+ - lru_gen/enabled reads the caps for this CPU model", text, re.M)
    m2 = re.search(r"lab\.expect_caps=(0x[0-9a-f]+)", text)
    if m and m2:
        f["caps"] = m2.group(1)
    k = kselftest_facts(log)
    if k:
        f["kselftest"] = k
    # guest/tests/lru-hostile: each condition's verdict, and the tries a
    # smaps reader disturbed; a whole-test skip (lockdown rows): its reason
    cond = re.findall(r"^(ok|not ok) \d+ - ((?:tmpfs|smaps|ksm|limit|format|overcommit): .*)$",
                      text, re.M)
    if cond:
        f["conditions"] = [[r == "ok", d] for r, d in cond]
    m = re.search(r"^# smaps read (\d+) times; tries disturbed: (\d+)", text, re.M)
    if m:
        f["smaps"] = {"reads": int(m.group(1)), "tries_disturbed": int(m.group(2))}
    m = re.search(r"^ *1\.\.0 # SKIP (.*under kernel lockdown.*)$", text, re.M)
    if m:
        f["lockdown_skip"] = m.group(1)
    # guest/tests/ktables: the kernel's table descriptors, and how many have
    # the Access flag clear (issue 47)
    m = re.search(r"^# tables (\d+) af_clear (\d+)$", text, re.M)
    if m:
        f["ktables"] = {"tables": int(m.group(1)), "af_clear": int(m.group(2))}
    return f


def qemu_version():
    deb = read(os.path.join(TOP, "qemu", "TESTED_VERSION")).strip()
    return f"{re.sub(r'^[0-9]+:|[+~-].*$', '', deb)} (Debian's {deb})"


def run_info(resdir):
    info = {}
    path = os.path.join(resdir, "run-info")
    if os.path.exists(path):
        for line in read(path).splitlines():
            k, _, v = line.partition(" ")
            info[k] = v.strip()
    return info


def collect(resdir):
    counts = os.path.join(resdir, "counts")
    planned = os.path.join(resdir, "planned")
    items, seen = [], set()
    for line in read(counts).splitlines():
        name, p, f, s = line.split()
        items.append([name, int(p), int(f), int(s)])
        seen.add(name)
    plan = read(planned).split()
    missing = [n for n in plan if n not in seen]
    run = {
        "date": time.strftime("%Y-%m-%d", time.gmtime(os.path.getmtime(counts))),
        "minutes": round((os.path.getmtime(counts) - os.path.getmtime(planned)) / 60),
        # the commit the run was made of (test.sh's run-info, written as it
        # started), else that of the clone it was made in (build/results is
        # inside it)
        "commit": run_info(resdir).get("commit") or subprocess.run(
            ["git", "-C", resdir, "rev-parse", "--short=12", "HEAD"],
            capture_output=True, text=True).stdout.strip(),
        "qemu": qemu_version(),
        "passed": sum(i[1] for i in items),
        "failed": sum(i[2] for i in items) + len(missing),
        "skipped": sum(i[3] for i in items),
    }
    boots = {}
    for name in plan:
        log = os.path.join(resdir, name + ".log")
        if os.path.exists(log):
            boots[name] = boot_facts(log)
    facts = {"run": run, "items": items, "not_judged": missing, "boots": boots}

    # Particular observations the README and the cover letter quote.
    text = read(os.path.join(resdir, "guest-kvm-max.log"))
    walks = re.findall(r"^ *# walk (\d+), (0x000[37]): (\d+) leaf entries visited, (\d+) young, "
                       r"(\d+) tables from the Bloom filter", text, re.M)
    if not walks:
        raise Missing("guest-kvm-max: the host's aging walks of the VMM (kvm-age)")
    facts["kvm_age"] = [[int(w), c, int(v), int(y), int(b)] for w, c, v, y, b in walks]
    m = grab(r"# lru_gen_full: (\d+) bytes, (\d+) memcgs", read(os.path.join(resdir, "guest-memcgs.log")),
             "guest-memcgs: the size of lru_gen_full")
    facts["memcgs"] = {"bytes": int(m.group(1)), "memcgs": int(m.group(2))}
    m = grab(r"1\.\.0 # SKIP (.*)$", read(os.path.join(resdir, "guest-lowmem.log")), "guest-lowmem: the skip reason")
    facts["lowmem_skip"] = m.group(1).strip()
    facts["soak"] = {}
    for name in ("guest-soak-max", "guest-soak-max-haft-off"):
        m = grab(r"^# soak: (\d+ s, \d+ bogo ops, .*)$", read(os.path.join(resdir, name + ".log")),
                 name + ": the soak's summary line")
        facts["soak"][name] = m.group(1).strip()
    return facts


# ----------------------------------------------------------------- render

def n(x):
    return f"{x:,}"


def load():
    with open(os.path.join(RESULTS, "test.json")) as f:
        test = json.load(f)
    with open(os.path.join(RESULTS, "bench.json")) as f:
        bmeta = json.load(f)
    br = bench_report()
    bench, reclaim, guard, _ = br.read_csv(os.path.join(RESULTS, "bench.csv"))
    out = []
    age = br.aging_table(bench, out)
    rec = br.reclaim_table(reclaim, out)
    grd = br.guard_table(guard, out)
    with open(os.path.join(RESULTS, "summary.json")) as f:
        bmeta["summary"] = json.load(f)
    return test, bmeta, age, rec, grd


def r3(r):
    m, lo, hi = r
    return f"{m:.3f} ({lo:.3f}..{hi:.3f})"


def kvm_totals(test):
    t = {}
    for _, caps, v, y, _ in test["kvm_age"]:
        a = t.setdefault(caps, [0, 0, 0])
        a[0] += 1
        a[1] += v
        a[2] += y
    return t["0x0003"], t["0x0007"]


def para(text):
    return textwrap.fill(" ".join(text.split()), 72, break_on_hyphens=False)


def cover_numbers(test, bmeta, age, rec, grd):
    run = test["run"]
    gb, sb = test["boots"]["guest-max"], test["boots"]["stock-current-max"]
    g, sk = gb["kselftest"], sb["kselftest"]
    off, on = kvm_totals(test)
    ctl = target_by(bmeta["summary"], "control") if bmeta.get("summary") else None
    rows = [("first walk after going cold", "cold-after-hot", 1), ("the cold walk after that", "steady-cold", 2),
            ("10% of 2 MiB regions hot", "hot10", 1), ("every page hot", "hot", 1),
            ("one page per 2 MiB", "sparse", 1)]
    t = [para("All figures come from the lab's results/ ('make test' and 'make bench'). The emulator's "
              "entry counts are exact. 'make bench' runs QEMU with -icount shift=0: the guest's clock "
              "advances 1 ns per instruction it executes, so its times are the kernel's instruction "
              "counts; for the synthetic walks they repeat to within "
              + (f"{100 * max(1 - ctl['low'], ctl['high'] - 1):.1f}% (the same-versus-same control, "
                 f"{ctl['low']:.4f}..{ctl['high']:.4f})" if ctl and ctl.get("low") is not None else "a few tenths of a percent")
              + ", the real programs' vary from run to run (results/apps.md); they do not model caches, TLBs or the cost of the "
              "hardware's Access-flag updates (TCG sets them for free)."),
         para("What TCG cannot show: the cost of FEAT_HAFT itself. The emulator sets a table "
              "descriptor's Access flag as part of its walk, at no cost a guest can see, so the "
              "overhead targets below that read 'met' (a fully hot walk, one page per 2 MiB, the "
              "mmap/touch/munmap loop) say that the kernel's own work did not grow, not what the "
              "hardware's atomic descriptor updates cost on silicon. The savings are counts of work "
              "the kernel did not do, which carry over; no figure here was measured on hardware."),
         para(f"The selftest on QEMU {run['qemu']} with our patches ({run['date']}), a cold set of "
              f"{n(g['set_pages'])} pages; leaf entries visited by a cold walk with non-leaf young "
              "off and on" + (f" (one sentinel page touched before it: with 0x0007 its table, "
                              f"{g['cold_tables_on']} of {n(g['tables'])}, is the only one entered)"
                              if "cold_tables_on" in g else "") + ":"),
         "\n".join([f"  {'kernel':<34}{'0x0003':>9}  {'0x0007':>9}",
                    f"  {'this series, ' + gb.get('kernel', '?'):<34}{n(g['cold_visited_off']):>9}  "
                    f"{n(g['cold_visited_on']):>9}",
                    f"  {'mainline, Debian ' + sb.get('kernel', '?'):<34}{n(sk['cold_visited_off']):>9}  "
                    f"{n(sk['cold_visited_on']):>9}"]),
         para(f"The host's aging of a KVM guest's memory (force_scan=0, {off[0]} walks each, "
              f"alternated): {n(off[1])} leaf entries visited with 0x0003 and {n(on[1])} with 0x0007, "
              f"{n(off[2])} and {n(on[2])} found young."),
         para(f"Aging walks of a 1 GiB anonymous set of 4 KiB pages in its own memcg, through debugfs "
              f"with force_scan=0, 0x0003 and 0x0007 alternated {bmeta['reps']} times in one boot "
              f"(QEMU {bmeta['qemu']}, {bmeta['date']}); median (min..max) of the on/off ratio, "
              "paired per repetition:")]
    tab = ["                               leaf entries visited   walk time",
           "                               0x0003      0x0007     on/off"]
    for label, scen, walk in rows:
        a = age.get((scen, walk))
        if a:
            r, vo, vn, _ = a
            tab.append(f"  {label:<28}{n(int(vo)):>8}   {n(int(vn)):>8}     {r3(r)}")
    t.append("\n".join(tab))
    k, st = rec.get("kops_per_s"), rec.get("stime")
    mm = (grd.get("mmap-touch") or (None,))[0]
    if k and st:
        t.append(para(f"A memcg-limited job swapping to zram, with a hot window sliding through its "
                      f"data, on/off: throughput {r3(k)}, system time {r3(st)}."))
    if mm:
        t.append(para(f"With FEAT_HAFT in use, an mmap/touch/munmap loop is {r3(mm)} times as long "
                      "as with arm64.nohaft on the same emulated CPU."))
    t += bench_targets_text(bmeta)
    return "\n\n".join(t) + "\n"


def target_by(summary, name):
    return next((x for x in summary["targets"] if x["name"] == name), None)


def growth_at(summary, sweep, walk):
    return [g for g in summary["growth"] if g["sweep"] == sweep and g["walk"] == walk]


def slope_per_gib(points, key):
    """Slope of a growth series' KEY in its units per GiB, from its smallest to its
    largest set (None when fewer than two)."""
    pts = sorted((g["x"], g[key]) for g in points if g[key] is not None)
    if len(pts) < 2 or pts[-1][0] == pts[0][0]:
        return None
    return (pts[-1][1] - pts[0][1]) * 1024 / (pts[-1][0] - pts[0][0])


def bench_targets_text(bmeta):
    """The targets of summary.json, one line each, the cost growth, and
    the answer to the reviewer's question, for the cover letter."""
    sm = bmeta.get("summary")
    if not sm:
        return []
    t = [para(f"Every target of 'make bench' (QEMU {bmeta['qemu']}, {bmeta['date']}, "
              f"REPS={bmeta['reps']}), as results/summary.json has it: the paired ratio's median "
              "(low..high) against its bound:")]
    rows = []
    apps = [x for x in sm["targets"] if x["name"].startswith("apps-")]
    for x in sm["targets"]:
        if x in apps:
            continue
        r = "–" if x["median"] is None else f"{x['median']:.4f} ({x['low']:.4f}..{x['high']:.4f})"
        rows.append(textwrap.fill(f"- {x['verdict']}: {x['label']}: {r}", 72, subsequent_indent="  ",
                                  break_on_hyphens=False))
    if apps:
        rows.append(textwrap.fill(
            f"- the real programs ('make bench BENCH_PARTS=apps'), {len(apps)} targets. "
            + apps_verdicts(apps), 72, subsequent_indent="  ", break_on_hyphens=False))
    t.append("\n".join(rows))
    hot, cold = growth_at(sm, "size", "fully hot"), growth_at(sm, "size", "cold after hot")
    if hot and cold:
        big = max(g["x"] for g in hot)
        h3, h7 = slope_per_gib(hot, "ms_off"), slope_per_gib(hot, "ms_on")
        c3, c7 = slope_per_gib(cold, "ms_off"), slope_per_gib(cold, "ms_on")
        if None not in (h3, h7, c3, c7):
            t.append(para(f"How the cost grows, sets of {min(g['x'] for g in hot):,} to {big:,} MiB: "
                          f"an aging walk of a fully hot set costs {h3:.1f} ms per GiB with 0x0003 and "
                          f"{h7:.1f} with 0x0007 (1 ms is a million guest instructions); of a set that "
                          f"went cold since the last walk, {c3:.2f} ms per GiB with 0x0003 and {c7:.3f} "
                          "with 0x0007. With 0x0003 the walk grows with every table that was hot "
                          "before; with 0x0007 only with the tables still hot."))
    frac = sorted(growth_at(sm, "cold", "the walk after"), key=lambda g: g["x"])
    if frac:
        t.append(para("A 1 GiB set with a share of its tables gone cold since the last walk, "
                      "walk time 0x0003 / 0x0007 in ms: " +
                      ", ".join(f"{g['x']}% cold {g['ms_off']:.2f} / {g['ms_on']:.2f}" for g in frac) + "."))
    t += howmuch_cover(sm) or [reviewer_answer(bmeta, sm)]
    return t


APP_NAMES = {
    "redis-recent": "Redis as a feed cache",
    "redis-zipf": "Redis with Zipf keys",
    "memcached": "memcached",
    "memcached-nocrawl": "memcached without its LRU crawler",
    "pgbench": "PostgreSQL under pgbench with a moving hot range",
    "jvm-short": "a G1 JVM collecting many times a second",
    "jvm-long": "a G1 JVM whose eden fills over 4 s",
    "client": "a foreground Redis with 20 background memcached",
}


def rng3(r, d=2):
    return f"{r[0]:.{d}f} ({r[1]:.{d}f}..{r[2]:.{d}f})"


def aa_range(by, a, key):
    """The union (min, max) of the ranges of a row's A/A controls (its
    policy with -aa3 and -aa7) for KEY, or None without one; BY maps
    (workload, policy) to summary.json's apps rows."""
    rs = [r for r in (by.get((a["workload"], f"{a['policy']}-{c}"), {}).get(key) for c in ("aa3", "aa7")) if r]
    return (min(r[1] for r in rs), max(r[2] for r in rs)) if rs else None


def apps_answer_paired(sm, st):
    """The real programs' numbers as the phase design of issue 33 measures
    them: paired ratios beside their A/A controls' ranges, the verdicts as
    counted, the rows away from 128 MiB and 1 s, the saturated runs."""
    byname = {(a["workload"], a["policy"]): a for a in st}
    wss = sorted((a for a in st if a["policy"] == "wss" and a.get("visited_paired")
                  and not a["workload"].startswith("x86-") and "@" not in a["workload"]),
                 key=lambda a: a["visited_paired"][0])
    if not wss:
        return []

    def floor(a, key):
        return aa_range(byname, a, key)

    def against(a, d=2):
        f = floor(a, "visited_paired")
        return f" against {f[0]:.{d}f}..{f[1]:.{d}f}" if f else " (no A/A control)"

    def one(a):
        return f"{APP_NAMES.get(a['workload'], a['workload'])} {rng3(a['visited_paired'])}{against(a)}"
    npairs = sorted({a["pairs"] for a in wss})
    rounds = sorted({a.get("rounds") for a in wss if a.get("rounds")})
    orders = sorted({a.get("order") for a in wss if a.get("order")})
    whole = all(not a.get("period") or (a.get("rounds") or 0) % a["period"] == 0 for a in wss)
    design = (f"the median of {'-'.join(map(str, npairs))} paired ratios"
              + (" in ABBA order" if orders == ["ABBA"] else "")
              + (f", each over {'-'.join(f'{r:g}' for r in rounds)} measured rounds" if rounds else "")
              + ("" if whole else ", some not a whole number of their workload's cycle")
              + "; min..max")
    s = ["On real programs (Debian's own servers, 128 MiB each in its own memcg, THP off, under "
         "-icount), a working-set estimator that ages every memcg each second with force_scan=0 and "
         "evicts what stayed cold for three intervals visits, with non-leaf young, this share of the "
         f"leaf entries it visits without ({design}), against the range of its A/A controls (both "
         "phases one setting, through the same path): " + "; ".join(one(a) for a in wss) + "."]
    drop = sum(len(a.get("dropped_pairs") or []) for a in wss)
    if drop:
        s.append(f"{drop} pairs were dropped because a settle round did not walk a memcg.")
    out = [a for a in wss if (f := floor(a, "visited_paired")) and
           (a["visited_paired"][2] < f[0] or a["visited_paired"][1] > f[1])]
    s.append("Entirely outside its controls' range: " + (", ".join(
        APP_NAMES.get(a["workload"], a["workload"]) for a in out) if out else "none") + ".")
    ts = [t for t in sm.get("targets", []) if t["name"].startswith("apps-")]
    if ts:
        s.append(apps_verdicts(ts))
    far = [a for a in st if a["policy"] == "wss" and "@" in a["workload"] and a.get("visited_paired")]
    place = {p["tag"]: p for p in (sm.get("model") or {}).get("saving_points", [])}

    def where(a):
        # the size and interval the model placed the tag at (its row's
        # '# bench-apps:' line), else the label itself
        p = place.get(f"{a['workload']}/{a['policy']}")
        label = a["workload"].split("@", 1)[1]
        if not p:
            return f"as labelled {label}"
        if label == "google":
            # the offered rate against the standard tag's (the Redis row
            # runs a tenth of it: the 4 s row's requests per interval)
            base = byname.get((a["workload"].split("@")[0], a["policy"]), {})
            r = (a.get("ops_off") or 0) / base["ops_off"] if base.get("ops_off") else 1
            return (f"aged every {p['interval_s']:g} s (Google's threshold of at least 120 s as three "
                    "intervals)" + (f", offered {r:.1f} of its standard rate" if r < 0.9 else ""))
        if p["gib"] != 0.125:
            what = "heap" if a["workload"].startswith("jvm") else "data"
            return f"with {data_text(a)} of {what} ({size_text(a.get('mapped_mib_off'))} mapped)"
        return f"aged every {p['interval_s']:g} s"

    def cost(a):
        if not a.get("cost_paired"):
            return ""
        f = floor(a, "cost_paired")
        return f", aging cost {rng3(a['cost_paired'])}" + (f" against {f[0]:.2f}..{f[1]:.2f}" if f else "")
    if far:
        s.append("Away from 128 MiB and 1 s (" + "-".join(map(str, sorted({a["pairs"] for a in far})))
                 + " pairs, one A/A control of 0x0003 each): " + "; ".join(
            f"{APP_NAMES.get(a['workload'].split('@')[0], a['workload'])} "
            f"{where(a)} {rng3(a['visited_paired'])} "
            f"of the leaf entries{against(a)}" + cost(a)
            for a in far) + ".")
    # the same work with and without: instructions over what the model
    # predicts from the phase's counters, paired, where it leaves the
    # A/A control's range
    def work_out(a):
        f = floor(a, "cost_per_work_paired")
        r = a.get("cost_per_work_paired")
        return r and f and clear_of(r, f)
    pw = [a for a in st if a["policy"] in ("wss", "wss-sat") and not a["workload"].startswith("x86-")
          and work_out(a)]
    if pw:
        s.append("Per unit of walk work (instructions over what scripts/model.py predicts from the "
                 "phase's own counters, paired), 0x0007 left its A/A range in "
                 + "; ".join(f"{a['workload']}/{a['policy']} {rng3(a['cost_per_work_paired'], 3)} against "
                             f"{floor(a, 'cost_per_work_paired')[0]:.3f}..{floor(a, 'cost_per_work_paired')[1]:.3f}"
                             for a in pw)
                 + f": above it in {sum(clear_of(a['cost_per_work_paired'], floor(a, 'cost_per_work_paired')) > 0 for a in pw)}, "
                 f"below in {sum(clear_of(a['cost_per_work_paired'], floor(a, 'cost_per_work_paired')) < 0 for a in pw)}. "
                 "Where it is above, a walk with non-leaf young spends more per entry or table than the "
                 "model's coefficients say, so its instructions fall less than its leaf entries; the "
                 "reason is not found yet.")
    force = [a for a in st if a["policy"] == "wss-force" and a.get("visited_paired")
             and not a["workload"].startswith("x86-")]
    if force:
        s.append("With force_scan=1, debugfs's documented default, the walk enters every table either "
                 "way (leaf entries " + ", ".join(rng3(a["visited_paired"], 3) + against(a, 3) for a in force)
                 + "): an agent must age with force_scan=0 to gain anything.")
    rec = [a for a in st if a["policy"] in ("senpai", "memmax", "senpai-pub") and "@" not in a["workload"]]
    if rec:
        what = {"senpai": "a senpai-style memory.reclaim loop", "senpai-pub": "senpai as published, on "
                "memory.high", "memmax": "memory.max"}
        # the rows measured since the positive control (a run id
        # recorded): each reclaimed in its pairs, or its row failed
        checked = sorted({a["policy"] for a in rec if a.get("boot", "unrecorded") != "unrecorded"})
        nowalk = sorted({a["policy"] for a in rec if not (a["walks_off"] or 0)})
        s.append("Where reclaim does the aging ("
                 + ", ".join(what[p] for p in sorted({a["policy"] for a in rec})) + "), the median round made "
                 + ", ".join(f"{a['walks_off'] or 0:g} walks ({a['policy']})" for a in rec
                             if not a["policy"].endswith(("-aa3", "-aa7", "-sat")))
                 + "."
                 + ("" if not checked else " " + ", ".join(checked) + " reclaimed in every row measured since run ids were recorded "
                    "(the positive control: memory.stat's pgsteal over the pairs, or the row fails).")
                 + ("" if not nowalk else " " + ", ".join(nowalk) + ": the kernel's reclaim under each made "
                    "no aging walk in the median round (counted over the whole interval), too rarely "
                    "for phases of a few rounds to compare what non-leaf young does to its walks; their "
                    "targets are not exercised, which says the effect is unmeasured, not small."))
    x86 = [a for a in st if a["workload"] == "x86-redis-recent" and a["policy"] == "wss" and a.get("visited_paired")]
    if x86:
        s.append("On Debian's amd64 6.12, whose CPU sets the Accessed bit of non-leaf entries, the same "
                 f"Redis estimator visits {rng3(x86[0]['visited_paired'])} of the leaf entries with "
                 "non-leaf young.")
    p99 = [t for t in ts if t["name"].endswith("-p99") and t["median"] is not None]
    if p99:
        # counted as apps_verdicts counts them: the targets that cannot
        # show a difference, or met only inside their control, are apart
        v = [t["verdict"] for t in p99 if not cannot_fail(t) and not within_noise(t)]
        apart = len(p99) - len(v)
        ex = [t for t in p99 if t["verdict"] != "not exercised"] or p99
        aa = [r[1] for t in ex for r in (t.get("aa") or {}).values() if r]
        s.append(f"The servers' p99 latency, counted from when each request was due, with non-leaf "
                 f"young over without: {len(p99)} targets (at most {100 * (p99[0]['bound'] - 1):.0f}% "
                 f"higher), {v.count('met')} met, {v.count('unresolved')} unresolved, "
                 f"{v.count('missed')} missed"
                 + (f", {v.count('not exercised')} not exercised" if "not exercised" in v else "")
                 + (f", {apart} not counted (force_scan=1, equal in every pair, or inside the A/A "
                    "control)" if apart else "")
                 + f"; where exercised, single pairs reached {max(t['high'] for t in ex):.2f}"
                 + (f", and their A/A controls {max(aa):.2f} with nothing changed" if aa else "") + ".")
    sat = [t for t in ts if t["name"].endswith("-sat-throughput") and t["median"] is not None
           and t["verdict"] != "not exercised"]
    if sat:
        ctl = [t for t in sat if t.get("aa")]
        s.append("Run flat out (no offered rate), the servers' throughput with non-leaf young was "
                 f"{min(t['low'] for t in sat):.3f} to {max(t['high'] for t in sat):.3f} times what it "
                 f"was without, pair by pair, across {len(sat)} saturated runs"
                 + ("" if not ctl else "; " + ", ".join(
                     re.sub(r"^apps-(.+)-sat-throughput$", r"\1", t["name"]) + "'s A/A control read "
                     + ", ".join(f"{lo:.3f}..{hi:.3f}" for lo, hi in (r for r in t["aa"].values() if r))
                     for t in ctl))
                 + (" (no A/A control)." if not ctl else
                    f"; the other {len(sat) - len(ctl)} had none." if len(sat) > len(ctl) else "."))
    return s


def cannot_fail(t):
    """Why an apps target cannot show what non-leaf young does, or None,
    decided by the target's design, not by its outcome: with force_scan=1
    the walk enters every table whatever the setting; a throughput at an
    offered rate (not saturated) counts the requests offered and can only
    show whether the program kept up; a p99 equal in every pair is the
    load generator's bucket on both sides, not a difference."""
    if "-wss-force" in t["name"]:
        return "force_scan=1"
    if t["name"].endswith("-throughput") and "-sat-" not in t["name"]:
        return "an offered-rate count"
    lo, hi = t.get("low"), t.get("high")
    if t["name"].endswith("-p99") and lo is not None and lo == hi == 1.0:
        return "a p99 equal in every pair"
    return None


def within_noise(t):
    """A met target whose A/A control crosses its bound as well, and whose
    on/off range is not clear of that control on the good side: the
    control alone would have read the same, so it is not counted as met."""
    if t["verdict"] != "met" or not t.get("aa"):
        return False
    upper = t["bound"] >= 1  # a cost or latency: at most the bound
    for lo, hi in (r for r in t["aa"].values() if r):
        if (hi > t["bound"] if upper else lo < t["bound"]) and \
                not (t["high"] < lo if upper else t["low"] > hi):
            return True
    return False


def apps_verdicts(ts):
    """The programs' verdicts as one sentence, split: the targets where
    non-leaf young should pay, those where it should do no harm, those met
    only inside their A/A control's own reach of the bound, and those that
    cannot show a difference, which are not counted as met (a miss among
    them is named)."""
    def count(group):
        n = {v: sum(t["verdict"] == v for t in group) for v in ("met", "unresolved", "missed", "not exercised")}
        return (f"{n['met']} met, {n['unresolved']} unresolved, {n['missed']} missed, "
                f"{n['not exercised']} not exercised")
    free = [t for t in ts if cannot_fail(t)]
    rest = [t for t in ts if not cannot_fail(t)]
    noise = [t for t in rest if within_noise(t)]
    rest = [t for t in rest if t not in noise]
    pays = [t for t in rest if "stated before measuring: pays" in t.get("label", "")]
    harm = [t for t in rest if t not in pays]
    why = sorted({cannot_fail(t) for t in free})
    bad = [t for t in free if t["verdict"] in ("missed", "unresolved")]
    return (f"Judged by the one rule, with the A/A clause (results/apps.md): of the {len(pays)} targets "
            f"where non-leaf young should pay (aging cost at least 30% lower), {count(pays)}; of the "
            f"{len(harm)} where it should do no harm, {count(harm)}"
            + ("" if not noise else
               f"; {len(noise)} more read met but {'is' if len(noise) == 1 else 'are'} not counted, since the A/A control crossed "
               "the bound too and the on/off range did not clear it (" + ", ".join(t["name"][5:] for t in noise)
               + ")")
            + f". {len(free)} cannot show a difference and are not counted as met ("
            + ", ".join(f"{sum(cannot_fail(t) == w for t in free)} {w}" for w in why) + ")"
            + ("" if not bad else "; of them " + ", ".join(
                f"{t['name'][5:]} {t['verdict']} at {t['median']:.2f} ({t['low']:.2f}..{t['high']:.2f})"
                for t in bad)) + ".")


def apps_answer(sm):
    """The real applications' numbers, as sentences (none without them:
    summary.json's apps entries from a bench-report that pairs them)."""
    return apps_answer_paired(sm, sm.get("apps") or [])


def system_answer(apps, sm):
    """The answer with the real applications' numbers: one paragraph."""
    ct, hot, worst = (target_by(sm, n) for n in ("cold-time", "hot", "worst-case"))
    s = ["Improve by how much?"] + apps
    if ct and hot and worst and None not in (ct["median"], hot["median"], worst["median"]):
        s.append(f"The saving is per table gone cold between two walks (a walk over memory all gone "
                 f"cold executes {100 * (1 - ct['median']):.1f}% fewer instructions; one over memory "
                 f"still hot {100 * (hot['median'] - 1):+.1f}%, {100 * (worst['median'] - 1):+.1f}% "
                 "with one page per 2 MiB), and these programs leave few tables cold for a second.")
    s += model_answer(sm)
    s.append("These are instruction counts under QEMU's -icount; they leave out caches, TLBs and the "
             "hardware's Access-flag updates. Reproduce with 'make bench BENCH_PARTS=apps' "
             "(results/apps.md has every workload and policy).")
    return para(" ".join(s))


def model_answer(sm):
    """The server-scale model (scripts/model.py, summary.json's model), as
    sentences: what its error measures, and its predictions of the saving
    only where the points measured away from where it was fitted fell
    inside them; none without a model."""
    m = sm.get("model")
    if not m or not m.get("error", {}).get("held_out") or not m.get("predictions"):
        return []
    e, ap = m["error"]["held_out"], m["error"].get("apps")
    held = [p for p in m["points"] if not p["fit"] and p["measured"] > 0.05]
    worst = max(held, key=lambda p: abs(p["predicted"] / p["measured"] - 1))
    s = [f"A model of the walk's cost (scripts/model.py), fitted to the growth sweep's sizes of 2 GiB or less, predicts the cost "
         f"of a walk from that walk's own counters (entries visited, tables found) within "
         f"{100 * e['median_abs']:.0f}% at the median"
         + (f" ({100 * ap['median_abs']:.0f}% for the programs' walks alone)" if ap else "")
         + f" and {100 * e['max_abs']:.0f}% at worst ({worst['tag'].split('/')[0]}, {worst['setting']}): "
         "the cost of work already known, not the saving."]
    pts = [p for p in m.get("saving_points", []) if p["measured"] is not None and p.get("error") is not None]
    large = [p for p in pts if p.get("large")]

    def pct(lo, hi):
        return f"{100 * lo:.0f}%" if round(100 * lo) == round(100 * hi) else f"{100 * lo:.0f}% to {100 * hi:.0f}%"

    def one(p):
        return (f"{p['tag'].split('/')[0]} ({p.get('mapped_gib', p['gib']):.1f} GiB mapped) "
                f"{100 * p['measured']:.0f}% measured, "
                f"{pct(*p['predicted'])} predicted" + (", a miss" if p.get("miss") else ""))
    s.append(f"Its predicted saving missed {sum(bool(p.get('miss')) for p in pts)} of "
             f"the {len(pts)} points measured (more than 30% of the larger saving and 2 points: "
             "results/model.md).")
    if large:
        s.append("Out of sample, walks of 8 GiB and more: " + "; ".join(one(p) for p in large) + ".")
    inside = [p for p in pts if not p.get("large") and p["gib"] >= 7.5]
    if inside:
        s.append("Not out of sample though their data was 8 GiB or more, since what their walks "
                 "covered lies inside the fitted sizes: " + "; ".join(one(p) for p in inside) + ".")
    if not large or any(p.get("miss") for p in large):
        s.append(("No point of 8 GiB or more was measured" if not large else "It missed there")
                 + ", so its predictions for 16 to 256 GiB are withdrawn (results/model.md keeps them, "
                 "marked so, beside the misses); what scaled is in the table below: per program, the "
                 "tables dropped from the filter between walks and those 0x0007 left alone.")
        return s
    by = {}
    for p in m["predictions"]:
        if p["gib"] == 64 and p["workload"] in ("jvm-long", "redis-recent"):
            by.setdefault(p["workload"], []).append(p)
    if by:
        s.append("Every point of 8 GiB or more inside 30%, it puts the saving per walk at 64 GiB in one memcg at "
                 + "; ".join(APP_NAMES.get(w, w) + " " + " and ".join(
                     f"{pct(*p['saving'])} every {p['interval_s']} s" for p in ps) for w, ps in by.items())
                 + " (results/model.md has the assumptions).")
    return s


SHORT_NAMES = {
    "redis-recent": "Redis, feed cache", "redis-zipf": "Redis, Zipf keys", "memcached": "memcached",
    "memcached-nocrawl": "memcached, no crawler", "pgbench": "PostgreSQL, pgbench",
    "jvm-short": "G1 JVM, fast eden", "jvm-long": "G1 JVM, slow eden", "client": "Redis + 20 memcached",
}


def howmuch_rows(sm):
    """The estimator's rows (policy wss, arm64), each with the ranges of
    its A/A controls: [(stat, leaf entries A/A, cost A/A, p99 target)]."""
    st = sm.get("apps") or []
    by = {(a["workload"], a["policy"]): a for a in st}
    tg = {t["name"]: t for t in sm.get("targets", [])}

    def floor(a, key):
        return aa_range(by, a, key)
    rows = [dict(a) for a in st if a["policy"] == "wss" and a.get("visited_paired")
            and not a["workload"].startswith("x86-")]
    for a in rows:
        # an A/A control whose arms ran in a fixed order (before they
        # alternated): its range carries the order's bias
        a["_aa_fixed"] = any(by.get((a["workload"], f"wss-{c}"), {}).get("order") == "fixed"
                             for c in ("aa3", "aa7"))
        # a control not shown to share the row's boot: either boot not
        # recorded, or another boot
        boots = {by[(a["workload"], f"wss-{c}")].get("boot", "unrecorded") for c in ("aa3", "aa7")
                 if (a["workload"], f"wss-{c}") in by}
        a["_aa_apart"] = bool(boots) and (a.get("boot", "unrecorded") == "unrecorded" or boots != {a["boot"]})
    rows.sort(key=lambda a: (a.get("interval_ms") or 0, a.get("mib") or 0, a.get("mapped_mib_off") or 0))
    return [(a, floor(a, "visited_paired"), floor(a, "cost_paired"), tg.get(f"apps-{a['workload']}-wss-p99"))
            for a in rows]


def size_text(mib):
    return "–" if mib is None else (f"{mib / 1024:.1f} GiB" if mib >= 1024 else f"{mib:.0f} MiB")


def data_text(a):
    """A row's data: the servers' lab.apps_mib, a JVM's heap (twice it)."""
    return size_text(data_mib(a))


def clear_of(r, f):
    """-1 if the paired range r lies below the A/A range f, 1 above, 0
    where they overlap (or either is missing)."""
    if not r or not f:
        return 0
    return -1 if r[2] < f[0] else 1 if r[1] > f[1] else 0


def data_mib(a):
    """A row's data in MiB: a server's data set, a JVM's heap."""
    mib = a.get("mib")
    return None if mib is None else mib * 2 if a["workload"].startswith("jvm") else mib


def howmuch_bottom(rows, st=()):
    """Three sentences from the rows: at 128 MiB, whether the cost moved
    beyond the A/A noise; at 8 GiB and more, and where anything cleared
    it; what aging costs at all (the rows' and their same-setting A/A
    controls' phases without non-leaf young)."""
    def name(a):
        return SHORT_NAMES.get(a["workload"].split("@")[0], a["workload"])

    def place(a):
        what = "heap" if a["workload"].startswith("jvm") else "data"
        return (f"{name(a).split(',')[0]} with {data_text(a)} of {what} ({size_text(a.get('mapped_mib_off'))} "
                f"mapped" + ("" if (a.get("interval_ms") or 1000) == 1000 else
                             f", every {a['interval_ms'] / 1000:g} s") + ")")
    base = [(a, cf) for a, _, cf, _ in rows if "@" not in a["workload"] and a.get("cost_paired") and cf]
    out = [(a, clear_of(a["cost_paired"], cf)) for a, cf in base if clear_of(a["cost_paired"], cf)]
    # the servers run flat out (no offered rate) beside their own controls
    by = {(a["workload"], a["policy"]): a for a in st}
    sat = []
    for a in st:
        if a["policy"] == "wss-sat" and a.get("cost_paired") and "@" not in a["workload"]:
            f = aa_range(by, a, "cost_paired")
            if f and clear_of(a["cost_paired"], f):
                sat.append((a, f[0], f[1]))
    s = [f"At 128 MiB of data (256 MiB of JVM heap) aged every second, the on/off range of the aging "
         f"instructions overlapped its A/A range for {len(base) - len(out)} of {len(base)} programs"
         + ("" if not out else " (clear of it: " + ", ".join(
             f"{name(a)}, {100 * abs(1 - a['cost_paired'][0]):.0f}% "
             f"{'less' if d < 0 else 'more'}" for a, d in out)
            + "".join(f"; run flat out, {name(a)} {rng3(a['cost_paired'])} against {lo:.2f}..{hi:.2f}"
                      for a, lo, hi in sat) + ")")
         + "."]
    big = [(a, vf, cf) for a, vf, cf, _ in rows if (data_mib(a) or 0) >= 8192]
    clear = [(a, vf, cf) for a, vf, cf, _ in rows if vf and clear_of(a["visited_paired"], vf) < 0]
    t = []
    if big:
        won = [(a, vf, cf) for a, vf, cf in big
               if clear_of(a["visited_paired"], vf) < 0 or clear_of(a.get("cost_paired"), cf) < 0]
        near = min(big, key=lambda x: x[0]["visited_paired"][2] - (x[1] or (0, 0))[0])

        def both(a, vf, cf):
            # leaf entries, and the instructions where they cleared too;
            # three decimals where two would print the gap as none
            c = a.get("cost_paired")
            d = 3 if vf[0] - a["visited_paired"][2] < 0.005 else 2
            return (f"{place(a)}: leaf entries {rng3(a['visited_paired'], d)} against {vf[0]:.{d}f}..{vf[1]:.{d}f}"
                    + (f", aging instructions {rng3(c)} against {cf[0]:.2f}..{cf[1]:.2f}"
                       if c and cf and clear_of(c, cf) < 0 else ", instructions not clear"))
        if won:
            t.append(f"At 8 GiB of data and more ({len(big)} rows), clear of their A/A range: "
                     + "; ".join(both(*w) for w in won)
                     + ("" if len(won) == len(big) else
                        f"; not the other {len(big) - len(won)} ("
                        + ", ".join(sorted({name(x[0]) for x in big if x[0] not in [w[0] for w in won]}))
                        + ")"))
        else:
            a, vf, cf = near
            t.append(f"At 8 GiB of data and more ({len(big)} rows), neither leaf entries nor instructions "
                     f"cleared their A/A range (nearest: {place(a)}, leaf entries "
                     f"{rng3(a['visited_paired'])} against {vf[0]:.2f}..{vf[1]:.2f})")
    clear = [x for x in clear if x[0] not in [w[0] for w in (won if big else [])]] if big else clear
    if clear:
        a, vf, cf = min(clear, key=lambda x: x[0]["visited_paired"][0])
        c = a.get("cost_paired")
        both = c and cf and clear_of(c, cf) < 0
        t.append(f"below 8 GiB the largest saving clear of its control is {place(a)}, "
                 + ("" if both else "in leaf entries only: ")
                 + f"{rng3(a['visited_paired'])} against {vf[0]:.2f}..{vf[1]:.2f}"
                 + ("" if not both else f", instructions {rng3(c)} against {cf[0]:.2f}..{cf[1]:.2f}"))
    else:
        t.append("no row's leaf entries visited cleared its A/A range")
    s.append(("; ".join(t)) + ".")
    s[-1] = s[-1][0].upper() + s[-1][1:]
    wl = {a["workload"] for a, _, _, _ in rows}
    sh = [(a["cpu_share_off"], a) for a, _, _, _ in rows if a.get("cpu_share_off") is not None]
    ctl = [(a["cpu_share_off"], a) for a in st
           if a["workload"] in wl and a["policy"] == "wss-aa3" and a.get("cpu_share_off") is not None]
    if sh:
        lo, hi = min(sh, key=lambda x: x[0]), max(sh, key=lambda x: x[0])
        c = max(ctl, key=lambda x: x[0]) if ctl else None
        s.append(f"Without it, aging took {100 * lo[0]:.2g}% to {100 * hi[0]:.2g}% of one CPU (median "
                 f"rounds by the agent thread's clock under icount; the most {name(hi[1])} with "
                 f"{data_text(hi[1])}"
                 + (f", {100 * c[0]:.2g}% in the A/A phases of {'that row' if c[1]['workload'] == hi[1]['workload'] else name(c[1])}"
                    if c and c[0] > hi[0] else "")
                 + "), and what hardware spends setting table Access flags is not measured (TCG sets "
                 "them for free).")
    return " ".join(s)


TINY_NAMES = {"redis-recent": "Redis", "redis-zipf": "Redis (Zipf)", "memcached": "memcached",
              "memcached-nocrawl": "memcached (no crawler)", "pgbench": "pgbench",
              "jvm-short": "the fast-eden JVM", "jvm-long": "the slow-eden JVM", "client": "the client"}


def howmuch_short(rows, st=()):
    """The README's bottom line, three short sentences: at 128 MiB, the
    rows whose aging instructions left their A/A range; with 8 GiB of
    data and more, each program's verdict; the aging CPU at most."""
    def name(a):
        return TINY_NAMES.get(a["workload"].split("@")[0], a["workload"])
    by = {(a["workload"], a["policy"]): a for a in st}

    def ctl(a, key):
        return aa_range(by, a, key)

    def pct(a):
        return f"{100 * abs(1 - a['cost_paired'][0]):.0f}% {'fewer' if a['cost_paired'][0] < 1 else 'more'}"
    base = [a for a, _, cf, _ in rows if "@" not in a["workload"] and a.get("cost_paired") and cf]
    out = [a for a, _, cf, _ in rows if a in base and clear_of(a["cost_paired"], cf)]
    sat = [a for a in st if a["policy"] == "wss-sat" and "@" not in a["workload"] and a.get("cost_paired")
           and clear_of(a["cost_paired"], ctl(a, "cost_paired"))]
    s = [f"At 128 MiB of data (JVMs: 256 MiB of heap) aged every second, the aging instructions' on/off "
         f"range overlapped its A/A range for {len(base) - len(out)} of {len(base)} programs"
         + ("" if not out else " (not for " + "; ".join(f"{name(a)}, {pct(a)}" for a in out) + ")")
         + ("" if not sat else "; run flat out, " + "; ".join(f"{name(a)} cleared it, {pct(a)}" for a in sat))
         + "."]
    big = [(a, vf, cf) for a, vf, cf, _ in rows if (data_mib(a) or 0) >= 8192]
    if big:
        parts, none = [], []
        for a, vf, cf in big:
            c = a.get("cost_paired")
            if c and cf and clear_of(c, cf) < 0:
                parts.append(f"{name(a)}'s cleared it ({c[0]:.2f} against {cf[0]:.2f}..{cf[1]:.2f})")
            elif vf and clear_of(a["visited_paired"], vf) < 0:
                gap = vf[0] - a["visited_paired"][2]
                parts.append(f"{name(a)}'s leaf entries only" + (f", by {gap:.3f}" if gap < 0.01 else ""))
            elif name(a) not in none:
                none.append(name(a))
        parts += [f"{n}'s not" for n in none]
        s.append("With 8 GiB of data or more, " + ", ".join(parts[:-1]) + (", and " if len(parts) > 1 else "")
                 + parts[-1] + ".")
    wl = {a["workload"] for a, _, _, _ in rows}
    sh = [(a["cpu_share_off"], a) for a in st if a["workload"] in wl and a["policy"] in ("wss", "wss-aa3")
          and a.get("cpu_share_off") is not None]
    if sh:
        hi = max(sh, key=lambda x: x[0])
        s.append(f"Aging took up to {100 * hi[0]:.2g}% of a CPU (median round: {name(hi[1])}, "
                 f"{data_text(hi[1])}{', A/A' if hi[1]['policy'] != 'wss' else ''}); the hardware's cost "
                 "of setting table Access flags is not measured.")
    return " ".join(s)


def howmuch_table(rows, markdown=True):
    """The estimator's rows as a table: program, data, mapped, interval,
    leaf entries and aging instructions on/off beside their A/A ranges,
    p99 on/off."""
    head = ["program", "data/heap", "mapped", "every", "leaf entries on/off", "A/A", "aging instr. on/off",
            "A/A", "p99 on/off"]
    def p99_text(a, p99):
        if p99_behind(a):
            return f"fell behind ({a['p99_us_off'] / 1e6:.1f} / {a['p99_us_on'] / 1e6:.1f} s)"
        return "–" if not p99 or p99.get("median") is None else f"{p99['median']:.2f}"
    def mark(a):
        m = ("\\*" if markdown else "*") if a.get("_aa_fixed") else ""
        return m + ("†" if a.get("_aa_apart") else "")
    body = []
    for a, vf, cf, p99 in rows:
        body.append([SHORT_NAMES.get(a["workload"].split("@")[0], a["workload"]),
                     data_text(a), size_text(a.get("mapped_mib_off")),
                     f"{(a.get('interval_ms') or 1000) / 1000:g} s", rng3(a["visited_paired"]),
                     "–" if not vf else f"{vf[0]:.2f}..{vf[1]:.2f}" + mark(a),
                     "–" if not a.get("cost_paired") else rng3(a["cost_paired"]),
                     "–" if not cf else f"{cf[0]:.2f}..{cf[1]:.2f}" + mark(a),
                     p99_text(a, p99)])
    if markdown:
        return (["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                + ["| " + " | ".join(r) + " |" for r in body])
    cols = [head] + body
    w = [max(len(r[i]) for r in cols) for i in range(len(head))]
    return ["  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip() for r in cols]


HOWMUCH_NOTE = ("Paired ratios with non-leaf young (0x0007) over without (0x0003): median (min..max) "
                "of the pairs, in ABBA order; A/A is the same ratio's range with one setting on both "
                "sides. Data is a server's data set, or a JVM's heap. The agent is a working-set estimator (force_scan=0, every memcg each interval, "
                "evicting what stayed cold for three intervals) over Debian's servers in memcgs; "
                "\"mapped\" is what the walks covered after its evictions. The JVM rows of 10 GiB of heap "
                "and more give the young generation 80% or 85% of the heap, the others 25% (boots), so "
                "between them size and configuration both change. Counts are instructions under "
                "QEMU's -icount: caches, TLBs and the hardware's Access-flag updates are not in them.")


HOWMUCH_BRIEF = ("0x0007 over 0x0003, median (min..max) of the pairs in ABBA order; A/A: one setting "
                 "on both sides{apart}. Data: a data set or a JVM's heap; mapped: what the evicting "
                 "estimator (force_scan=0) left. Instructions under -icount.")


def howmuch_note(rows):
    """The table's note, with the mark of a fixed-order A/A control where
    a row carries one."""
    fixed = any(a.get("_aa_fixed") for a, _, _, _ in rows)
    apart = [a for a, _, _, _ in rows if a.get("_aa_apart")]
    same = [a for a, _, _, _ in rows if not a.get("_aa_apart")]
    behind = any(p99_behind(a) for a, _, _, _ in rows)
    npairs = sorted({a["pairs"] for a, _, _, _ in rows if a.get("pairs")})
    # the servers' offered rate, from what they served (each row kept
    # within a few percent of it unless it fell behind)
    big = sorted({round(a["ops_off"], -3) for a, _, _, _ in rows if (data_mib(a) or 0) >= 8192
                  and not a["workload"].startswith("jvm") and a.get("ops_off")})
    return (HOWMUCH_NOTE
            + ("" if not big else f" The servers with 8 GiB of data hold 16 KiB values (1 KiB below), "
               f"warm up for 24 rounds (4 below) and were offered {' and '.join(f'{x:,.0f}' for x in big)} "
               "requests a second, against 10,000 for the other Redis and memcached rows aged every "
               "second (docs/findings.md: why they map so little of their data).")
            + (f" Pairs per row: {' or '.join(map(str, npairs))} (results/apps.md)." if npairs else "")
            + ("" if not apart else
               f" A/A marked † is not shown to have run in the row's boot: its boot was not recorded "
               "(rows measured before run ids were kept; the 2 GiB and 4 s controls ran a day after "
               f"their rows, docs/findings.md); the other {len(same)} rows' controls share their "
               "boot (summary.json's boot).")
            + (" \"fell behind\": the p99 reached half the interval in the phases without / with, so "
               "the program did not keep up its offered rate either way." if behind else "")
            + (" A/A marked * ran its arms in a fixed order, which biases it (docs/findings.md, issue "
               "48)." if fixed else ""))


def p99_behind(a):
    """A p99 of half the interval or more: the program fell behind its
    offered rate (a request an interval late is dropped and counted at
    that latency), so a ratio would compare two backlogs."""
    late = [x for x in (a.get("p99_us_off"), a.get("p99_us_on")) if x]
    return bool(late) and max(late) >= 500 * (a.get("interval_ms") or 1000)


def howmuch_readme(sm):
    """The top README's answer: a bottom line, the table, the plot."""
    rows = howmuch_rows(sm)
    if not rows:
        return ""
    return "\n".join([textwrap.fill("**Bottom line.** " + howmuch_short(rows, sm.get("apps") or []), 72,
                                     break_on_hyphens=False), ""]
                     + howmuch_table(rows)
                     + ["", "![the aging cost on/off against size and interval, beside the A/A ranges]"
                            "(results/apps-saving.png)", "",
                        textwrap.fill(HOWMUCH_BRIEF.format(
                            apart=" († not shown to share the row's boot)"
                            if any(a.get("_aa_apart") for a, _, _, _ in rows) else "")
                            + " More: [results/README.md](results/README.md#how-much-in-full).", 72,
                            break_on_hyphens=False)])


def howmuch_cover(sm):
    """The same for the cover letter: plain text."""
    rows = howmuch_rows(sm)
    if not rows:
        return []
    st = sm.get("apps") or []
    return [para("How much, on real programs: " + howmuch_short(rows, st)),
            "\n".join(howmuch_table(rows, markdown=False)),
            para(howmuch_note(rows) + " The long version, every policy and control: results/README.md.")]


def reviewer_answer(bmeta, sm):
    """One paragraph: 'Improve by how much? How does this translate for a
    more realistic/useful workload?'"""
    def med(name):
        x = target_by(sm, name)
        return x["median"] if x and x["median"] is not None else None

    ct, cv, hot, worst, mm = (med(n) for n in ("cold-time", "cold-visited", "hot", "worst-case", "mmap-touch"))
    st, kp, ctl = med("reclaim-stime"), med("reclaim-throughput"), target_by(sm, "control")
    apps = apps_answer(sm)
    if apps:
        return system_answer(apps, sm)
    s = ["Improve by how much?"]
    if ct is not None and cv is not None:
        s.append(f"An aging walk over memory that went cold since the last walk executes "
                 f"{100 * (1 - ct):.1f}% fewer instructions with non-leaf young (on/off {ct:.4f}) and "
                 f"visits almost no page-table entries (on/off {cv:.6f}), and that saving grows "
                 "linearly with the cold memory mapped;")
    if hot is not None and worst is not None:
        s.append(f"when nothing can be skipped it costs {100 * (hot - 1):+.1f}% (every page hot) and "
                 f"{100 * (worst - 1):+.1f}% (one page per 2 MiB, the worst case)")
    if mm is not None:
        s.append(f"and the fault path is unchanged (mmap/touch/munmap on/off {mm:.4f}).")
    if st is not None and kp is not None:
        s.append(f"For a more realistic workload, a memcg-limited job swapping to zram whose hot window "
                 f"slides through its data, system time is {st:.3f} times and throughput {kp:.3f} "
                 "times what they are without it: the walk is a small part of reclaim, and its saving "
                 "there scales with how much of the job's memory is cold between walks.")
    mix, gc = target_by(sm, "agent-mix"), target_by(sm, "agent-gc-rate350000")
    if mix and mix["median"] is not None:
        s.append(f"How it translates: an agent that ages 105 memcgs every 250 ms with force_scan=0, as a "
                 "job scheduler estimating working sets would, while a Zipf key-value cache with a "
                 "drifting popular set, a garbage-collected heap, a streaming scan, a hot set and idle "
                 f"services run, spends {mix['median']:.3f} ({mix['low']:.3f}..{mix['high']:.3f}) times "
                 "the aging CPU with it: MGLRU's Bloom filter already sends a walk only to tables that "
                 "were young at the previous walk, and in these jobs almost every such table still has "
                 "a young entry.")
        if gc and gc["median"] is not None:
            s.append(f"A heap whose young generation moves on in whole tables more slowly than the "
                     f"agent's interval (the gc job alone, allocation rate capped) spends "
                     f"{gc['median']:.2f} ({gc['low']:.2f}..{gc['high']:.2f}) times the aging CPU.")
    if ctl and ctl["median"] is not None:
        dev = max(abs(ctl["low"] - 1), abs(ctl["high"] - 1))
        s.append(f"These are instruction counts under QEMU's -icount (a same-versus-same control stays "
                 f"within {100 * dev:.2f}% of 1); they do not include cache, TLB or hardware Access-flag "
                 "costs.")
    s.append(f"Reproduce with 'make bench' (REPS={bmeta.get('reps', 5)}).")
    return para(" ".join(s))


def published_json(name):
    """results/NAME parsed, or None when it is not there."""
    path = os.path.join(RESULTS, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def caches_note(test):
    """' (cold caches)' or ' (warm caches)': the kind of the run in
    results/timing.json made at test.json's commit, if one was."""
    pub = published_json("timing.json")
    if pub is None:
        return ""
    kinds = [k for k, r in sorted(pub.items()) if r and r.get("commit") == test["run"]["commit"]]
    return f" ({kinds[0]} caches)" if len(kinds) == 1 else ""


def results_readme(test, bmeta, age, rec, grd):
    run = test["run"]
    L = ["# Results", "",
         "Generated by `scripts/results.py render` from `results/test.json` (the",
         "last `make test` on a fresh clone, collected by `make results`) and",
         "`results/bench.csv` (`make bench`). Do not edit: `make test` fails when",
         "this file or the cover letter's numbers differ from the data.", "",
         "## The last `make test`", "",
         f"{run['date']}, commit `{run['commit']}`, QEMU {run['qemu']} with `qemu/fixes` and `qemu/patches`: "
         f"**{run['passed']} passed, {run['failed']} failed, {run['skipped']} skipped** "
         f"in {run['minutes']} minutes{caches_note(test)}. Counted are the innermost results "
         "(a kselftest case inside `run_vmtests.sh` inside a suite counts once).", ""]
    if test["not_judged"]:
        L += ["Planned but never judged: " + ", ".join(test["not_judged"]) + ".", ""]
    L += timing_section()
    L += ["| step or boot | passed | failed | skipped | kernel | HAFT detected | kselftest (8 cases, first run) |",
          "|---|---|---|---|---|---|---|"]
    for name, p, f, s in test["items"]:
        b = test["boots"].get(name, {})
        k = b.get("kselftest")
        ks = f"{k['ok']} ok, {k['skip']} skip, {k['fail']} fail" if k else ""
        det = ("yes" if b.get("haft_detected") else "no") if b else ""
        L.append(f"| `{name}` | {p} | {f} | {s} | {b.get('kernel', '')} | {det} | {ks} |")
    L += [""] + check_section()
    L += ["## The kselftest's cold walks", "",
          "Leaf entries visited and PTE tables entered by the first cold walk with non-leaf young off "
          "(`0x0003`) and on (`0x0007`), one sentinel page touched before it, and the pages of the "
          "hot regions the test re-touched (found young both ways):", "",
          "| boot | kernel | set, pages | visited, off | visited, on | tables entered, off / on | hot regions, pages |",
          "|---|---|---|---|---|---|---|"]
    for name, b in test["boots"].items():
        k = b.get("kselftest")
        if k and "cold_visited_on" in k:
            tables = (f"{n(k['cold_tables_off'])} / {n(k['cold_tables_on'])}"
                      if "cold_tables_on" in k else "")
            L.append(f"| `{name}` | {b.get('kernel', '')} | {n(k.get('set_pages', 0))} | "
                     f"{n(k['cold_visited_off'])} | {n(k['cold_visited_on'])} | {tables} | "
                     f"{n(k.get('hot_pages', 0))} |")
    L += hostile_section(test)
    L += ktables_section(test)
    m = test["memcgs"]
    L += ["", f"`guest-memcgs`: `lru_gen_full` was {n(m['bytes'])} bytes with {m['memcgs']} memcgs. "
          f"`guest-lowmem` skipped, as it must: `{test['lowmem_skip']}`.", "",
          "## The host's aging of a KVM guest's memory (`guest-kvm-max`)", "",
          "The VMM alone in a memcg, THP off, the guest keeping 64 MiB busy; every walk `force_scan=0`:", "",
          "| walk | caps | leaf entries visited | young | tables from the Bloom filter |",
          "|---|---|---|---|---|"]
    for w, c, v, y, bl in test["kvm_age"]:
        L.append(f"| {w} | `{c}` | {n(v)} | {n(y)} | {bl} |")
    off, on = kvm_totals(test)
    L += [f"| total | `0x0003` / `0x0007` | {n(off[1])} / {n(on[1])} | {n(off[2])} / {n(on[2])} | |", "",
          "## Soak (45 s per CPU model)", ""]
    for name, line in test["soak"].items():
        L.append(f"- `{name}`: {line}")
    L += ["", "## Benchmarks (`make bench`)", "",
          f"Measured {bmeta['date']} on QEMU {bmeta['qemu']}, `REPS={bmeta['reps']}`. " + bmeta.get("note", ""), ""]
    md = read(os.path.join(RESULTS, "bench.md")).split("\n", 2)[2].strip()
    L += [md.replace("\n## ", "\n### "), "",
          "![paired on/off ratios against the targets, and the leaf entries visited](bench.png)", "",
          "![aging walk time and leaf entries visited against the mapped set and the share gone cold]"
          "(bench-growth.png)", ""]
    sm = bmeta.get("summary")
    if sm and sm.get("apps"):
        rows = howmuch_rows(sm)
        L += ["## How much, in full", "",
              "The long answer the top README's table summarises: every policy, the rows away from "
              "128 MiB and 1 s, the controls, the verdicts and the model.", ""]
        if rows:
            L += [para(howmuch_bottom(rows, sm.get("apps") or [])), "",
                  para("About the README's table: " + howmuch_note(rows)), ""]
        L += [reviewer_answer(bmeta, sm), ""]
        if rows:
            L += ["What scaled, per program (the estimator's rows): the PTE tables a `0x0003` walk "
                  "took from the Bloom filter the last walk left (median per round); the share of them "
                  "the walk did not add again, found with fewer young entries than cache lines (the "
                  "filter's churn: it includes tables still partly young); and the share `0x0007` "
                  "found but did not enter, the tables with no young entry at all, which is what it "
                  "saves on. These rows do not separate size from configuration: the JVM's rows of "
                  "10 GiB of heap and more give its young generation 80-85% of the heap, not 25%, and "
                  "a server's evictions decide what it maps.", "",
                  "| program | data/heap | mapped | every | tables from the filter, 0x0003 | dropped from "
                  "the filter (fewer young entries than cache lines) | left alone by 0x0007 |",
                  "|---|---|---|---|---|---|---|"]
            for a, _, _, _ in rows:
                th, sk = a.get("thinned_share"), a.get("skipped_share")
                L.append(f"| {SHORT_NAMES.get(a['workload'].split('@')[0], a['workload'])} | "
                         f"{data_text(a)} | {size_text(a.get('mapped_mib_off'))} | "
                         f"{(a.get('interval_ms') or 1000) / 1000:g} s | "
                         + ("–" if a.get("found_off") is None else f"{a['found_off']:,.0f}") + " | "
                         + ("–" if th is None else f"{100 * th:.0f}%") + " | "
                         + ("–" if sk is None else f"{100 * sk:.0f}%") + " |")
            L.append("")
    apps = os.path.join(RESULTS, "apps.md")
    if os.path.exists(apps):
        L += ["## Real applications (`make bench BENCH_PARTS=apps`)", "",
              read(apps).split("\n", 2)[2].strip().split("\n", 2)[2].strip().replace("\n### ", "\n#### "), ""]
    return "\n".join(L)


def ktables_section(test):
    """The Access flag of the kernel's own table descriptors after boot
    (guest/tests/ktables, issue 47): 0 clear with the series, on a CPU with
    FEAT_HAFT and on one without it; a stock kernel's count is reported."""
    rows = [(name, b) for name, b in test["boots"].items() if b.get("ktables")]
    if not rows:
        return []
    L = ["", "## The kernel's table descriptors with the Access flag clear", "",
         "`guest/tests/ktables` reads `swapper_pg_dir` through `/proc/kcore` after boot. "
         "The series' kernels must read 0; on a CPU without FEAT_HAFT nothing sets the flag, "
         "so 0 there means every table was built with it. `make check`'s `earlyaf` boots "
         "the series without patch 5 (results/check.json).", "",
         "| row | kernel | cpu | table descriptors | Access flag clear |", "| --- | --- | --- | ---: | ---: |"]
    for name, b in rows:
        k = b["ktables"]
        L.append(f"| `{name}` | {b.get('kernel', '')} | {b.get('cpu', '')} | {n(k['tables'])} | {n(k['af_clear'])} |")
    return L


def hostile_section(test):
    """The kselftest under a distribution host's conditions (issue 46):
    guest/tests/lru-hostile's verdicts, and the lockdown rows' skips."""
    rows = [(name, b) for name, b in test["boots"].items() if b.get("conditions") or b.get("lockdown_skip")]
    if not rows:
        return []
    L = ["", "## The kselftest on a distribution host's conditions", "",
         "`guest/tests/lru-hostile` (rows `*-hostile`) and a boot with `lockdown=integrity` "
         "(rows `*-lockdown`); what the test must do is in each line:", ""]
    for name, b in rows:
        L.append(f"- `{name}` ({b.get('kernel', '')}):")
        if b.get("lockdown_skip"):
            L.append(f"  - lockdown: skipped, `{b['lockdown_skip']}`")
        for good, desc in b.get("conditions", []):
            L.append(f"  - {'ok' if good else 'NOT OK'}: {desc}")
        sm = b.get("smaps")
        if sm:
            L.append(f"  - beside the smaps reader ({sm['reads']} passes over every smaps): "
                     f"{sm['tries_disturbed']} tries disturbed")
    return L


def publish_timing(resdir):
    """results/timing.json keeps the step times of the last published cold
    run and of the last published warm one (scripts/timing.py): a run
    replaces the entry of its own kind and leaves the other."""
    path = os.path.join(resdir, "timing.json")
    if not os.path.exists(path):
        sys.exit(f"results: {path} missing (scripts/timing.py report writes it at the end of make test)")
    with open(path) as f:
        run = json.load(f)
    out = os.path.join(RESULTS, "timing.json")
    pub = {}
    if os.path.exists(out):
        with open(out) as f:
            pub = json.load(f)
    pub["cold" if run["cold"] else "warm"] = run
    with open(out, "w") as f:
        json.dump(pub, f, indent=1, sort_keys=True)
        f.write("\n")


def timing_section():
    pub = published_json("timing.json")
    if pub is None:
        return []
    L = ["## How long `make test` takes", "",
         "From `results/timing.json` (`scripts/timing.py`): the wall time of the last published run "
         "with empty caches (cold: nothing in `CACHE`, as on CI's fresh machine) and with warm ones, "
         "and the longest steps of each. `make test` prints this table for its own run and warns "
         "when its estimate of a cold run passes 45 minutes on a machine of the lab's kind 1.7 times "
         "slower than the fastest seen (`scripts/timing.py` reads the measuring machine's speed off "
         "its cold QEMU and kernel builds).", "",
         "| run | date | commit | wall | steps summed | slots, CPUs | longest steps |",
         "|---|---|---|---|---|---|---|"]
    for kind in ("cold", "warm"):
        r = pub.get(kind)
        if not r:
            L.append(f"| {kind} | none published | | | | | |")
            continue
        st = r["steps"]
        busy = sum(v[1] for v in st.values())
        top = sorted(st.items(), key=lambda kv: -kv[1][1])[:6]
        longest = ", ".join(f"`{k}` {v[1] // 60}:{v[1] % 60:02d}" for k, v in top)
        L.append(f"| {kind} | {r.get('date', '')} | `{r.get('commit', '')}` | "
                 f"{r['wall_s'] // 60}:{r['wall_s'] % 60:02d} | {busy // 60}:{busy % 60:02d} | "
                 f"{r.get('slots', '')}, {r.get('cpus', '')} | {longest} |")
    return L + [""]


def check_section():
    """make check's gates as last run (results/check.json, written by
    scripts/check.sh through scripts/check-record.py)."""
    rec = published_json("check.json")
    if rec is None:
        return []
    L = ["## `make check`, gate by gate", "",
         "From `results/check.json`, which `make check` writes as each gate ends: its results, its "
         "time and the hash of the series' diffs, config fragments and QEMU queue it ran on "
         "(`scripts/check-record.py`). `make test` fails unless `debug` and `p16k`, the gates that "
         "left it, passed on the series as it is.", "",
         "| gate | date | commit | series | passed | failed | time |",
         "|---|---|---|---|---|---|---|"]
    for gate, r in sorted(rec.items()):
        sec = r.get("seconds", 0)
        L.append(f"| `{gate}` | {r.get('date', '')} | `{r.get('commit', '')}` | `{r.get('series', '')}` | "
                 f"{r.get('passed', '')} | {r.get('failed', '')} | {sec // 60}:{sec % 60:02d} |")
    return L + [""]


def render(check):
    test, bmeta, age, rec, grd = load()
    want_readme = results_readme(test, bmeta, age, rec, grd)
    cover = read(COVER)
    i, j = cover.find(NUMBERS), cover.find(BASE)
    if i < 0 or j < i:
        sys.exit(f"results: {COVER} has no '{NUMBERS.strip()}' section before '{BASE.strip()}'")
    want_cover = cover[:i] + NUMBERS + "\n" + cover_numbers(test, bmeta, age, rec, grd) + cover[j:]
    path = os.path.join(RESULTS, "README.md")
    have = read(path) if os.path.exists(path) else ""
    top = read(README)
    i, j = top.find(HOW_MUCH[0]), top.find(HOW_MUCH[1])
    if i < 0 or j < i:
        sys.exit(f"results: {README} has no paragraph between '{HOW_MUCH[0].strip()}' and "
                 f"'{HOW_MUCH[1].strip()}'")
    sm = bmeta.get("summary")
    want_top = (top[:i] + HOW_MUCH[0] + ((howmuch_readme(sm) or reviewer_answer(bmeta, sm)) if sm else "")
                + "\n" + top[j:])
    if check:
        bad = [p for p, h, w in ((path, have, want_readme), (COVER, cover, want_cover), (README, top, want_top))
               if h != w]
        for p in bad:
            print(f"results: {os.path.relpath(p, TOP)} is not what 'scripts/results.py render' "
                  "writes from results/*.json and results/bench.csv; run 'make results'")
        return 1 if bad else 0
    with open(path, "w") as f:
        f.write(want_readme)
    with open(COVER, "w") as f:
        f.write(want_cover)
    with open(README, "w") as f:
        f.write(want_top)
    print(f"results: wrote {os.path.relpath(path, TOP)}, the numbers of {os.path.relpath(COVER, TOP)} "
          "and the README's paragraph")
    return 0


def main(argv):
    if len(argv) == 3 and argv[0] == "collect":
        facts = collect(argv[1])
        with open(argv[2], "w") as f:
            json.dump(facts, f, indent=1)
            f.write("\n")
        return 0
    if len(argv) == 2 and argv[0] == "publish":
        facts = collect(argv[1])
        run = facts["run"]
        if run["failed"]:
            sys.exit(f"results: that run had {run['failed']} failure(s); only a passing run is published")
        with open(os.path.join(RESULTS, "test.json"), "w") as f:
            json.dump(facts, f, indent=1)
            f.write("\n")
        publish_timing(argv[1])
        return render(False)
    if argv in (["render"], ["render", "--check"]):
        return render(len(argv) == 2)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Missing as e:
        sys.exit(f"results: not found in the run's logs: {e}")
    except FileNotFoundError as e:
        sys.exit(f"results: {e.filename} missing")
