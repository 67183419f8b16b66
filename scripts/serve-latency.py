#!/usr/bin/env python3
"""How long `replay serve` takes to answer moments of a journal (docs/BENCHMARKS.md).

    serve-latency.py --replay PATH [--moments N] [--seed S] JOURNAL

Starts `replay serve JOURNAL` on a free loopback port, asks once for the first moment (which
also makes the journal's call and switch index), then for N moments chosen at random (seeded)
over the whole journal asks `/j/0/state?at=SEQ` (the bytes `replay state --at` prints) and
`/j/0/moment?at=SEQ` (fact, state, diff, audit row, steps), one request at a time, each timed
from opening the connection to reading the last byte of the answer. Prints the median, 95th
percentile and maximum of each in milliseconds.
"""
import argparse
import http.client
import json
import random
import statistics
import subprocess
import sys
import time


def timed(port, path):
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    if response.status != 200:
        raise SystemExit(f"serve-latency: GET {path} answered {response.status}: {body[:200]!r}")
    return elapsed, body


def summary(name, values):
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return f"{name}: median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms over {len(ordered)} moments"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replay", required=True)
    parser.add_argument("--moments", type=int, default=200)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("journal")
    arguments = parser.parse_args()
    server = subprocess.Popen([arguments.replay, "serve", arguments.journal], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        first_ms, body = timed(port, "/j/0/moment?at=1")
        bounds = json.loads(body)
        first, last = bounds["first_seq"], bounds["last_seq"]
        print(f"serve-latency: seq {first}..{last}; the first moment (making the call/switch index) {first_ms:.0f} ms")
        generator = random.Random(arguments.seed)
        moments = [generator.randint(first, last) for _ in range(arguments.moments)]
        states = [timed(port, f"/j/0/state?at={seq}")[0] for seq in moments]
        answers = [timed(port, f"/j/0/moment?at={seq}")[0] for seq in moments]
        print("serve-latency: " + summary("state", states))
        print("serve-latency: " + summary("moment", answers))
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
