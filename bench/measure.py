#!/usr/bin/env python3
"""Runs commands alternately and reports medians of wall time, CPU time and peak RSS.

Usage: measure.py --runs N --baseline NAME --spec spec.json
spec.json: [{"name": "...", "cmd": [...], "before": [...optional cleanup cmd...]}, ...]
Each round runs every command once, in order, so caches and disk write-back affect all alike.
Prints a Markdown table with ratios to the baseline and writes JSON next to it if --json is given.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def run_once(cmd, before):
    if before:
        subprocess.run(before, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, code


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", required=True)
    parser.add_argument("--spec", required=True)
    parser.add_argument("--title", default="")
    parser.add_argument("--json")
    args = parser.parse_args()
    with open(args.spec) as handle:
        spec = json.load(handle)
    results = {entry["name"]: [] for entry in spec}
    for round_index in range(args.runs):
        for entry in spec:
            wall, cpu, rss, code = run_once(entry["cmd"], entry.get("before"))
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
