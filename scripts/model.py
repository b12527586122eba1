#!/usr/bin/env python3
"""The walk's cost at server scale: a model built from what the lab
measures, validated against every point it measured, and its predictions
for 16, 64 and 256 GiB servers at the published agents' intervals.

usage: model.py DIR     (DIR holds summary.json and apps.csv: results/ or a
                         make bench output; writes summary.json's "model"
                         and DIR/model.md)

The cost of one aging command, in ms of guest time under -icount (one
instruction a nanosecond), for one setting s (0x0003 off, 0x0007 on):

    ms = a * n + b_s * T + c * L + d * Y + e * P

n aging commands (one per memcg), T PMD entries of the walked address
space (a table each: mapped KiB / 2048), L leaf entries visited, Y of them
found young, P (0x0007 only) PMD entries found young and cleared. The
coefficients are fitted by least squares on relative error to the
growth sweep's size points alone (every walk of 256 MiB to 10 GiB, fully
hot, cold after hot, steady cold, both settings); the growth sweep's cold
points (1 GiB with 0..100% of its tables cold) and every real program's
medians (results/apps.csv: the command's guest time, which includes what
else ran while it waited) are held out and are the validation.

The saving at S GiB, from one workload's measured walk at the lab's size
(medians of the 0x0003 and 0x0007 phases of its wss tag):

    T = T_lab * S / S_lab                tables, the workload scaled whole
    D = found_off * S / S_lab            tables the Bloom filter carries in
    k                                    the share of them cold at the next
                                         walk: 1 - found_on / found_off
    F = fp(D) * (T - D)                  false positives: tables outside
                                         the set that the filter says it
                                         carries
    fp(D) = (1 - exp(-2 D / 2^15))^2     the walk's filter: 2^15 bits, two
                                         hashes, one per lruvec
    off: L = 512 (D + F)    on: L = 512 (D + F) (1 - k)    Y as measured,
    scaled

with every table in one memcg (one filter: the worst case for false
positives). Three scenarios, not bounds, for the interval's effect on k:
  scaled      the program does per interval what the lab's did per lab
              interval (time scaled for load and agent alike): k as
              measured;
  memoryless  a carried table goes cold independently each lab interval:
              k(I) = 1 - (1 - k)^(I / I_lab);
  sliding     a hot set moving at a steady rate: k(I) = min(1, k I / I_lab).
A static hot set stays near the first; the predictions give the range.
Everything else the walk does (the generation bookkeeping, the PUD and
P4D levels, the mm list) is in a and b.
"""
import csv
import json
import math
import os
import sys

SIZES_GIB = (16, 64, 256)
# The published agents' scan intervals, each with its source:
INTERVALS = (
    (6, "senpai's default interval (facebookincubator/senpai, senpai.py: --interval 6, beside "
        "--pressure 10000 us and --max-probe 0.01)"),
    (40, "Google's far memory: a minimum cold age threshold of 120 s (Lagar-Cavilla et al., "
         "ASPLOS'19, 'Software-Defined Far Memory in Warehouse-Scale Computers'), reached as the "
         "estimator's three intervals of 40 s, the bench/apps-google-* rows' setting; the paper "
         "gives no scan period we could take, so a third of the threshold is our assumption"),
)
BLOOM_BITS = 1 << 15  # mm/vmscan.c: BLOOM_FILTER_SHIFT 15, two keys of one hash
TABLE_KIB = 2048      # a PTE table maps 2 MiB (4 KiB pages)
LEAVES = 512


