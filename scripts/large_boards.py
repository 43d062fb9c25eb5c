#!/usr/bin/env python3
"""Uniform random large boards solved by `table solve` (reduce, the default past 64 cells):
each board's length against its Manhattan distance, and its whole-process time.

Usage:
  scripts/large_boards.py [--sizes 20,50,100] [--count 10,10,3] [--seed 1] [--table PATH] [-- EXTRA...]

Each board is drawn by `table sample --board NxN --uniform --seed S` and solved by one whole
process, `table solve --board NxN -H manhattan --json` plus EXTRA, timed from outside with its
peak memory (/usr/bin/time). With -H manhattan the reported lower bound is the Manhattan
distance itself (a solution's length has the Manhattan distance's parity, so the bound is not
raised). Results are appended to data/large-boards-results.tsv as they finish, with the commit
and machine in a `# run` line; a rerun with the same configuration skips the boards done.
Prints, per size, the mean and largest length / Manhattan and the mean and largest seconds,
against the issue's targets (<= 2x; 20x20 <= 1 s, 50x50 <= 10 s, 100x100 <= 60 s).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from deepcubea import commit, machine, read_done  # noqa: E402

TARGET_SECONDS = {20: 1.0, 50: 10.0, 100: 60.0}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="20,50,100")
    p.add_argument("--count", default="10,10,3", help="boards per size, in the order of --sizes")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--table", default=os.path.join(ROOT, "target", "release", "table"))
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    a = p.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    sizes = [int(s) for s in a.sizes.split(",")]
    counts = [int(c) for c in a.count.split(",")]
    if len(counts) != len(sizes):
        p.error("--count needs one number per size")
    config = " ".join(["-H manhattan", *extra])
    out_path = os.path.join(ROOT, "data", "large-boards-results.tsv")
    done = read_done(out_path, config, lambda cols: (int(cols[1]), int(cols[2])))
    new = not os.path.exists(out_path)
    with open(out_path, "a") as out:
        if new:
            out.write(
                "# Uniform random boards (table sample --uniform) solved by table solve; one row per board.\n"
                "# config\tside\tseed\tmoves\tmanhattan\tratio\tseconds\tpeak_kib\n"
            )
        wrote_run = False
        for side, count in zip(sizes, counts):
            for k in range(count):
                seed = a.seed + k
                if (side, seed) in done:
                    continue
                if not wrote_run:
                    out.write(f"# run {time.strftime('%Y-%m-%d %H:%M')} commit {commit()} machine {machine()}: {config}\n")
                    wrote_run = True
                shape = f"{side}x{side}"
                sample = subprocess.run(
                    [a.table, "sample", "--board", shape, "--uniform", "--count", "1", "--seed", str(seed)],
                    capture_output=True, text=True, check=True,
                )
                board = next(l for l in sample.stdout.splitlines() if l.strip() and not l.startswith("#"))
                cmd = [a.table, "solve", "--board", shape, "-H", "manhattan", "--json", *extra, board]
                with tempfile.NamedTemporaryFile("r") as tf:
                    t0 = time.perf_counter()
                    r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", tf.name, *cmd], capture_output=True, text=True)
                    secs = time.perf_counter() - t0
                    peak = (tf.read().strip().splitlines() or [""])[-1]
                if r.returncode != 0:
                    print(f"{shape} seed {seed}: failed: {r.stderr.strip()[:200]}", flush=True)
                    continue
                d = json.loads(r.stdout)
                moves, manhattan = d["moves"], d["lower_bound"]
                ratio = moves / manhattan if manhattan else 1.0
                cols = [config, str(side), str(seed), str(moves), str(manhattan), f"{ratio:.4f}", f"{secs:.3f}", peak]
                out.write("\t".join(cols) + "\n")
                out.flush()
                done[(side, seed)] = cols
                print(f"{shape} seed {seed}: {moves} moves, Manhattan {manhattan}, {ratio:.3f}x, {secs:.2f} s", flush=True)
    print(f"\n{config}:")
    for side, count in zip(sizes, counts):
        rows = [done[(side, a.seed + k)] for k in range(count) if (side, a.seed + k) in done]
        if not rows:
            continue
        ratios = [float(c[5]) for c in rows]
        secs = [float(c[6]) for c in rows]
        peaks = [int(c[7]) for c in rows if c[7].isdigit()]
        target = TARGET_SECONDS.get(side)
        print(
            f"  {side}x{side}: {len(rows)} boards; length / Manhattan mean {sum(ratios)/len(ratios):.3f}, "
            f"max {max(ratios):.3f} (target <= 2); seconds mean {sum(secs)/len(secs):.2f}, max {max(secs):.2f}"
            + (f" (target <= {target:g})" if target else "")
            + (f"; peak memory {max(peaks)/1024:.0f} MiB" if peaks else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
