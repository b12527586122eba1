#!/usr/bin/env python3
"""How long 'make test' took, step by step, and whether a cold run fits.

usage:
  timing.py report RESDIR     print RESDIR/times as a table (start, length,
                              weight of every step and boot), the run's
                              wall time, and an estimate of a cold run;
                              write RESDIR/timing.json; warn (exit 0) when
                              the estimate passes the budget

scripts/test.sh writes RESDIR/times ('NAME START END STATUS WEIGHT', one
line per item that ran, seconds since the epoch) and RESDIR/run-info
('cold yes|no', 'slots N', 'cpus N'). A run is cold when $CACHE had no
ccache when it started: then every kernel, QEMU and package is built or
fetched, as on CI's fresh machine.

The cold estimate of a warm run starts from the last published cold run
(results/timing.json, 'cold'): each step counts with the longer of its
cold time there and its time now (a step that got slower, even with warm
caches, makes a cold run slower too), a step the cold run did not have
counts with its time now, and the sum is scaled by that cold run's ratio
of wall time to summed step time (how much of it ran side by side). A
cold run's estimate is its own wall time.

CI runs on whichever machine of the lab's kind the submitter had, and
those differ in speed: the same builds took 1.7 to 2.8 times as long on
one as on another (issue 45). So the budget is held on a slow machine,
one SLOWER (1.7) times slower than the fastest seen: a cold run has to
fit 45 minutes there. How fast the measuring machine was is read off its
cold builds (qemu-build and kernel-build, which start from empty caches
and do the same work every time) against the fastest seen
(FAST_BUILDS_S, the cold run of 2026-12-02): the estimate is scaled by
SLOWER times that ratio, and never by less than 1. A cold run measured
on the fastest machine counts 1.7 times; one on a machine 1.7 times
slower or more counts as it is. A warm run's estimate comes from the
published cold run, and so does its speed. A run without those builds
(a crafted one) counts as measured on the fastest machine.
"""
import json
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUBLISHED = os.path.join(TOP, "results", "timing.json")
BUDGET_MIN = 45
SLOWER = 1.7
# qemu-build + kernel-build of the cold run of 2026-12-02 (8c70dbe):
# 342 + 256 s, the fastest machine of the lab's kind seen
FAST_BUILDS_S = 598
BUILDS = ("qemu-build", "kernel-build")


def slow_factor(run):
    """How much longer the run's estimate would be on the slow machine,
    and why: SLOWER times the fastest machine's builds over this one's."""
    st = run.get("steps") or {}
    if not all(b in st for b in BUILDS):
        return SLOWER, "no cold builds to tell this machine's speed: taken as the fastest seen"
    builds = sum(st[b][1] for b in BUILDS)
    f = max(1.0, SLOWER * FAST_BUILDS_S / builds) if builds > 0 else SLOWER
    return f, (f"this machine's cold builds took {mmss(builds)} against {mmss(FAST_BUILDS_S)} on the "
               f"fastest seen ({builds / FAST_BUILDS_S:.2f}x)")


def mmss(s):
    return f"{int(s) // 60}:{int(s) % 60:02d}"


def read_run(resdir):
    items = []
    with open(os.path.join(resdir, "times")) as f:
        for line in f:
            w = line.split()
            if len(w) != 5:
                continue
            items.append({"name": w[0], "start": int(w[1]), "end": int(w[2]),
                          "status": w[3], "weight": int(w[4])})
    info = {}
    path = os.path.join(resdir, "run-info")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                k, _, v = line.strip().partition(" ")
                info[k] = v
    if not items:
        raise ValueError(f"{resdir}/times lists no step")
    t0 = min(i["start"] for i in items)
    t1 = max(i["end"] for i in items)
    return {
        "cold": info.get("cold") == "yes",
        "slots": int(info.get("slots", 0) or 0),
        "cpus": int(info.get("cpus", 0) or 0),
        "commit": info.get("commit", ""),
        "date": info.get("date", ""),
        "target": info.get("target", "test"),
        "wall_s": t1 - t0,
        "steps": {i["name"]: [i["start"] - t0, i["end"] - i["start"], i["status"], i["weight"]]
                  for i in items},
    }


