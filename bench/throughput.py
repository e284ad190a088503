#!/usr/bin/env python3
"""Runs downloaders throttled to one rate and reports how smooth and how cheap they are.

Usage: throughput.py --seconds N --rate BYTES --spec spec.json
spec.json: [{"name": "...", "cmd": [...], "files": ["path", ...], "before": [...optional...]}, ...]
Each command runs for N seconds while the sizes of its files (the first that exists: the
partial name, then the final one) are sampled every 50 ms; then its CPU time (user + system,
from /proc/PID/stat) is read and it is interrupted (SIGINT). From the samples: the bytes of
every whole second after the first, their mean, their standard deviation, the seconds
without a byte, and the CPU as a share of one core. Prints a Markdown table and the series.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def size_of(paths):
    for path in paths:
        try:
            return os.stat(path).st_size
        except FileNotFoundError:
            continue
    return 0


def cpu_seconds(pid):
    """User + system seconds of pid and its reaped children, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    # fields[11..14] are utime, stime, cutime, cstime (fields 14-17 of proc(5)).
    return sum(int(value) for value in fields[11:15]) / TICKS


def run(entry, seconds):
    if entry.get("before"):
        subprocess.run(entry["before"], check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    proc = subprocess.Popen(entry["cmd"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    start = time.monotonic()
    samples = []
    while True:
        now = time.monotonic() - start
        samples.append((now, size_of(entry["files"])))
        if now >= seconds or proc.poll() is not None:
            break
        time.sleep(0.05)
    cpu = cpu_seconds(proc.pid) if proc.poll() is None else None
    elapsed = time.monotonic() - start
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()

    def at(t):
        before = [s for (when, s) in samples if when <= t]
        return before[-1] if before else 0

    windows = [at(second + 1) - at(second) for second in range(1, int(seconds))]
    return {"windows": windows, "cpu": cpu, "elapsed": elapsed}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rate", type=int, required=True)
    parser.add_argument("--spec", required=True)
    parser.add_argument("--title", default="Throttled download")
    args = parser.parse_args()
    with open(args.spec) as spec:
        entries = json.load(spec)
    results = {entry["name"]: run(entry, args.seconds) for entry in entries}
    print(f"### {args.title}\n")
    print("| command | mean B/s | std dev of 1 s rates (B/s) | std dev / rate | seconds without a byte | CPU (% of a core) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, result in results.items():
        windows = result["windows"]
        mean = statistics.mean(windows) if windows else 0
        deviation = statistics.pstdev(windows) if windows else 0
        empty = sum(1 for w in windows if w == 0)
        cpu = "-" if result["cpu"] is None else f"{100 * result['cpu'] / result['elapsed']:.2f}"
        print(f"| {name} | {mean:,.0f} | {deviation:,.0f} | {deviation / args.rate:.3f} | {empty} | {cpu} |")
    print()
    for name, result in results.items():
        print(f"{name} 1-second bytes: {' '.join(str(w) for w in result['windows'])}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
