#!/usr/bin/env python3
"""The sharded build on a Dask LocalCluster of worker processes on this machine, against the
in-memory table's file, byte for byte; optionally with one worker killed mid-build (SIGKILL; its
nanny starts another). Appends a line to data/out-of-core-runs.tsv like scripts/out_of_core.sh.

    scripts/dask_build.py --board 2x7 --reference target/ooc/2x7.mem.table [--workers 2]
                          [--kill-at DEPTH] [--dir target/ooc]

Needs the package with its dask extra installed in the Python that runs it.
"""

import argparse
import datetime
import filecmp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import slidetable as st
import slidetable.dask as sd
from distributed import Client, LocalCluster


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--board", default="2x7")
    p.add_argument("--reference", type=Path, required=True, help="the in-memory build's file")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--kill-at", type=int, help="kill one worker once this depth is done")
    p.add_argument("--dir", type=Path, default=Path("target/ooc"))
    args = p.parse_args()
    rows, cols = map(int, args.board.split("x"))
    out = args.dir / f"{args.board}.dask.table"
    out.unlink(missing_ok=True)
    root = Path(__file__).resolve().parent.parent
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            pids = client.run(os.getpid)
            killed: list[int] = []

            def note(n: dict) -> None:
                if "depth" in n:
                    print(f"depth {n['depth']:>3}: {n['level_states']:,} states, {n['seconds']:.0f} s", flush=True)
                    if args.kill_at is not None and n["depth"] >= args.kill_at and not killed:
                        pid = next(iter(pids.values()))
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                        print(f"killed worker process {pid}", flush=True)

            start = time.perf_counter()
            sd.build_table(st.Puzzle(rows, cols), out, client=client, progress=note)
            seconds = time.perf_counter() - start
    same = filecmp.cmp(out, args.reference, shallow=False)
    label = f"{args.board}-dask-{args.workers}w" + (f"-kill{args.kill_at}" if args.kill_at is not None else "")
    print(f"{label}: {seconds:.1f} s, identical: {'yes' if same else 'NO'}")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=root).stdout.strip()
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    mem = next(int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")) / 2**20
    log = root / "data" / "out-of-core-runs.tsv"
    with open(log, "a") as f:
        f.write("\t".join([datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), commit,
                           f"{os.cpu_count()} cores {mem:.0f} GiB {cpu}", label, f"{seconds:.1f}", "-", "-", "-",
                           f"LocalCluster of {args.workers} processes" + (", one killed" if killed else ""),
                           "yes" if same else "NO"]) + "\n")
    out.unlink(missing_ok=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
