#!/usr/bin/env python3
"""Runs commands alternately and reports medians of wall time, CPU time and peak RSS.

Usage: measure.py --runs N --baseline NAME --spec spec.json [--warm-mib N]
spec.json: [{"name": "...", "cmd": [...], "before": [...optional cleanup cmd...], "apart": false}, ...]
Each round runs every command once, in order, so caches and disk write-back affect all alike.
Commands marked "apart" run in rounds of their own after all the others' rounds (a command
that leaves the file system slower for what follows it, without being what is compared).
--warm-mib N touches N MiB of fresh memory, and gives it back, right before each timed command.
On a virtual machine whose free memory goes back to the host (a balloon with free page
reporting), the first write to a page the host took back costs several times an ordinary one:
seen here, the same 5,000 16 KiB file writes took 66 ms, or 190-230 ms once they reached such
pages. Which command of a round meets them is luck, and it dominated the ratios of small-file
rows; the warm-up gives every command pages the host backs, as on a machine without a balloon.
--alternate runs every second round in the reverse order: a command's place in the round
moves its times (bench/queue-ab saw 17 ms between two runs of one build side by side), and
two builds compared take each place as often.
Prints a Markdown table with ratios to the baseline and writes JSON next to it if --json is given.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


# Peak RSS is read through GNU time (see run_once).
GNU_TIME = "/usr/bin/time"

# The warm-up, run as a child process (see warm).
WARM_CHILD = """
import mmap, sys
mib = int(sys.argv[1])
chunk = bytes(1 << 20)
region = mmap.mmap(-1, mib << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
for _ in range(mib):
    region.write(chunk)
"""


def warm(mib):
    """Writes every page of MiB MiB of anonymous memory once, then gives it back, in a child
    process: the peak RSS of this process would otherwise pass to every command it starts."""
    if mib <= 0:
        return
    subprocess.run([sys.executable, "-c", WARM_CHILD, str(mib)], check=True)


def run_once(cmd, before, warm_mib):
    """Runs cmd once; returns wall and CPU seconds, peak RSS in MiB and the exit status.

    The peak RSS comes from GNU time, which starts cmd from its own small process: a
    process this one starts directly would report at least this Python's own peak, which
    Linux passes on through fork and exec (about 13 MiB, more than curl needs)."""
    if before:
        subprocess.run(before, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    warm(warm_mib)
    with tempfile.NamedTemporaryFile("r") as peak:
        start = time.monotonic()
        proc = subprocess.Popen([GNU_TIME, "-q", "-f", "%M", "-o", peak.name, *cmd],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        code = os.waitstatus_to_exitcode(status)
        rss_kib = int(peak.read().split()[-1]) if code == 0 else 0
    return wall, usage.ru_utime + usage.ru_stime, rss_kib / 1024.0, code


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", required=True)
    parser.add_argument("--spec", required=True)
    parser.add_argument("--title", default="")
    parser.add_argument("--json")
    parser.add_argument("--warm-mib", type=int, default=0)
    parser.add_argument("--alternate", action="store_true")
    args = parser.parse_args()
    with open(args.spec) as handle:
        spec = json.load(handle)
    results = {entry["name"]: [] for entry in spec}
    together = [entry for entry in spec if not entry.get("apart")]
    apart = [entry for entry in spec if entry.get("apart")]
    for group in (together, apart):
        for round_index in range(args.runs if group else 0):
            order = list(reversed(group)) if args.alternate and round_index % 2 else group
            for entry in order:
                wall, cpu, rss, code = run_once(entry["cmd"], entry.get("before"), args.warm_mib)
                if code != 0:
                    print(f"{entry['name']} failed with exit status {code} in round {round_index + 1}", file=sys.stderr)
                    sys.exit(1)
                results[entry["name"]].append((wall, cpu, rss))
                print(f"  round {round_index + 1} {entry['name']:<12} wall {wall:7.3f} s  cpu {cpu:7.3f} s  rss {rss:7.1f} MiB", file=sys.stderr)
    medians = {}
    for name, samples in results.items():
        medians[name] = tuple(statistics.median(s[i] for s in samples) for i in range(3))
    base = medians[args.baseline]
    if args.title:
        print(f"\n{args.title} (medians of {args.runs} runs)\n")
    print("| tool | wall s | CPU s | peak RSS MiB | wall / %s | CPU / %s | RSS / %s |" % ((args.baseline,) * 3))
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, (wall, cpu, rss) in medians.items():
        print(f"| {name} | {wall:.3f} | {cpu:.3f} | {rss:.1f} | {wall / base[0]:.2f} | {cpu / base[1] if base[1] else 0:.2f} | {rss / base[2]:.2f} |")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({name: {"wall": m[0], "cpu": m[1], "rss_mib": m[2]} for name, m in medians.items()}, handle, indent=2)


if __name__ == "__main__":
    main()
