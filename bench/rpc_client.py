#!/usr/bin/env python3
"""The client side of bench/rpc: aria2 JSON-RPC over HTTP, standard library only.

  add      URL SECRET LIST DIR       addUri of every URL of LIST (one per line), in batches
  wait     URL SECRET ACTIVE WAITING until getGlobalStat shows ACTIVE active tasks or more
                                     and ACTIVE + WAITING active and waiting ones
  poll     URL SECRET PID ROUNDS OUT [GID]
                                     an AriaNg-shaped poll once a second; results as JSON in
                                     OUT; with GID, that task paused and resumed before each round
  single   URL SECRET CALLS OUT      tellStatus of one waiting task and tellActive, every key,
                                     CALLS times each, one call after another; latencies to OUT
  activity SOCKET PID SECONDS OUT    ferry.activity every 250 ms over a Unix socket; daemon CPU
  table    NAME=OUT...               the latency tables of poll results
  compare  FERRY ARIA2 KIB KIB       both daemons' rows, the ratios and the targets
  rss      PID                       the peak RSS (VmHWM) of PID so far, in KiB

A poll round is what AriaNg's pages ask every second (its default refresh interval): the
global figures, then the three task lists with the keys of AriaNg's full task parameters
(aria2RpcService getFullTaskParams), one call after another on one keep-alive connection,
as a browser sends them. A call's latency runs from sending the request to the last byte of
the answer; parsing the JSON afterwards is the client's cost and is not counted.
"""
import http.client
import json
import math
import os
import socket
import sys
import time
from urllib.parse import urlsplit

# AriaNg's basic task keys plus those it adds for a full task (files, bittorrent, infoHash).
KEYS = ["gid", "totalLength", "completedLength", "uploadSpeed", "downloadSpeed", "connections",
        "numSeeders", "seeder", "status", "errorCode", "verifiedLength", "verifyIntegrityPending",
        "files", "bittorrent", "infoHash"]

# The calls of one poll round: (label, method, params after the token).
ROUND = [
    ("getGlobalStat", "aria2.getGlobalStat", []),
    ("tellActive", "aria2.tellActive", [KEYS]),
    ("tellWaiting 0 1000", "aria2.tellWaiting", [0, 1000, KEYS]),
    ("tellStopped -1 1000", "aria2.tellStopped", [-1, 1000, KEYS]),
]

TICKS = os.sysconf("SC_CLK_TCK")


class UnixConnection(http.client.HTTPConnection):
    """`UnixConnection` speaks HTTP/1.1 over a Unix socket (control.sock)."""

    def __init__(self, path):
        super().__init__("localhost")
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.path)


class Client:
    """`Client` sends JSON-RPC requests on one keep-alive connection."""

    def __init__(self, url=None, secret=None, unix=None):
        if unix:
            self.connection = UnixConnection(unix)
        else:
            parts = urlsplit(url)
            self.connection = http.client.HTTPConnection(parts.hostname, parts.port)
        self.token = [f"token:{secret}"] if secret else []
        self.next_id = 0

    def request(self, body):
        """Sends one body; returns the answer's bytes and the seconds it took."""
        data = json.dumps(body).encode()
        start = time.perf_counter()
        self.connection.request("POST", "/jsonrpc", data, {"Content-Type": "application/json"})
        response = self.connection.getresponse()
        answer = response.read()
        elapsed = time.perf_counter() - start
        if response.status != 200:
            sys.exit(f"HTTP {response.status}: {answer[:200]!r}")
        return answer, elapsed

    def body(self, method, params):
        self.next_id += 1
        return {"jsonrpc": "2.0", "id": str(self.next_id), "method": method, "params": self.token + params}

    def call(self, method, params=()):
        """Calls one method; returns its result, the answer's size and the seconds it took."""
        answer, elapsed = self.request(self.body(method, list(params)))
        reply = json.loads(answer)
        if "error" in reply:
            sys.exit(f"{method}: {reply['error']}")
        return reply["result"], len(answer), elapsed


