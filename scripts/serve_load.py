#!/usr/bin/env python3
"""Open-loop load on `table serve`'s position lookup, from this machine (loopback only).

Requests are scheduled at a fixed rate and each latency is measured from its scheduled send time,
so a stall of the server shows in the figures instead of slowing the load (no coordinated
omission). Several threads, each with its own keep-alive connection, take the scheduled requests in
turn. Boards are random walks from the goal, drawn from a fixed seed.

    scripts/serve_load.py --url http://127.0.0.1:8226 --shape 3x3 --rate 200 --seconds 20
"""

import argparse
import http.client
import json
import random
import statistics
import sys
import threading
import time
import urllib.parse


def walk_boards(shape, count, seed, steps=400):
    rows, cols = (int(x) for x in shape.split("x"))
    n = rows * cols
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        cells = list(range(1, n)) + [0]
        blank = n - 1
        for _ in range(steps):
            r, c = divmod(blank, cols)
            options = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                       if 0 <= r + dr < rows and 0 <= c + dc < cols]
            nr, nc = rng.choice(options)
            to = nr * cols + nc
            cells[blank], cells[to] = cells[to], cells[blank]
            blank = to
        boards.append(" ".join(map(str, cells)))
    return boards


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", required=True, help="the server, http://127.0.0.1:PORT")
    ap.add_argument("--shape", default="3x3")
    ap.add_argument("--rate", type=float, default=200.0, help="requests per second")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = ap.parse_args()

    url = urllib.parse.urlparse(args.url)
    if url.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("serve_load.py sends traffic to this machine only (127.0.0.1)")
    host = f"{url.hostname}:{url.port}"
    boards = walk_boards(args.shape, 1000, args.seed)
    total = int(args.rate * args.seconds)
    interval = 1.0 / args.rate
    next_index = 0
    lock = threading.Lock()
    latencies = []
    errors = []
    start = time.perf_counter() + 0.2

    def worker():
        nonlocal next_index
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        while True:
            with lock:
                i = next_index
                next_index += 1
            if i >= total:
                break
            due = start + i * interval
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            body = json.dumps({"board": boards[i % len(boards)], "shape": args.shape})
            try:
                conn.request("POST", "/api/position", body,
                             {"Host": host, "Content-Type": "application/json"})
                res = conn.getresponse()
                data = res.read()
                done = time.perf_counter()
                if res.status != 200 or b'"distance"' not in data:
                    with lock:
                        errors.append(f"{res.status}: {data[:200]!r}")
                else:
                    with lock:
                        latencies.append(done - due)
            except OSError as e:
                with lock:
                    errors.append(repr(e))
                conn.close()
                conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        conn.close()

    threads = [threading.Thread(target=worker) for _ in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    lat = sorted(latencies)

    def pct(p):
        return lat[min(len(lat) - 1, int(p / 100 * len(lat)))] * 1000 if lat else float("nan")

    figures = {
        "shape": args.shape, "rate": args.rate, "requests": total, "ok": len(lat), "errors": len(errors),
        "throughput": len(lat) / elapsed, "p50_ms": pct(50), "p90_ms": pct(90), "p99_ms": pct(99),
        "max_ms": lat[-1] * 1000 if lat else float("nan"),
        "mean_ms": statistics.fmean(lat) * 1000 if lat else float("nan"),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{args.shape} at {args.rate:.0f}/s for {args.seconds:.0f} s: {len(lat)} ok, {len(errors)} errors, "
              f"{figures['throughput']:.0f}/s; p50 {figures['p50_ms']:.2f} ms, p90 {figures['p90_ms']:.2f} ms, "
              f"p99 {figures['p99_ms']:.2f} ms, max {figures['max_ms']:.2f} ms")
    for e in errors[:5]:
        print("error:", e, file=sys.stderr)


if __name__ == "__main__":
    main()