def estimate(run, published):
    """Minutes a cold run of this plan would take, and how that was found."""
    if run.get("target", "test") != "test":
        return None, f"the published runs are make test's, this is make {run['target']}"
    if run["cold"]:
        return run["wall_s"] / 60, "this run was cold"
    cold = (published or {}).get("cold")
    if not cold or not cold.get("steps"):
        return None, "no cold run is published in results/timing.json"
    cs = {k: v[1] for k, v in cold["steps"].items()}
    total = sum(cs.values())
    if total <= 0:
        return None, "the published cold run has no step time"
    now = {k: v[1] for k, v in run["steps"].items()}
    est_sum = sum(max(cs.get(k, 0), t) for k, t in now.items())
    # Steps of the cold run this plan no longer has are left out.
    new = sorted(k for k in now if k not in cs)
    slower = sorted(k for k in now if k in cs and now[k] > cs[k] + 30)
    est = cold["wall_s"] * est_sum / total / 60
    how = (f"from the cold run of {cold.get('date', '?')} ({cold['wall_s'] / 60:.0f} min wall, "
           f"{total / 60:.0f} min of steps)")
    if new:
        how += f"; not in it: {', '.join(new)}"
    if slower:
        how += f"; slower now: {', '.join(slower)}"
    return est, how


def report(resdir):
    run = read_run(resdir)
    published = None
    if os.path.exists(PUBLISHED):
        with open(PUBLISHED) as f:
            published = json.load(f)
    steps = sorted(run["steps"].items(), key=lambda kv: kv[1][0])
    print(f"--- time: {len(steps)} steps and boots, {'cold' if run['cold'] else 'warm'} caches, "
          f"up to {run['slots']} slots on {run['cpus']} CPUs")
    print(f"    {'start':>6} {'length':>7} {'slots':>5}  step")
    for name, (start, length, status, weight) in steps:
        mark = "" if status == "pass" else f"  ({status})"
        print(f"    {mmss(start):>6} {mmss(length):>7} {weight:>5}  {name}{mark}")
    busy = sum(v[1] for v in run["steps"].values())
    print(f"    wall {mmss(run['wall_s'])}, steps summed {mmss(busy)}")
    longest = sorted(run["steps"].items(), key=lambda kv: -kv[1][1])[:5]
    print("    longest: " + ", ".join(f"{k} {mmss(v[1])}" for k, v in longest))
    est, how = estimate(run, published)
    run["cold_estimate_min"] = None if est is None else round(est, 1)
    with open(os.path.join(resdir, "timing.json"), "w") as f:
        json.dump(run, f, indent=1)
        f.write("\n")
    if est is None:
        print(f"    cold estimate: none ({how})")
        return 0
    cold = run if run["cold"] else (published or {}).get("cold") or {}
    f, why = slow_factor(cold)
    slow = est * f
    here = "here" if run["cold"] else "on the published cold run's machine"
    print(f"    cold estimate: {est:.0f} min {here}, {slow:.0f} min on a machine {SLOWER}x slower than "
          f"the fastest seen ({why}); budget {BUDGET_MIN} there ({how})")
    if slow > BUDGET_MIN:
        print(f"warning: a cold 'make test' would take about {est:.0f} minutes {here} and {slow:.0f} "
              f"on a machine of this kind {SLOWER}x slower than the fastest seen, over the "
              f"{BUDGET_MIN}-minute budget (CI's limit is 90): see the longest steps above",
              file=sys.stderr)
    return 0


def main(argv):
    if len(argv) == 2 and argv[0] == "report":
        try:
            return report(argv[1])
        except (OSError, ValueError) as e:
            print(f"timing: {e}", file=sys.stderr)
            return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