def cpu_ticks(pid):
    """`cpu_ticks` is utime + stime of the process (all its threads), in clock ticks."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def status_kib(pid, name):
    """`status_kib` is a `kB` line of /proc/PID/status (VmHWM: the peak RSS; VmRSS: now)."""
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(name + ":"):
                return int(line.split()[1])
    return 0


def add(url, secret, listing, directory, batch=500):
    """addUri of each URL of `listing`, each saved as `out` = its last path segment plus its
    line number, in JSON-RPC batches of `batch` calls (aria2 and Ferry both answer batches)."""
    client = Client(url, secret)
    with open(listing) as handle:
        urls = [line.strip() for line in handle if line.strip()]
    start = time.monotonic()
    for first in range(0, len(urls), batch):
        calls = [client.body("aria2.addUri", [[u], {"dir": directory, "out": f"f{first + i}"}])
                 for i, u in enumerate(urls[first:first + batch])]
        answer, _ = client.request(calls)
        replies = json.loads(answer)
        failed = [r["error"] for r in replies if "error" in r]
        if failed:
            sys.exit(f"addUri failed: {failed[0]}")
    print(f"{time.monotonic() - start:.2f}")


def wait(url, secret, active, waiting, timeout=120):
    """Waits until getGlobalStat shows `active` running tasks or more, and `active` +
    `waiting` active and waiting ones."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            stat, _, _ = Client(url, secret).call("aria2.getGlobalStat")
        except OSError:  # not listening yet
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
            continue
        running, queued = int(stat["numActive"]), int(stat["numWaiting"])
        # Ferry's scheduler hands a few tasks beyond the limit to its engine ahead of need
        # (they start the moment a slot frees): the journal, and so RPC, counts them active.
        if running >= active and running + queued == active + waiting:
            return
        if time.monotonic() > deadline:
            sys.exit(f"after {timeout} s: {stat['numActive']} active, {stat['numWaiting']} waiting; "
                     f"expected {active} and {waiting}")
        time.sleep(0.2)


def poll(url, secret, pid, rounds, out, change=None, warm=2):
    """`rounds` poll rounds, one a second (after `warm` rounds not counted); the latencies,
    answer sizes, the daemon's CPU during the counted rounds and its peak RSS go to `out`.
    With `change` (a GID of a waiting task), that task is paused and queued again before
    each round (not timed): every round then follows a change of the queue, as when
    downloads end one after another, and finds nothing the daemon kept from the round before."""
    client = Client(url, secret)
    other = Client(url, secret)
    latencies = {label: [] for label, _, _ in ROUND}
    sizes = {label: 0 for label, _, _ in ROUND}
    counts = {}
    ticks_before = None
    start = time.monotonic()
    for index in range(warm + rounds):
        if index == warm:
            ticks_before, start = cpu_ticks(pid), time.monotonic()
        due = start + (index - warm if index >= warm else index)
        time.sleep(max(0.0, due - time.monotonic()))
        if change:
            other.call("aria2.pause", [change])
            other.call("aria2.unpause", [change])
        for label, method, params in ROUND:
            result, size, elapsed = client.call(method, params)
            if index >= warm:
                latencies[label].append(elapsed)
            sizes[label] = size
            counts[label] = len(result) if isinstance(result, list) else result
    # The last round ends the window: the rest of its second is idle for both daemons.
    window = time.monotonic() - start
    ticks = cpu_ticks(pid) - ticks_before
    result = {"latencies": latencies, "sizes": sizes, "counts": counts, "cpu_s": ticks / TICKS,
              "window_s": window, "rss_peak_kib": status_kib(pid, "VmHWM"), "rss_kib": status_kib(pid, "VmRSS")}
    with open(out, "w") as handle:
        json.dump(result, handle)


def single(url, secret, calls, out, warm=50):
    """Single calls on one kept connection, as a script or a front end's detail page asks:
    `tellStatus` of one waiting task (every key: no key list) and `tellActive` (every key),
    alternately, `calls` times each after `warm` of each not counted."""
    client = Client(url, secret)
    waiting, _, _ = client.call("aria2.tellWaiting", [0, 1, ["gid"]])
    gid = waiting[0]["gid"]
    plan = [("tellStatus (a waiting task)", "aria2.tellStatus", [gid]), ("tellActive", "aria2.tellActive", [])]
    latencies = {label: [] for label, _, _ in plan}
    sizes, counts = {}, {}
    for index in range(warm + calls):
        for label, method, params in plan:
            result, size, elapsed = client.call(method, params)
            if index >= warm:
                latencies[label].append(elapsed)
            sizes[label] = size
            counts[label] = len(result) if isinstance(result, list) else "figures"
    with open(out, "w") as handle:
        json.dump({"latencies": latencies, "sizes": sizes, "counts": counts}, handle)


def single_compare(ferry_path, aria2_path):
    """Prints each call's p50 for both daemons and ferry's ratio to aria2c's (target <= 1.0)."""
    with open(ferry_path) as handle:
        f = json.load(handle)
    with open(aria2_path) as handle:
        a = json.load(handle)
    print("| call | aria2c p50 ms | ferry p50 ms | ferry / aria2c |")
    print("|---|---:|---:|---:|")
    for label in f["latencies"]:
        fp, ap = percentile(f["latencies"][label], 0.5), percentile(a["latencies"][label], 0.5)
        print(f"| {label} | {1000 * ap:.3f} | {1000 * fp:.3f} | {fp / ap:.2f} (target <= 1.0: {'ok' if fp <= ap else 'MISSED'}) |")


