#!/usr/bin/env python3
"""Open-loop load on `table serve`, from this machine only (127.0.0.1), Python's standard library only.

Position lookups (the default): `POST /api/position` with random boards, scheduled at a fixed
rate. Each latency is measured from the request's scheduled send time, so a stall of the server
(or of this client) shows in the figures instead of quietly slowing the load (no coordinated
omission). Worker threads, each with its own keep-alive connection, take the scheduled requests in
turn. Boards are random walks of 400 moves from the goal (1 2 ... 0), drawn from --seed.

With --solve BOARD a 4x4 solve job (`POST /api/jobs/solve`) is started first on a connection of its
own, whose event stream a background thread reads for the whole run; `GET /api/info` is sampled
twice a second to check that a job runs all along (one that finishes is started again at once), and
the job is cancelled at the end.

With --class N, a classroom instead: N students, each with its own client id
(X-Slidetable-Client) and keep-alive connection, each looking a position up every --lookup-every
seconds (0.5, give or take a fifth: a click on one of the moves the last answer listed, on the
--class-shapes boards, 3x3 and 3x4 shared out in turn) and starting the page's default comparison
every --compare-every seconds (60) on a 3x3 board 20 moves out, its stream read to the end, all
beside the --solve job of one more client. Each shape's first lookup (a 3x4 table built in
memory) and the solve's start come first, timed apart. Reported: lookup p50/p99/max from the
scheduled time, the comparisons' waits in the queue (queued to started), 409s (and those to a
student without a job running) and other errors, and the server's peak RSS (--server-pid).

With --page, the page's first load instead: `/`, then every file it references (the stylesheet and
the scripts, and the scripts' own imports), with `Accept-Encoding: gzip, br`, either in turn over
one connection (--page seq) or the way a browser does it (--page par: each wave of references
fetched in parallel over up to 6 connections). Run it against a server that has answered nothing
yet for a cold figure.

    scripts/serve_load.py --url http://127.0.0.1:8226 --shape 3x3 --rate 200 --seconds 20
    scripts/serve_load.py --url http://127.0.0.1:8226 --shape 3x4 --solve "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"
    scripts/serve_load.py --url http://127.0.0.1:8226 --page seq
    scripts/serve_load.py --url http://127.0.0.1:8226 --class 40 --seconds 300 --solve "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"
"""

import argparse
import http.client
import io
import json
import math
import os
import random
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import zlib

ACCEPT = "gzip, br"


def walk_boards(shape, count, seed, steps=400):
    """`count` boards, each a random walk of `steps` blank moves from the goal 1 2 ... 0."""
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


class Target:
    """The server's address, and the headers every request carries."""

    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        if u.scheme != "http" or u.hostname != "127.0.0.1" or not u.port:
            sys.exit(f"serve_load.py: --url must be http://127.0.0.1:PORT (this machine only), not {url}")
        self.port = u.port
        self.host = f"127.0.0.1:{u.port}"

    def connect(self, timeout=30):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def headers(self, extra=None, client=None):
        """The headers of a request, from `client` (its X-Slidetable-Client id) when given."""
        h = {"Host": self.host, "Content-Type": "application/json"}
        if client:
            h["X-Slidetable-Client"] = client
        h.update(extra or {})
        return h

    def call(self, method, path, body=None, timeout=30, client=None):
        """One request on a fresh connection: (status, parsed JSON or raw text)."""
        conn = self.connect(timeout)
        try:
            conn.request(method, path, None if body is None else json.dumps(body), self.headers(client=client))
            res = conn.getresponse()
            data = res.read()
        finally:
            conn.close()
        try:
            return res.status, json.loads(data)
        except ValueError:
            return res.status, data.decode(errors="replace")


def percentile(sorted_values, p):
    """Nearest rank, in milliseconds."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, math.ceil(p / 100 * len(sorted_values)) - 1))
    return sorted_values[k] * 1000


def machine_busy():
    """(busy, total) jiffies of all cores so far (Linux /proc/stat)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:8]]
    return v[0] + v[1] + v[2] + v[5] + v[6], sum(v)


