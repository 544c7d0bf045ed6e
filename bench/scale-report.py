#!/usr/bin/env python3
"""The table and SVG chart of bench/scale-curve.sh, from its runs.tsv (medians over rounds)."""
import re
import statistics
import sys
from collections import defaultdict

results, loads, started, rounds, cores, ansible, java, svg_path = sys.argv[1:9]
FIELDS = ("wall", "user", "sys", "maxrss", "rss", "procs", "threads", "fds")
runs = defaultdict(list)
order = []
for line in open(results):
    parts = line.rstrip("\n").split("\t")
    key = (int(parts[1]), parts[0])
    if key not in runs:
        order.append(key)
    run = dict(zip(FIELDS, map(float, parts[3:11])))
    run["ok"] = parts[11] == "ok" if len(parts) > 11 else True
    runs[key].append(run)
load = defaultdict(dict)
for line in open(loads):
    n, when, value = line.split()
    load[int(n)][when] = value


def med(key, field):
    return statistics.median(r[field] for r in runs[key])


def cpu(key):
    return statistics.median(r["user"] + r["sys"] for r in runs[key])


print(f"audit cost on the control node, scale lab, {started}; {rounds} round(s), tools alternating")
print(f"machine: {cores} cores; {ansible}; {java}")
print("wall and CPU (user+sys of the whole process tree) are medians; RSS, threads, open files and processes are")
print("peaks of the tree's sums sampled every 0.2 s; CPU/host = CPU / N")
print()
print(f"{'tool':<20}{'N':>5}{'wall s':>9}{'CPU s':>8}{'CPU/host':>10}{'RSS MiB':>9}{'procs':>7}{'threads':>9}{'fds':>7}")
by_n = defaultdict(list)
for key in order:
    by_n[key[0]].append(key)
for n in sorted(by_n):
    for key in by_n[n]:
        c = cpu(key)
        print(f"{key[1]:<20}{n:>5}{med(key, 'wall'):>9.2f}{c:>8.2f}{c / n * 1000:>8.1f}ms"
              f"{max(r['rss'] for r in runs[key]) / 1024:>9.0f}{max(r['procs'] for r in runs[key]):>7.0f}"
              f"{max(r['threads'] for r in runs[key]):>9.0f}{max(r['fds'] for r in runs[key]):>7.0f}"
              + ("" if all(r["ok"] for r in runs[key]) else "  FAILED: not every host reached"))
    if "not installed" in ansible:
        print(f"{'ansible-playbook':<20}{n:>5}  not installed")
    print(f"    load average (1/5/15 min) at start {load[n].get('start', '?')}, at end {load[n].get('end', '?')}")
print()
# marginal CPU per host between the smallest and largest N, per tool present at both
ns = sorted(by_n)
if len(ns) > 1:
    lo, hi = ns[0], ns[-1]
    print(f"marginal CPU per host between N={lo} and N={hi} (slope), and the intercept (fixed cost per run):")
    for key in by_n[hi]:
        low_key = (lo, re.sub(r"^ssh-x\d+$", f"ssh-x{lo}", key[1]))
        if low_key in runs:
            slope = (cpu(key) - cpu(low_key)) / (hi - lo)
            print(f"  {key[1]:<20}{slope * 1000:>8.1f} ms/host {cpu(low_key) - slope * lo:>8.2f} s fixed")

# --- SVG: wall time and CPU against N, one line per tool --------------------------------------------------
series = defaultdict(dict)
for (n, tool) in runs:
    series[re.sub(r"^ssh-x\d+$", "ssh (N at once)", tool)][n] = (med((n, tool), "wall"), cpu((n, tool)))
colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"]
W, H, PAD = 420, 300, 50
xmax = max(ns)
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W + 200}" height="{H + 60}" font-family="sans-serif"'
       f' font-size="11">', f'<text x="10" y="16" font-size="13">fleetfix audit vs ansible-playbook vs ssh, scale'
       f' lab, {started}, {cores} cores</text>']
for panel, (title, idx) in enumerate((("wall time (s)", 0), ("control-node CPU, user+sys (s)", 1))):
    ox = panel * W
    ymax = max(v[idx] for s in series.values() for v in s.values()) * 1.1 or 1
    out.append(f'<text x="{ox + PAD}" y="36">{title}</text>')
    out.append(f'<line x1="{ox + PAD}" y1="{H}" x2="{ox + W - 10}" y2="{H}" stroke="black"/>')
    out.append(f'<line x1="{ox + PAD}" y1="{H}" x2="{ox + PAD}" y2="44" stroke="black"/>')
    for i in range(5):
        y = ymax * i / 4
        py = H - (H - 44) * i / 4
        out.append(f'<text x="{ox + PAD - 5}" y="{py + 4}" text-anchor="end">{y:.0f}</text>')
    for n in ns:
        px = ox + PAD + (W - PAD - 10) * n / xmax
        out.append(f'<text x="{px}" y="{H + 14}" text-anchor="middle">{n}</text>')
    for c, (name, points) in enumerate(sorted(series.items())):
        pts = " ".join(f"{ox + PAD + (W - PAD - 10) * n / xmax:.1f},{H - (H - 44) * v[idx] / ymax:.1f}"
                       for n, v in sorted(points.items()))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colours[c % len(colours)]}" stroke-width="2"/>')
out.append(f'<text x="{W}" y="{H + 34}" text-anchor="middle">hosts (N)</text>')
for c, name in enumerate(sorted(series)):
    out.append(f'<rect x="{2 * W + 10}" y="{50 + c * 18}" width="12" height="12" fill="{colours[c % len(colours)]}"/>')
    out.append(f'<text x="{2 * W + 28}" y="{60 + c * 18}">{name}</text>')
out.append("</svg>")
with open(svg_path, "w") as f:
    f.write("\n".join(out) + "\n")
print(f"\nchart: target/bench/{svg_path.rsplit('/', 1)[-1]}")