def activity(socket_path, pid, seconds, out, interval=0.25):
    """ferry.activity every `interval` s for `seconds` over `socket_path`, as the terminal UI
    follows a daemon; the daemon's CPU over that time goes to `out`."""
    client = Client(unix=socket_path)
    result, _, _ = client.call("ferry.activity")
    since = result["next"]
    calls = 0
    before, start = cpu_ticks(pid), time.monotonic()
    while time.monotonic() - start < seconds:
        time.sleep(interval)
        result, _, _ = client.call("ferry.activity", [since])
        since = result["next"]
        calls += 1
    window = time.monotonic() - start
    ticks = cpu_ticks(pid) - before
    with open(out, "w") as handle:
        json.dump({"ticks": ticks, "hz": TICKS, "window_s": window, "calls": calls}, handle)


def percentile(values, fraction):
    """`percentile` is the nearest-rank percentile: p99 of 30 values is the largest, of 120
    the 119th smallest."""
    ordered = sorted(values)
    return ordered[min(len(ordered), max(1, math.ceil(fraction * len(ordered)))) - 1]


def table(paths):
    """Prints the per-call latencies of each poll result, then the rows compared."""
    results = []
    for path in paths:
        name, file = path.split("=", 1)
        with open(file) as handle:
            results.append((name, json.load(handle)))
    print("| daemon | call | answer | p50 ms | p99 ms | max ms |")
    print("|---|---|---:|---:|---:|---:|")
    for name, r in results:
        everything = []
        for label, values in r["latencies"].items():
            everything += values
            count = r["counts"][label]
            shape = f"{count} tasks" if isinstance(count, int) else "figures"
            print(f"| {name} | {label} | {shape}, {r['sizes'][label] / 1024:.0f} KiB | {1000 * percentile(values, 0.5):.2f} "
                  f"| {1000 * percentile(values, 0.99):.2f} | {1000 * max(values):.2f} |")
        r["all"] = everything
        print(f"| {name} | all {len(everything)} calls | | {1000 * percentile(everything, 0.5):.2f} "
              f"| {1000 * percentile(everything, 0.99):.2f} | {1000 * max(everything):.2f} |")


def compare(ferry_path, aria2_path, ferry_start_kib, aria2_start_kib):
    """Prints ferry's and aria2c's rows with the ratios and the targets. The start RSS is
    each daemon's peak before anything was queued: what the process costs by itself (for
    ferry mostly the pages of its statically linked code it ran), against what the queue and
    the polling added."""
    rows = []
    for name, path, start in (("ferry", ferry_path, ferry_start_kib), ("aria2c", aria2_path, aria2_start_kib)):
        with open(path) as handle:
            r = json.load(handle)
        every = [v for values in r["latencies"].values() for v in values]
        rows.append((name, percentile(every, 0.5), percentile(every, 0.99), r["cpu_s"], r["window_s"],
                     int(start) / 1024, r["rss_peak_kib"] / 1024))
    print("| daemon | p50 ms | p99 ms | CPU s while polled | CPU % of a core | RSS at start MiB | peak RSS MiB | peak - start MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, p50, p99, cpu, window, start, peak in rows:
        print(f"| {name} | {1000 * p50:.2f} | {1000 * p99:.2f} | {cpu:.2f} | {100 * cpu / window:.1f} | {start:.1f} "
              f"| {peak:.1f} | {peak - start:.1f} |")
    f, a = rows
    p99_ratio, rss_ratio = f[2] / a[2], f[6] / a[6]
    added = (f[6] - f[5]) / (a[6] - a[5]) if a[6] > a[5] else 0
    print(f"| ferry / aria2c | {f[1] / a[1]:.2f} | {p99_ratio:.2f} (target <= 0.5: {'ok' if p99_ratio <= 0.5 else 'MISSED'}) "
          f"| {f[3] / a[3] if a[3] else 0:.2f} | | {f[5] / a[5]:.2f} "
          f"| {rss_ratio:.2f} (target <= 0.25: {'ok' if rss_ratio <= 0.25 else 'MISSED'}) | {added:.2f} |")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "add":
        add(args[0], args[1], args[2], args[3])
    elif command == "wait":
        wait(args[0], args[1], int(args[2]), int(args[3]))
    elif command == "poll":
        poll(args[0], args[1], int(args[2]), int(args[3]), args[4], args[5] if len(args) > 5 else None)
    elif command == "single":
        single(args[0], args[1], int(args[2]), args[3])
    elif command == "single-compare":
        single_compare(args[0], args[1])
    elif command == "activity":
        activity(args[0], int(args[1]), float(args[2]), args[3])
    elif command == "table":
        table(args)
    elif command == "compare":
        compare(args[0], args[1], args[2], args[3])
    elif command == "rss":
        print(status_kib(int(args[0]), "VmHWM"))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