def cpu_seconds(pid):
    """User + system CPU seconds of a process so far (Linux /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


class Solve:
    """A solve job beside the load: its stream read by a thread (a job that ends by itself is
    started again, so one runs all along), `/api/info` sampled by another."""

    def __init__(self, target, board, shape, client="load-solve-job"):
        self.target = target
        self.client = client  # its own client: the server keeps long jobs per client
        self.request = {"board": board, "shape": shape}
        self.status = None
        self.error = None
        self.jobs = 0
        self.progress = 0
        self.last_progress = None
        self.results = []  # (time, result) of each job that finished by itself
        self.done = None
        self.samples = []
        self.stopping = threading.Event()
        self.stop_sampling = threading.Event()
        self.started = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.sampler = threading.Thread(target=self._sample, daemon=True)

    def start(self):
        self.reader.start()
        if not self.started.wait(30) or self.status != 200:
            return False
        # the job holds the slot once its first event is sent; wait for /api/info to show it
        for _ in range(50):
            if self.info_job() is not None:
                break
            time.sleep(0.1)
        self.sampler.start()
        return True

    def _read(self):
        try:
            for _ in range(100):  # jobs in a row: a hard 4x4 takes seconds, a run well under 100 of them
                if self.stopping.is_set() or not self._one_job():
                    break
        finally:
            self.started.set()

    def _one_job(self):
        """Runs one job to its end; whether it finished by itself (then another is started)."""
        conn = self.target.connect(timeout=600)
        try:
            for _ in range(20):  # the last job's slot may take a moment to be released
                conn.request("POST", "/api/jobs/solve", json.dumps(self.request), self.target.headers(client=self.client))
                res = conn.getresponse()
                self.status = res.status
                if res.status != 409 or self.stopping.is_set():
                    break
                res.read()
                time.sleep(0.05)
            if res.status != 200:
                self.error = f"{res.status}: {res.read()[:500]!r}"
                return False
            self.jobs += 1
            self.started.set()
            event = None
            for _ in range(1_000_000):  # four progress events a second: far more than a run needs
                line = res.readline()
                if not line:
                    self.done = ("closed", None)
                    return False
                line = line.decode().rstrip("\r\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                    if event == "progress":
                        self.progress += 1
                        self.last_progress = data
                    elif event == "result":
                        self.results.append((time.perf_counter(), data))
                    elif event in ("done", "error"):
                        self.done = (event, data)
                        return event == "done" and not data.get("cancelled")
            return False
        except (OSError, ValueError, http.client.HTTPException) as e:
            self.error = repr(e)
            return False
        finally:
            conn.close()

    def info_job(self):
        try:
            status, info = self.target.call("GET", "/api/info", timeout=10, client=self.client)
            return info.get("job") if status == 200 and isinstance(info, dict) else "error"
        except OSError:
            return "error"

    def _sample(self):
        while not self.stop_sampling.wait(0.5):
            self.samples.append(self.info_job())

    def finish(self):
        """Stops sampling, cancels the job, waits for its stream to end; the job's figures."""
        self.stopping.set()
        self.stop_sampling.set()
        self.sampler.join(5)
        job_at_end = self.info_job()
        cancel = self.target.call("POST", "/api/jobs/cancel", {}, client=self.client)
        self.reader.join(30)
        return {
            "solve_board": self.request["board"],
            "solve_jobs": self.jobs,
            "solve_job_at_end": job_at_end,
            "solve_info_samples": len(self.samples),
            "solve_info_samples_without_job": sum(1 for s in self.samples if s is None or s == "error"),
            "solve_progress_events": self.progress,
            "solve_last_progress": self.last_progress,
            "solve_results": [r for _, r in self.results],
            "solve_end": self.done,
            "solve_cancel": cancel[1],
            "solve_error": self.error,
        }


