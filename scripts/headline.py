#!/usr/bin/env python3
"""Print the headline from a guest console log that ran lru_gen_nonleaf:
the cold-set aging walks with non-leaf young off (0x0003) and on (0x0007),
leaf entries visited (exact, the walk's own counter) and walk time
(median and range; TCG, indicative only).

usage: headline.py LOG
"""
import re
import statistics
import sys

WALK = re.compile(r"^# (off|on) cold \(round \d+\)\s+\d+->\d+: visited\s+(\d+) .*?\s([\d.]+) ms")


def main():
    walks = {"off": [], "on": []}
    with open(sys.argv[1], errors="replace") as f:
        for line in f:
            m = WALK.match(line)
            if m:
                walks[m.group(1)].append((int(m.group(2)), float(m.group(3))))
    if not walks["off"] or not walks["on"]:
        print("headline: no cold-set walks with both settings in " + sys.argv[1])
        return 1
    print("Aging a cold working set (lru_gen_nonleaf, first run in the log)")
    print("| non-leaf young | walks | leaf entries visited | walk time median (min..max) |")
    print("|---|---|---|---|")
    rows = {}
    for k, label in (("off", "off (0x0003)"), ("on", "on (0x0007)")):
        w = walks[k][:3]
        v = sorted({x[0] for x in w})
        t = [x[1] for x in w]
        rows[k] = (statistics.median(x[0] for x in w), statistics.median(t))
        print(f"| {label} | {len(w)} | {', '.join(f'{x:,}' for x in v)} | "
              f"{statistics.median(t):.1f} ms ({min(t):.1f}..{max(t):.1f}) |")
    (voff, toff), (von, ton) = rows["off"], rows["on"]
    if voff:
        print(f"leaf entries visited: {100 * (1 - von / voff):.1f}% fewer; "
              f"walk time: {100 * (1 - ton / toff):.1f}% less (median, emulated)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