def solve(a, y):
    """Least squares on relative error: the x minimising the sum of
    ((A x - y) / y)^2 (normal equations, Gaussian elimination; a handful
    of unknowns), so that a walk of 0.02 ms counts as much as one of 480."""
    n = len(a[0])
    a = [[v / t for v in r] for r, t in zip(a, y)]
    y = [1.0] * len(y)
    m = [[sum(r[i] * r[j] for r in a) for j in range(n)] + [sum(r[i] * v for r, v in zip(a, y))]
         for i in range(n)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[p] = m[p], m[i]
        for r in range(n):
            if r != i and m[i][i]:
                f = m[r][i] / m[i][i]
                m[r] = [x - f * z for x, z in zip(m[r], m[i])]
    return [m[i][n] / m[i][i] for i in range(n)]


def row(n, t, lv, y, on, pmd_young=0):
    """The regressors of one walk: a*n + b_off*T + b_on*T + c*L + d*Y + e*P."""
    return [n, 0 if on else t, t if on else 0, lv, y, pmd_young if on else 0]


def growth_rows(growth):
    """(label, regressors, measured ms, train?) of every growth point."""
    out = []
    for g in growth:
        gib = g["x"] / 1024 if g["sweep"] == "size" else 1.0
        t = LEAVES * gib
        for on, ms, vis in ((False, g["ms_off"], g["visited_off"]), (True, g["ms_on"], g["visited_on"])):
            if ms is None or vis is None:
                continue
            # the tables still young: every one of a fully hot set, none
            # once it went cold, (100 - x)% of the cold sweep's
            if g["sweep"] == "size":
                y = vis - 1 if g["walk"] == "fully hot" else 0
                py = t if g["walk"] == "fully hot" else 0
                label = f"growth/{g['walk']}"
            else:
                y = (1 - g["x"] / 100) * LEAVES * LEAVES
                py = (1 - g["x"] / 100) * t
                label = f"growth-cold/{g['x']}%"
            # fitted on the sizes of 2 GiB or less (issue 48): the larger
            # sizes are held out, as the programs' walks are
            out.append((label, gib, row(1, t, vis, y, on, py), ms, g["sweep"] == "size" and gib <= 2, on))
    return out


def med(xs):
    xs = sorted(xs)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def apps_medians(path):
    """({(tag, setting): {metric: median per measured round}} of the
    agent's memcg=ALL lines in apps.csv, and
    {tag: (GiB, interval s)} from its meta lines; a tag without them ran
    at the bench/apps-* rows' lab.apps_mib=128 and 1 s)."""
    per, meta = {}, {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["part"] == "meta":
                if r["metric"] != "run":  # the boot id, not a number
                    meta.setdefault(r["tag"], {})[r["metric"]] = float(r["value"])
                continue
            # the measured rounds (a settle round, round <= 0, read the
            # Bloom filter the other setting's walk built)
            if r["part"] != "agent" or r["memcg"] != "ALL" or not r["round"] or int(r["round"]) < 1:
                continue
            k = (r["tag"], r["setting"])
            per.setdefault(k, {}).setdefault((r["pair"], r["round"]), {})[r["metric"]] = float(r["value"])
    out = {}
    for k, rounds in per.items():
        keys = ("ms", "n", "visited", "young", "found", "mapped_kib")
        rs = [v for v in rounds.values() if all(x in v for x in keys)]
        # the cost: the agent thread's retired instructions (PMU, under
        # icount), else the command's guest time, which also holds what
        # other tasks ran while the walk waited
        if rs and all("inst" in v for v in rs):
            for v in rs:
                v["ms"] = v["inst"] / 1e6
        out[k] = {x: med([v[x] for v in rs]) for x in keys}
        out[k]["rounds"] = len(rs)
        # each pair's cost, its measured rounds summed
        out[k]["pairs"] = {}
        for (pair, _), v in rounds.items():
            if v in rs:
                out[k]["pairs"][pair] = out[k]["pairs"].get(pair, 0) + v["ms"]
        out[k]["cost"] = "inst" if rs and all("inst" in v for v in rs) else "ms"
    place = {t: (m.get("mib", 128) / 1024, m.get("interval_ms", 1000) / 1000) for t, m in meta.items()}
    return out, place


def fp(d):
    return (1 - math.exp(-2 * d / BLOOM_BITS)) ** 2


def predict_ms(co, n, t, lv, y, on, py=0):
    return sum(c * x for c, x in zip(co, row(n, t, lv, y, on, py)))


def workload_at(co, off, on, lab_gib, gib, k):
    """(ms off, ms on, false positives) of one workload scaled to gib.
    0x0003 enters every table the filter says it carries, the false
    positives included; 0x0007 enters those of them still young, a share
    1 - k of either kind."""
    f = gib / lab_gib
    t = off["mapped_kib"] / TABLE_KIB * f
    d = off["found"] * f
    fps = fp(d) * max(0.0, t - d)
    y = off["young"] * f
    ms_off = predict_ms(co, off["n"], t, LEAVES * (d + fps), y, False)
    ms_on = predict_ms(co, off["n"], t, LEAVES * (d + fps) * (1 - k), y, True, (d + fps) * (1 - k))
    return ms_off, ms_on, fps


def scenarios(k1, iv, lab_s):
    """The share of carried tables gone cold by the next walk at an
    interval of iv s, from k1 measured at lab_s, under three stated
    scenarios; none is a bound of the others in general (a static hot set
    stays near k1, a set sliding at a steady rate follows min(1, k1 I))."""
    n = iv / lab_s
    return (("scaled", k1), ("memoryless", 1 - (1 - k1) ** n), ("sliding", min(1.0, k1 * n)))


def setting_on(tag, setting):
    """Whether a row of apps.csv ran 0x0007: its setting column, except for
    an A/A control, whose column holds its arm (A as 0x0003, B as 0x0007)
    and whose policy's -aa3/-aa7 says what both arms ran."""
    if tag.endswith("-aa3"):
        return False
    if tag.endswith("-aa7"):
        return True
    return setting == "0x0007"


def fit(growth):
    """The coefficients fitted to a growth sweep's size points (summary.json
    "growth"), as a list, or None without enough of them."""
    train = [r for r in growth_rows(growth) if r[4]]
    if len(train) < 5:
        return None
    return solve([r[2] for r in train], [r[3] for r in train])


def named(co):
    """The coefficients by name, as summary.json's model has them."""
    return {"a_ms_per_command": round(co[0], 6), "b_off_ns_per_table": round(co[1] * 1e6, 2),
            "b_on_ns_per_table": round(co[2] * 1e6, 2), "c_ns_per_leaf": round(co[3] * 1e6, 2),
            "d_ns_per_young": round(co[4] * 1e6, 2), "e_ns_per_young_pmd": round(co[5] * 1e6, 2)}


def build(dirname):
    with open(os.path.join(dirname, "summary.json")) as f:
        summary = json.load(f)
    rows = growth_rows(summary.get("growth", []))
    co = fit(summary.get("growth", []))
    if co is None:
        return summary, None
    points = []
    for label, gib, x, ms, is_train, on in rows:
        pr = sum(c * v for c, v in zip(co, x))
        points.append({"tag": label, "setting": "0x0007" if on else "0x0003", "gib": round(gib, 4),
                       "interval_s": None, "measured": round(ms, 4), "predicted": round(pr, 4),
                       "fit": is_train})
    apps, place = {}, {}
    csvp = os.path.join(dirname, "apps.csv")
    if os.path.exists(csvp):
        apps, place = apps_medians(csvp)
    # the bench/apps-* rows' lab.apps_mib=128 and interval (1 s)
    lab_gib, lab_s = 128 / 1024, 1.0
    for (tag, setting), m in sorted(apps.items()):
        # the estimator's walks (wss, wss-force): senpai's and memmax's
        # commands are reclaim, which the model does not cover
        if tag.startswith("x86-") or not m["rounds"] or m["ms"] is None or \
                tag.split("/", 1)[1].split("-aa")[0] not in ("wss", "wss-force"):
            continue
        on = setting_on(tag, setting)
        # the PMD entries found young: the tables the walk entered
        pr = predict_ms(co, m["n"], m["mapped_kib"] / TABLE_KIB, m["visited"], m["young"], on, m["found"])
        gib, iv = place.get(tag, (lab_gib, lab_s))
        points.append({"tag": tag, "setting": setting, "gib": round(gib, 4), "interval_s": iv,
                       "measured": round(m["ms"], 4), "predicted": round(pr, 4), "fit": False,
                       "cost": m["cost"]})

    def err(p):
        return p["predicted"] / p["measured"] - 1 if p["measured"] > 0.05 else None
    held = [err(p) for p in points if not p["fit"] and err(p) is not None]
    fitted = [err(p) for p in points if p["fit"] and err(p) is not None]
    apps_err = [err(p) for p in points if p["interval_s"] is not None and err(p) is not None]
    preds = []
    for tag in sorted({t for t, _ in apps}):
        wl, pol = tag.split("/", 1)
        # predicted from the standard rows' walks (a WORKLOAD@LABEL tag is a
        # point at another size or interval, which the model must meet)
        if pol != "wss" or wl.startswith("x86-") or "@" in wl or \
                (tag, "0x0003") not in apps or (tag, "0x0007") not in apps:
            continue
        if place.get(tag, (lab_gib, lab_s)) != (lab_gib, lab_s):
            continue
        off, on = apps[(tag, "0x0003")], apps[(tag, "0x0007")]
        if not off["found"]:
            continue
        k1 = min(1.0, max(0.0, 1 - on["found"] / off["found"]))
        for gib in SIZES_GIB:
            for iv, why in INTERVALS:
                out = {"workload": wl, "gib": gib, "interval_s": iv, "interval_source": why}
                for name, k in scenarios(k1, iv, lab_s):
                    mo, mn, fps = workload_at(co, off, on, lab_gib, gib, k)
                    out[name] = {"k": round(k, 4), "false_positive_tables": round(fps, 1),
                                 "ms_off": round(mo, 3), "ms_on": round(mn, 3),
                                 "saving": round(1 - mn / mo, 4),
                                 "cpu_share_off": round(mo / (iv * 1000), 6)}
                sv = [out[n]["saving"] for n, _ in scenarios(k1, iv, lab_s)]
                out["saving"] = [min(sv), max(sv)]
                preds.append(out)
    # The saving itself where it was measured: each wss tag's measured
    # 1 - on/off cost against what the model predicts for it from its
    # workload's standard tag (the same tag at the standard place; a
    # WORKLOAD@LABEL tag at its own size and interval).
    saving_points = []
    for tag in sorted({t for t, _ in apps}):
        wl, pol = tag.split("/", 1)
        base = f"{wl.split('@')[0]}/{pol}"
        if pol != "wss" or wl.startswith("x86-") or not all(
                (t, c) in apps for t in (tag, base) for c in ("0x0003", "0x0007")):
            continue
        boff, bon = apps[(base, "0x0003")], apps[(base, "0x0007")]
        moff, mon = apps[(tag, "0x0003")], apps[(tag, "0x0007")]
        if not boff["found"]:
            continue
        gib, iv = place.get(tag, (lab_gib, lab_s))
        # the workload scaled whole by what its walks covered (the JVM
        # rows at 8 GiB and more give the eden most of the heap, so their
        # lab.apps_mib undersays it), and the point's size: its data or
        # what it mapped, whichever is more
        mapped_gib = moff["mapped_kib"] / 2**20 if moff["mapped_kib"] else 0
        scale = lab_gib * moff["mapped_kib"] / boff["mapped_kib"] if boff["mapped_kib"] else gib
        k1 = min(1.0, max(0.0, 1 - bon["found"] / boff["found"]))
        sv = []
        for _, k in scenarios(k1, iv, lab_s):
            mo, mn, _ = workload_at(co, boff, bon, lab_gib, scale, k)
            sv.append(1 - mn / mo)
        rng = [round(min(sv), 4), round(max(sv), 4)]
        pairs = sorted(set(moff["pairs"]) & set(mon["pairs"]))
        paired = [mon["pairs"][q] / moff["pairs"][q] for q in pairs if moff["pairs"][q]]
        measured = round(1 - med(paired), 4) if paired else None
        # the error: the saving predicted by the scenario nearest the
        # measurement less the measured saving (0 inside the range); a
        # miss when it is more than 30% of the larger of the two, and more
        # than 2 points (the A/A noise of the steadiest programs)
        near = min(rng, key=lambda x: abs(x - measured)) if measured is not None else None
        error = miss = None
        if near is not None:
            error = 0.0 if rng[0] <= measured <= rng[1] else round(near - measured, 4)
            miss = abs(error) > max(0.02, 0.3 * max(abs(measured), abs(near)))
        saving_points.append({"tag": tag, "gib": round(max(gib, mapped_gib), 4), "interval_s": iv,
                              "mapped_gib": round(mapped_gib, 3),
                              # 1 - the median of the pairs' on/off cost
                              "measured": measured,
                              "measured_k": round(min(1.0, max(0.0, 1 - mon["found"] / moff["found"])), 4)
                              if moff["found"] else None,
                              "predicted": rng, "error": error, "miss": miss,
                              # out of sample: 8 GiB and more walked (the fit had 2 GiB
                              # at most, and the workload is scaled by what it mapped: a
                              # server with 8 GiB of data whose evictions left less mapped
                              # is inside the fit's range, not a test of it)
                              "large": mapped_gib >= 7.5})
    large = [p for p in saving_points if p["large"] and p["error"] is not None]
    withdrawn = ("no point of 8 GiB or more mapped was measured" if not large else
                 "missed at " + ", ".join(p["tag"] for p in large if p["miss"])
                 if any(p["miss"] for p in large) else None)
    model = {
        "saving_points": saving_points,
        # why the predictions beyond the measured sizes are withdrawn
        # (None: every out-of-sample point within 30%)
        "withdrawn": withdrawn,
        "formula": "ms = a*n + b_s*T + c*L + d*Y + e*P (guest ms under icount)",
        "coefficients": named(co),
        "fitted_on": "the growth sweep's size points of 2 GiB or less (both settings, all three walks)",
        "error": {name: None if not e else {"median_abs": round(med([abs(x) for x in e]), 4),
                                            "max_abs": round(max(abs(x) for x in e), 4), "n": len(e)}
                  for name, e in (("fit", fitted), ("held_out", held), ("apps", apps_err))},
        "assumptions": [
            "every table of the server in one memcg: one Bloom filter of 2^15 bits, two hashes",
            "the workload scaled whole: its tables, the tables its filter carries and its young "
            "entries grow with the size; the cost per entry as at the lab's size (no cache misses: "
            "QEMU models none)",
            "scaled: the share of carried tables gone cold by the next walk (k) as measured at the "
            "lab's interval, the program doing per interval what the lab's did",
            "memoryless: k(I) = 1 - (1 - k)^(I / lab interval); sliding: k(I) = min(1, k I / lab "
            "interval), a hot set moving at a steady rate; the three are scenarios, not bounds: a "
            "static hot set stays near k, and with repeated random accesses k can fall as I grows",
            "a false positive is a table outside the set that the filter says it carries: 0x0003 "
            "enters every one, 0x0007 the share 1 - k still young",
            "T, the tables walked, is mapped KiB / 2048: it leaves out tables of swapped-out entries, "
            "counts a mapping shared by several processes (PostgreSQL's backends) once, and ignores "
            "sparse heaps",
        ] + ([] if place else [
            "k and the workloads' counts come from an apps.csv measured with 1+1 rounds in a fixed "
            "order, before the phase design of issue 33 (whole cycles, ABBA), so its k carries that "
            "design's aliasing"]) + ([
            "the programs' points are one size (128 MiB) and one interval (1 s): no point at 2 GiB or "
            "at a second interval has been measured, so the scaling itself is not validated"]
            if not any(v != (lab_gib, lab_s) for v in place.values()) else [
            "the programs were measured away from 128 MiB and 1 s only where saving_points says "
            "(WORKLOAD@LABEL tags): the predictions reach 16-256 GiB and 40 s from there"]) + [
        ],
        "lab": {"gib": lab_gib, "interval_s": lab_s},
        "points": points,
        "predictions": preds,
    }
    summary["model"] = model
    return summary, model


def markdown(model):
    c = model["coefficients"]
    out = ["# The walk's cost at server scale: the model", "",
           "scripts/model.py, from results/summary.json's growth sweep and results/apps.csv. The cost of "
           "one aging command in guest ms under -icount: `" + model["formula"] + "`, n commands, T PMD "
           "entries (mapped KiB / 2048), L leaf entries visited, Y found young, P PMD entries found young "
           "(0x0007). Fitted, on relative error, on "
           + model["fitted_on"] + f": a = {c['a_ms_per_command']:.4f} ms, b = {c['b_off_ns_per_table']:.1f} "
           f"ns a table with 0x0003 and {c['b_on_ns_per_table']:.1f} with 0x0007, c = {c['c_ns_per_leaf']:.1f} "
           f"ns a leaf entry, d = {c['d_ns_per_young']:.1f} ns more a young one, e = "
           f"{c['e_ns_per_young_pmd']:.1f} ns more a PMD entry found young (0x0007).", ""]
    e = model["error"]
    out.append("| points | n | median error | largest error |")
    out.append("|---|---|---|---|")
    for name, what in (("fit", "fitted (growth size sweep)"), ("held_out", "held out (growth cold sweep and programs)"),
                       ("apps", "the real programs alone")):
        if e.get(name):
            out.append(f"| {what} | {e[name]['n']} | {100 * e[name]['median_abs']:.1f}% | "
                       f"{100 * e[name]['max_abs']:.1f}% |")
    out += ["", "Every point (predicted against measured, ms per aging round):", "",
            "| tag | setting | GiB | interval s | measured | predicted | error |", "|---|---|---|---|---|---|---|"]
    for p in model["points"]:
        er = "–" if p["measured"] <= 0.05 else f"{100 * (p['predicted'] / p['measured'] - 1):+.1f}%"
        out.append(f"| {p['tag']}{' (fit)' if p['fit'] else ''} | {p['setting']} | {p['gib']:g} | "
                   f"{p['interval_s'] if p['interval_s'] is not None else '–'} | {p['measured']:.3f} | "
                   f"{p['predicted']:.3f} | {er} |")
    if model.get("saving_points"):
        out += ["", "The saving itself, measured (1 - the median of the pairs' on/off cost over their "
                "measured rounds) against the model's range for it over the three scenarios, from its "
                "workload's standard tag (128 MiB, 1 s; for that tag itself, its own counts): k is the "
                "share of carried tables that 0x0007 skipped. The point's size is its data or what it "
                "mapped, whichever is more, and the workload is scaled by what it mapped; the error is "
                "the saving the scenario nearest the measurement predicts less the measured one, in "
                "points (0 inside the range), a miss when it is more than 30% of the larger of the two "
                "and more than 2 points. Points that mapped 7.5 GiB or more (8 GiB and more) are out of "
                "sample (the fit has 2 GiB at most; a point with more data but less mapped is inside it); if any misses, the predictions below are withdrawn from the README and the "
                "cover letter.", "",
                "| tag | GiB (its data or what it mapped, the more; a JVM's lab.apps_mib, half its heap) | mapped GiB (the model's median of the rounds) | interval s | measured saving | measured k | predicted, the scenarios' range | error |",
                "|---|---|---|---|---|---|---|---|"]
        for p in model["saving_points"]:
            k = "–" if p["measured_k"] is None else f"{100 * p['measured_k']:.0f}%"
            ms = "–" if p["measured"] is None else f"{100 * p['measured']:.1f}%"
            er = "–" if p.get("error") is None else f"{100 * p['error']:+.1f}" + (" (miss)" if p.get("miss") else "")
            out.append(f"| {p['tag']} | {p['gib']:g} | {p.get('mapped_gib', 0):g} | {p['interval_s']:g} | {ms} | "
                       f"{k} | {100 * p['predicted'][0]:.1f}% .. {100 * p['predicted'][1]:.1f}% | {er} |")
    if model.get("withdrawn"):
        out += ["", f"**Withdrawn** ({model['withdrawn']}): the table below is kept only so that the "
                "misses above can be checked against what the model said; it is not a prediction, and "
                "neither the README nor the cover letter quotes it."]
    out += ["", "Predicted saving of 0x0007 per walk (1 - on/off), the range over the three scenarios "
            "(scaled, memoryless, sliding), and the aging CPU with 0x0003 as a share of one CPU (scaled):", "",
            "| workload | GiB | interval s | saving | false-positive tables | aging CPU, off |",
            "|---|---|---|---|---|---|"]
    for p in model["predictions"]:
        out.append(f"| {p['workload']} | {p['gib']} | {p['interval_s']} | {100 * p['saving'][0]:.1f}% .. "
                   f"{100 * p['saving'][1]:.1f}% | {p['scaled']['false_positive_tables']:.0f} | "
                   f"{100 * p['scaled']['cpu_share_off']:.3f}% |")
    out += ["", "Intervals: " + "; ".join(f"{iv} s, {why}" for iv, why in INTERVALS) + ".", "",
            "Assumptions:", ""] + [f"- {a}" for a in model["assumptions"]]
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(__doc__, file=sys.stderr)
        return 2
    summary, model = build(argv[1])
    if model is None:
        print("model.py: no growth sweep in summary.json: no model", file=sys.stderr)
        return 0
    with open(os.path.join(argv[1], "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    with open(os.path.join(argv[1], "model.md"), "w") as f:
        f.write(markdown(model))
    e = model["error"]
    print(f"model.py: wrote {argv[1]}/model.md and summary.json's model: "
          + ", ".join(f"{k} error median {100 * v['median_abs']:.1f}% max {100 * v['max_abs']:.1f}% ({v['n']})"
                      for k, v in e.items() if v))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