def load(args, target):
    boards = walk_boards(args.shape, 1000, args.seed)
    warm = int(args.rate * args.warmup)
    total = warm + int(args.rate * args.seconds)
    interval = 1.0 / args.rate
    lock = threading.Lock()
    next_index = 0
    latencies = []  # from the scheduled send time
    service = []  # from the actual send time
    lags = []  # how late the client sent
    errors = []
    start = time.perf_counter() + 0.2
    measured_from = start + warm * interval
    last_done = [measured_from]

    def worker():
        nonlocal next_index
        conn = target.connect()
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
            sent = time.perf_counter()
            try:
                conn.request("POST", "/api/position", body, target.headers())
                res = conn.getresponse()
                data = res.read()
                done = time.perf_counter()
                ok = res.status == 200 and re.search(rb'"distance":\d', data) and b'"heuristics"' in data
                if i < warm:
                    continue
                with lock:
                    if ok:
                        latencies.append(done - due)
                        service.append(done - sent)
                        lags.append(max(0.0, sent - due))
                        last_done[0] = max(last_done[0], done)
                    else:
                        errors.append({"request": body, "status": res.status, "response": data[:500].decode(errors="replace")})
            except (OSError, http.client.HTTPException) as e:
                with lock:
                    if i >= warm:
                        errors.append({"request": body, "status": None, "response": repr(e)})
                conn.close()
                conn = target.connect()
        conn.close()

    solve = None
    if args.solve:
        solve = Solve(target, args.solve, args.solve_shape)
        if not solve.start():
            sys.exit(f"serve_load.py: the solve job did not start: {solve.error}")
        start = time.perf_counter() + 0.2
        measured_from = start + warm * interval
        last_done[0] = measured_from
    cpu0, server0, machine0 = os.times(), cpu_seconds(args.server_pid) if args.server_pid else None, machine_busy()
    wall0 = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - wall0
    cpu1, server1, machine1 = os.times(), cpu_seconds(args.server_pid) if args.server_pid else None, machine_busy()
    finished_during_run = sum(1 for t, _ in solve.results if t < last_done[0]) if solve else 0
    solve_figures = solve.finish() if solve else {}

    lat, svc, lag = sorted(latencies), sorted(service), sorted(lags)
    elapsed = max(last_done[0] - measured_from, 1e-9)
    figures = {
        "shape": args.shape, "rate": args.rate, "seconds": args.seconds, "threads": args.threads,
        "seed": args.seed, "requests": total - warm, "ok": len(lat), "errors": len(errors),
        "throughput": len(lat) / elapsed,
        "p50_ms": percentile(lat, 50), "p90_ms": percentile(lat, 90), "p99_ms": percentile(lat, 99),
        "p999_ms": percentile(lat, 99.9), "max_ms": lat[-1] * 1000 if lat else float("nan"),
        "service_p50_ms": percentile(svc, 50), "service_p99_ms": percentile(svc, 99),
        "send_lag_p99_ms": percentile(lag, 99), "send_lag_max_ms": lag[-1] * 1000 if lag else float("nan"),
        "client_cpu": (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / wall,
        "server_cpu": (server1 - server0) / wall if server0 is not None and server1 is not None else None,
        "machine_cpu": (machine1[0] - machine0[0]) / max(1, machine1[1] - machine0[1]) * os.cpu_count(),
        "first_errors": errors[:3],
    }
    # what else ran on the machine meanwhile (a build, say), in cores
    figures["other_cpu"] = (figures["machine_cpu"] - figures["client_cpu"] - figures["server_cpu"]
                            if figures["server_cpu"] is not None else None)
    if solve:
        figures.update(solve_figures)
        figures["solve_finished_during_run"] = finished_during_run
    emit(args, figures)
    if args.json:
        return
    beside = " beside a 4x4 solve" if solve else ""
    server = f", machine {figures['machine_cpu']:.0%}"
    if figures["server_cpu"] is not None:
        server = (f", server {figures['server_cpu']:.0%}{' (the solve included)' if solve else ''}, "
                  f"other processes {figures['other_cpu']:.0%}")
    print(f"{args.shape} at {args.rate:.0f}/s for {args.seconds:g} s{beside}: {len(lat)} ok, {len(errors)} errors, "
          f"{figures['throughput']:.0f}/s; p50 {figures['p50_ms']:.2f} ms, p99 {figures['p99_ms']:.2f} ms, "
          f"p99.9 {figures['p999_ms']:.2f} ms, max {figures['max_ms']:.2f} ms; late sends p99 "
          f"{figures['send_lag_p99_ms']:.2f} ms; CPU: client {figures['client_cpu']:.0%}{server}")
    if solve:
        print(f"  solve job: {solve_figures['solve_info_samples']} /api/info samples, "
              f"{solve_figures['solve_info_samples_without_job']} without the job; at the end "
              f"{solve_figures['solve_job_at_end']}; {solve_figures['solve_progress_events']} progress events, "
              f"the last {solve_figures['solve_last_progress']}; {solve_figures['solve_jobs']} job(s), "
              f"{finished_during_run} finished (and started again) during the run; the last stream ended with "
              f"{solve_figures['solve_end']}")
    for e in errors[:3]:
        print("  error:", json.dumps(e))


COMPARE_RUNS = [  # the page's default comparison
    {"algorithm": "bfs"},
    {"algorithm": "astar", "heuristic": "hamming"},
    {"algorithm": "astar", "heuristic": "manhattan"},
    {"algorithm": "idastar", "heuristic": "linear-conflict"},
    {"algorithm": "weighted", "heuristic": "manhattan", "weight": 2},
    {"algorithm": "greedy", "heuristic": "manhattan"},
]


def read_events(res):
    """The (name, data) events of a server-sent event stream, as they come, until it ends."""
    event = None
    while True:
        line = res.readline()
        if not line:
            return
        line = line.decode().rstrip("\r\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            yield event, json.loads(line[6:])


def process_memory(pid):
    """(VmRSS, VmHWM) of a process in bytes (Linux /proc), or (None, None)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        kib = lambda k: int(fields[k].split()[0]) * 1024 if k in fields else None
        return kib("VmRSS"), kib("VmHWM")
    except (OSError, ValueError):
        return None, None


def stats_ms(values):
    """p50, p99 and max of seconds, in milliseconds."""
    v = sorted(values)
    return {"n": len(v), "p50_ms": percentile(v, 50), "p99_ms": percentile(v, 99),
            "max_ms": v[-1] * 1000 if v else float("nan")}


class Student:
    """One student of --class: plays (a position lookup every --lookup-every seconds, with jitter,
    on a keep-alive connection of its own, each a click on one of the moves the last answer
    listed) and starts the page's default comparison every --compare-every seconds on a 3x3 board
    about 20 moves out, reading its stream to the end on a connection of its own. Each request is
    scheduled in advance and timed from its scheduled time (open loop)."""

    def __init__(self, k, args, target, start, end, rng):
        self.k = k
        self.target = target
        self.client = f"student-{k:02d}-{rng.getrandbits(48):012x}"
        self.shape = args.class_shapes[k % len(args.class_shapes)]
        self.board = walk_boards(self.shape, 1, rng.getrandbits(32))[0]
        self.rng = random.Random(rng.getrandbits(64))
        self.start, self.end = start, end
        self.every, self.compare_every = args.lookup_every, args.compare_every
        self.lookups = []  # seconds from the scheduled time
        self.service = []  # seconds from the actual send (the server's part)
        self.lags = []  # how late this client sent
        self.lookup_errors = []  # (status, text)
        self.compares = []  # one dict per comparison started
        self.lock = threading.Lock()
        self.running = 0  # comparisons of this student under way
        self.threads = []

    def play(self):
        """The lookups, one after the other on one connection, each at its scheduled time."""
        conn = self.target.connect()
        headers = self.target.headers(client=self.client)
        t = self.start + self.rng.uniform(0, self.every)
        previous = None
        while t < self.end:
            wait = t - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            body = json.dumps({"board": self.board, "shape": self.shape})
            try:
                sent = time.perf_counter()
                conn.request("POST", "/api/position", body, headers)
                res = conn.getresponse()
                data = res.read()
                done = time.perf_counter()
                if res.status == 200:
                    self.lookups.append(done - t)
                    self.service.append(done - sent)
                    self.lags.append(max(0.0, sent - t))
                    pos = json.loads(data)
                    # a click: one of the legal moves, not straight back
                    moves = [m for m in pos["moves"] if m["board"] != previous] or pos["moves"]
                    previous = pos["board"]
                    self.board = " ".join(map(str, self.rng.choice(moves)["board"]))
                else:
                    self.lookup_errors.append((res.status, data[:300].decode(errors="replace")))
            except (OSError, ValueError, KeyError, http.client.HTTPException) as e:
                self.lookup_errors.append((None, repr(e)))
                conn.close()
                conn = self.target.connect()
            t += self.every * self.rng.uniform(0.8, 1.2)
        conn.close()

    def schedule_compares(self):
        """A comparison every --compare-every seconds, each on a thread of its own, so one that
        is still running (or waiting its turn) when the next is due is replaced, as on the page."""
        t = self.start + self.rng.uniform(0, self.compare_every)
        while t < self.end:
            wait = t - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            th = threading.Thread(target=self.compare, args=(t,), daemon=True)
            th.start()
            self.threads.append(th)
            t += self.compare_every * self.rng.uniform(0.9, 1.1)

    def compare(self, due):
        rec = {"due": due, "status": None, "had_job": False, "queued": 0, "first_position": None,
               "waited": None, "to_started": None, "runs": 0, "end": None, "cancelled": None, "error": None}
        with self.lock:
            rec["had_job"] = self.running > 0
            self.running += 1
            self.compares.append(rec)
        conn = self.target.connect(timeout=600)
        headers = self.target.headers(client=self.client)
        try:
            conn.request("POST", "/api/scramble", json.dumps({"depth": 20, "shape": "3x3"}), headers)
            res = conn.getresponse()
            scramble = json.loads(res.read())
            if res.status != 200:
                rec["status"], rec["error"] = res.status, scramble.get("error")
                return
            sent = time.perf_counter()
            conn.request("POST", "/api/jobs/compare", json.dumps({"board": scramble["text"], "runs": COMPARE_RUNS}), headers)
            res = conn.getresponse()
            rec["status"] = res.status
            if res.status != 200:
                rec["error"] = res.read()[:300].decode(errors="replace")
                return
            for name, data in read_events(res):
                if name == "queued":
                    rec["queued"] += 1
                    if rec["first_position"] is None:
                        rec["first_position"] = data["position"]
                elif name == "started":
                    rec["waited"] = data["waited"]
                    rec["to_started"] = time.perf_counter() - sent
                elif name == "run":
                    rec["runs"] += 1
                elif name == "done":
                    rec["end"], rec["cancelled"] = "done", data["cancelled"]
                    break
                elif name == "error":
                    rec["end"], rec["error"] = "error", data["error"]
                    break
            else:
                rec["end"] = "closed"
        except (OSError, ValueError, KeyError, http.client.HTTPException) as e:
            rec["end"], rec["error"] = "exception", repr(e)
        finally:
            conn.close()
            with self.lock:
                self.running -= 1


def class_run(args, target):
    """--class N: N students playing and comparing beside one 4x4 solve (--solve); the figures."""
    rng = random.Random(args.seed)
    load0 = open("/proc/loadavg").read().split()[:3]
    # first use, before the clock starts: each shape's table (3x4's built in memory when the
    # server's --dir has none) and the solve's pattern tables
    t = time.perf_counter()
    first_use = {}
    for shape in args.class_shapes:
        status, answer = target.call("POST", "/api/position", {"board": walk_boards(shape, 1, 1)[0], "shape": shape},
                                     timeout=600, client="load-teacher-0001")
        if status != 200:
            sys.exit(f"serve_load.py: the first {shape} lookup failed: {status} {answer}")
        first_use[shape] = time.perf_counter() - t
        t = time.perf_counter()
    solve = None
    if args.solve:
        solve = Solve(target, args.solve, args.solve_shape, client="load-teacher-solve")
        if not solve.start():
            sys.exit(f"serve_load.py: the solve job did not start: {solve.error}")
        first_use["solve_started"] = time.perf_counter() - t
    # the server's memory and jobs, sampled twice a second all along
    samples = {"rss": [], "jobs": [], "memory": []}
    sampling = threading.Event()

    def sample():
        k = 0
        while not sampling.wait(0.5):
            if args.server_pid:
                rss, _ = process_memory(args.server_pid)
                if rss:
                    samples["rss"].append(rss)
            k += 1
            if k % 4 == 0:
                try:
                    status, info = target.call("GET", "/api/info", timeout=10, client="load-teacher-0001")
                    if status == 200:
                        samples["jobs"].append(info["jobs"])
                        samples["memory"].append(info["memory"]["used"])
                except (OSError, ValueError, KeyError):
                    pass

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start = time.perf_counter() + 0.5
    end = start + args.seconds
    students = [Student(k, args, target, start, end, rng) for k in range(args.klass)]
    cpu0, server0, machine0 = os.times(), cpu_seconds(args.server_pid) if args.server_pid else None, machine_busy()
    threads = []
    for st in students:
        for work in (st.play, st.schedule_compares):
            th = threading.Thread(target=work, daemon=True)
            th.start()
            threads.append(th)
    for th in threads:
        th.join()
    wall = time.perf_counter() - start
    cpu1, server1, machine1 = os.times(), cpu_seconds(args.server_pid) if args.server_pid else None, machine_busy()
    load1 = open("/proc/loadavg").read().split()[:3]
    # comparisons still under way finish (or the minute is up)
    deadline = time.perf_counter() + 60
    for st in students:
        for th in st.threads:
            th.join(max(0.0, deadline - time.perf_counter()))
    sampling.set()
    sampler.join(5)
    solve_figures = solve.finish() if solve else {}
    rss, hwm = process_memory(args.server_pid) if args.server_pid else (None, None)

    lookups = [x for st in students for x in st.lookups]
    lookup_errors = [e for st in students for e in st.lookup_errors]
    compares = [c for st in students for c in st.compares]
    started = [c for c in compares if c["waited"] is not None]
    refused = [c for c in compares if c["status"] == 409]
    failed = [c for c in compares if c["status"] not in (200, 409) or c["end"] in ("error", "closed", "exception")]
    statuses = {}
    for status, _ in lookup_errors:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    client_cpu = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / wall
    server_cpu = (server1 - server0) / wall if server0 is not None and server1 is not None else None
    machine_cpu = (machine1[0] - machine0[0]) / max(1, machine1[1] - machine0[1]) * os.cpu_count()
    figures = {
        "mode": "class", "students": args.klass, "seconds": args.seconds, "shapes": args.class_shapes,
        "lookup_every": args.lookup_every, "compare_every": args.compare_every, "seed": args.seed,
        "first_use_seconds": first_use,
        "lookups": stats_ms(lookups), "lookup_errors": len(lookup_errors), "lookup_error_statuses": statuses,
        "lookups_by_shape": {shape: stats_ms([x for st in students if st.shape == shape for x in st.lookups])
                             for shape in args.class_shapes},
        "lookup_service": stats_ms([x for st in students for x in st.service]),
        "lookup_send_lag": stats_ms([x for st in students for x in st.lags]),
        "lookup_first_errors": lookup_errors[:3],
        "compares": len(compares), "compares_started": len(started),
        "compares_queued": sum(1 for c in compares if c["queued"]),
        "compares_finished": sum(1 for c in compares if c["end"] == "done" and not c["cancelled"]),
        "compares_cancelled": sum(1 for c in compares if c["cancelled"]),
        "compares_replaced_while_running": sum(1 for c in compares if c["had_job"]),
        "job_wait": {k: v for k, v in stats_ms([c["waited"] for c in started]).items()},
        "job_wait_seen_by_client": stats_ms([c["to_started"] for c in started]),
        "largest_queue_position": max((c["first_position"] or 0 for c in compares), default=0),
        "refusals_409": len(refused),
        "refusals_409_without_job": sum(1 for c in refused if not c["had_job"]),
        "compare_errors": len(failed), "compare_first_errors": [c["error"] for c in failed[:3]],
        "peak_rss_bytes": max(samples["rss"]) if samples["rss"] else None,
        "vmhwm_bytes": hwm, "rss_at_end_bytes": rss,
        "max_jobs_running": max((j["running"] for j in samples["jobs"]), default=None),
        "max_jobs_queued": max((j["queued"] for j in samples["jobs"]), default=None),
        "max_memory_used_bytes": max(samples["memory"], default=None),
        "load_average_before": load0, "load_average_after": load1,
        "client_cpu": client_cpu, "server_cpu": server_cpu, "machine_cpu": machine_cpu,
        "other_cpu": machine_cpu - client_cpu - server_cpu if server_cpu is not None else None,
    }
    figures.update(solve_figures)
    emit(args, figures)
    if args.json:
        return
    mib = lambda b: f"{b / 2**20:.0f} MiB" if b else "?"
    lk, jw = figures["lookups"], figures["job_wait"]
    print(f"class of {args.klass} for {args.seconds:g} s ({', '.join(args.class_shapes)}; a lookup every "
          f"{args.lookup_every:g} s, a comparison every {args.compare_every:g} s each"
          f"{', beside a ' + args.solve_shape + ' solve' if solve else ''}); load average "
          f"{' '.join(load0)} before, {' '.join(load1)} after")
    print(f"  first use: " + ", ".join(f"{k} {v:.2f} s" for k, v in first_use.items()))
    print(f"  lookups: {lk['n']} ok, {len(lookup_errors)} errors {statuses or ''}; from the scheduled time "
          f"p50 {lk['p50_ms']:.2f} ms, p99 {lk['p99_ms']:.2f} ms, max {lk['max_ms']:.1f} ms")
    by = figures["lookups_by_shape"]
    print("    " + "; ".join(f"{k}: p50 {v['p50_ms']:.2f} ms, p99 {v['p99_ms']:.2f} ms" for k, v in by.items())
          + f"; from the actual send p99 {figures['lookup_service']['p99_ms']:.2f} ms; this client late to send "
          f"p99 {figures['lookup_send_lag']['p99_ms']:.2f} ms, max {figures['lookup_send_lag']['max_ms']:.1f} ms")
    print(f"  comparisons: {len(compares)} started by students, {figures['compares_queued']} queued (largest "
          f"position {figures['largest_queue_position']}), {figures['compares_finished']} finished, "
          f"{figures['compares_cancelled']} cancelled ({figures['compares_replaced_while_running']} replaced by the "
          f"student's next); wait queued to started p50 {jw['p50_ms']:.1f} ms, p99 {jw['p99_ms']:.1f} ms, max "
          f"{jw['max_ms']:.1f} ms")
    print(f"  refusals: {len(refused)} 409s ({figures['refusals_409_without_job']} to a student without a job "
          f"running), {len(failed)} other errors {figures['compare_first_errors'] if failed else ''}")
    print(f"  server: peak RSS {mib(figures['peak_rss_bytes'])} (VmHWM {mib(hwm)}), at most "
          f"{figures['max_jobs_running']} jobs running and {figures['max_jobs_queued']} queued, tables kept at most "
          f"{mib(figures['max_memory_used_bytes'])}; CPU: server {server_cpu or 0:.0%}, client {client_cpu:.0%}, "
          f"other processes {figures['other_cpu'] or 0:.0%}")
    if solve:
        print(f"  solve job: {solve_figures['solve_info_samples']} /api/info samples, "
              f"{solve_figures['solve_info_samples_without_job']} without the job; {solve_figures['solve_jobs']} job(s); "
              f"the last progress {solve_figures['solve_last_progress']}")


def emit(args, figures):
    """The figures as JSON: printed (--json) and/or appended as one line to --json-out."""
    if args.json:
        print(json.dumps(figures))
    if args.json_out:
        # a line kept in data/ says where it came from: the commit and the machine
        where = {"commit": commit(), "machine": machine(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
        with open(args.json_out, "a") as f:
            f.write(json.dumps({**where, **figures}) + "\n")


def commit():
    """The checkout's commit (with `+` when src/ has changes not committed), or null."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "src"], check=False).returncode != 0
        return head.stdout.strip() + ("+" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


def machine():
    """Cores and CPU model, as the benchmarks name the machine."""
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {model}".strip(", ")


IMPORT = re.compile(rb"""(?:\bfrom\s*|\bimport\s*\(\s*)['"](\./[\w.-]+\.js)['"]""")
REFERENCE = re.compile(rb"""(?:src|href)\s*=\s*["'](/assets/[\w.-]+)["']""")


def references(path, body):
    """The files a page or script makes the browser fetch."""
    if path == "/":
        return [m.decode() for m in REFERENCE.findall(body)]
    if path.endswith(".js"):
        base = path.rsplit("/", 1)[0]
        return [base + "/" + m.decode()[2:] for m in IMPORT.findall(body)]
    return []


class CountingConnection(http.client.HTTPConnection):
    """A connection that counts the bytes it receives: status lines, headers, bodies as sent
    (compressed, with their chunk framing)."""

    received = 0

    def connect(self):
        super().connect()
        self.sock = _CountingSocket(self.sock, self)


class _CountingSocket:
    def __init__(self, sock, owner):
        self._sock, self._owner = sock, owner

    def __getattr__(self, name):
        return getattr(self._sock, name)

    def makefile(self, mode="r", buffering=None, **_):
        return io.BufferedReader(_CountingRaw(self._sock, self._owner))


class _CountingRaw(io.RawIOBase):
    def __init__(self, sock, owner):
        self._sock, self._owner = sock, owner

    def readable(self):
        return True

    def readinto(self, b):
        n = self._sock.recv_into(b)
        self._owner.received += n
        return n


def fetch(conn, target, path, accept=ACCEPT):
    """One GET: (status, body decoded or None for brotli, bytes received, encoding)."""
    headers = {"Host": target.host}
    if accept:
        headers["Accept-Encoding"] = accept
    before = conn.received
    conn.request("GET", path, headers=headers)
    res = conn.getresponse()
    raw = res.read()
    encoding = res.getheader("Content-Encoding") or "identity"
    body = zlib.decompress(raw, 16 + zlib.MAX_WBITS) if encoding == "gzip" else raw
    return res.status, body if encoding in ("gzip", "identity") else None, conn.received - before, encoding


def page(args, target):
    """The page's first load, timed from the first connection to the last byte.

    Python cannot decode brotli: a brotli body's references are read from the same file fetched
    plain on another connection, with the clock stopped meanwhile."""
    connect = lambda: CountingConnection("127.0.0.1", target.port, timeout=30)
    got = {}  # path -> (status, wire bytes, encoding)
    paused = 0.0

    def plain_body(path):
        nonlocal paused
        t = time.perf_counter()
        c = connect()
        body = fetch(c, target, path, None)[1]
        c.close()
        paused += time.perf_counter() - t
        return body

    t0 = time.perf_counter()
    if args.page == "seq":
        conn = connect()
        queue = ["/"]
        while queue:
            path = queue.pop(0)
            if path in got:
                continue
            status, body, wire, enc = fetch(conn, target, path)
            got[path] = (status, wire, enc)
            body = body if body is not None else plain_body(path)
            queue += [r for r in references(path, body) if r not in got and r not in queue]
        conn.close()
    else:
        # a browser's way: each wave of references in parallel, up to 6 connections kept open
        pool = []
        wave = ["/"]
        while wave:
            results = {}
            lanes = min(6, len(wave))
            pool += [None] * (lanes - len(pool))

            def lane(k):
                if pool[k] is None:
                    pool[k] = connect()
                for p in wave[k::lanes]:
                    results[p] = fetch(pool[k], target, p)

            threads = [threading.Thread(target=lane, args=(k,)) for k in range(lanes)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            following = []
            for path in wave:
                status, body, wire, enc = results[path]
                got[path] = (status, wire, enc)
                body = body if body is not None else plain_body(path)
                following += [r for r in references(path, body) if r not in got and r not in following]
            wave = following
        for c in pool:
            if c is not None:
                c.close()
    elapsed = time.perf_counter() - t0 - paused
    conn = connect()
    plain = {p: fetch(conn, target, p, None) for p in got}
    conn.close()
    figures = {
        "mode": args.page, "files": len(got), "ms": elapsed * 1000,
        "wire_bytes": sum(w for _, w, _ in got.values()),
        "uncompressed_bytes": sum(w for _, _, w, _ in plain.values()),
        "uncompressed_body_bytes": sum(len(b) for _, b, _, _ in plain.values()),
        "encodings": sorted({e for _, _, e in got.values()}),
        "statuses": sorted({s for s, _, _ in got.values()}),
        "paths": sorted(got),
    }
    emit(args, figures)
    if not args.json:
        print(f"first load, {args.page}: {figures['files']} files in {figures['ms']:.1f} ms, "
              f"{figures['wire_bytes']} bytes received ({', '.join(figures['encodings'])}) against "
              f"{figures['uncompressed_bytes']} uncompressed; statuses {figures['statuses']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", required=True, help="the server, http://127.0.0.1:PORT")
    ap.add_argument("--shape", default="3x3", help="the boards' shape (default 3x3)")
    ap.add_argument("--rate", type=float, default=200.0, help="requests per second (default 200)")
    ap.add_argument("--seconds", type=float, default=20.0, help="the measured run (default 20)")
    ap.add_argument("--warmup", type=float, default=1.0, help="seconds of load before the measured run, not counted (default 1)")
    ap.add_argument("--threads", type=int, default=8, help="worker threads, one connection each (default 8)")
    ap.add_argument("--seed", type=int, default=1, help="for the random boards (default 1)")
    ap.add_argument("--solve", metavar="BOARD", help="run a solve job of this board beside the load")
    ap.add_argument("--solve-shape", default="4x4", help="the solve's board shape (default 4x4)")
    ap.add_argument("--server-pid", type=int, help="report the server's CPU use during the run")
    ap.add_argument("--page", choices=["seq", "par"], help="time the page's first load instead")
    ap.add_argument("--class", dest="klass", type=int, metavar="N",
                    help="a classroom instead: N students, each playing and comparing (see above)")
    ap.add_argument("--class-shapes", default="3x3,3x4",
                    help="--class: the students' boards, shared out in turn (default 3x3,3x4)")
    ap.add_argument("--lookup-every", type=float, default=0.5,
                    help="--class: seconds between a student's lookups, give or take a fifth (default 0.5)")
    ap.add_argument("--compare-every", type=float, default=60.0,
                    help="--class: seconds between a student's comparisons, give or take a tenth (default 60)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--json-out", metavar="FILE", help="append the figures to FILE as one JSON line")
    args = ap.parse_args()
    if args.rate <= 0 or args.seconds <= 0 or args.threads < 1 or args.warmup < 0:
        ap.error("--rate and --seconds must be positive, --threads at least 1, --warmup not negative")
    if args.rate * (args.seconds + args.warmup) > 10_000_000:
        ap.error("at most 10 million requests a run")
    if args.klass is not None:
        args.class_shapes = [x.strip() for x in args.class_shapes.split(",") if x.strip()]
        if not 1 <= args.klass <= 1000 or args.lookup_every <= 0 or args.compare_every <= 0 or args.page:
            ap.error("--class takes 1 to 1000 students, positive --lookup-every and --compare-every, and no --page")
        if not all(re.fullmatch(r"[1-9]x[1-9]", x) for x in args.class_shapes):
            ap.error("--class-shapes lists shapes like 3x3,3x4")
    target = Target(args.url)
    if args.klass is not None:
        class_run(args, target)
    elif args.page:
        page(args, target)
    else:
        load(args, target)


if __name__ == "__main__":
    main()
