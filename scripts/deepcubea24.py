#!/usr/bin/env python3
"""DeepCubeA's 24-puzzle test set (data/deepcubea24.tsv) solved optimally by `table solve` with
pattern tables, board by board, resumably, each against the optimal solver's time stored with it.

Usage:
  scripts/deepcubea24.py [IDS ...] [--moderate N] [--first N] [--pattern P] [--prune L]
                         [--algorithm A] [--label NAME] [--table PATH] [-- EXTRA...]

The boards are DeepCubeA's (goal blank last). Each is turned by half a turn of the board, every
tile t renumbered 25 - t, into a board of the same distance for the blank-first goal whose
tables the 24-puzzle uses, then solved by one whole process:
`table solve BOARD --goal blank-first -H pdb --pattern P --dir tables --prune L --algorithm A
--json` plus EXTRA (other options of `table solve`, like `-- --threads 1`).
Every length is checked against the stored optimum. Each result is appended to
data/deepcubea24-results.tsv as it finishes, with the configuration, commit and machine in a
`# run` line; a rerun with the same configuration skips the boards already there.

  IDS            the boards by id (default: --moderate 8)
  --moderate N   the N boards whose stored optimal-solver seconds are nearest their median
  --first N      the first N boards
  --pattern P    the tables (default: small-t, zero-aware: built by `table build --board 5x5
                 --goal blank-first --pattern small-t --zero --dir tables`)
  --prune L      the move-pruning machine (default: 16; `table build --board 5x5 --prune 16 --dir tables`)
  --algorithm A  idastar (default: its long iterations' subtrees nearest the goal first, on
                 every core) or astar-ida (A* runs on one core)
Prints, for the configuration's rows among the boards asked for: boards solved, our seconds
summed against their optimal solver's, and the ratio (the target: at most 0.1).
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from deepcubea import commit, machine, read_done  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
N = 25


def boards():
    rows = []
    with open(os.path.join(ROOT, "data", "deepcubea24.tsv")) as f:
        for line in f:
            if line.startswith("#") or line.startswith("id\t") or not line.strip():
                continue
            c = line.rstrip("\n").split("\t")
            rows.append((int(c[0]), [int(t) for t in c[1].split(",")], int(c[4]), float(c[5])))
    return rows


def blank_first(tiles):
    """The board half a turn round, tile t renumbered N - t: its distance to the blank-first goal
    is the board's to the blank-last goal (the goal itself is carried onto the other)."""
    return [0 if t == 0 else N - t for t in reversed(tiles)]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("ids", nargs="*", type=int)
    p.add_argument("--moderate", type=int, default=None)
    p.add_argument("--first", type=int, default=None)
    p.add_argument("--pattern", default="small-t")
    p.add_argument("--prune", default="16")
    p.add_argument("--algorithm", default="idastar")
    p.add_argument("--table", default=os.path.join(ROOT, "target", "release", "table"))
    p.add_argument("--label", default="")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    a = p.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    rows = boards()
    assert blank_first(list(range(1, N)) + [0]) == list(range(N)), "the goals must carry onto each other"
    if a.ids:
        known = {r[0]: r for r in rows}
        missing = [i for i in a.ids if i not in known]
        if missing:
            print(f"no board {missing[0]} in data/deepcubea24.tsv (ids 0 to {rows[-1][0]})", file=sys.stderr)
            return 2
        chosen = [known[i] for i in a.ids]
    elif a.first is not None:
        chosen = rows[: a.first]
    else:
        k = a.moderate or 8
        median = sorted(r[3] for r in rows)[len(rows) // 2]
        chosen = sorted(sorted(rows, key=lambda r: (abs(r[3] - median), r[0]))[:k], key=lambda r: r[0])
    base = ["--goal", "blank-first", "-H", "pdb", "--pattern", a.pattern, "--dir", os.path.join(ROOT, "tables"),
            "--prune", a.prune, "--algorithm", a.algorithm]
    config = " ".join([*([f"[{a.label}]"] if a.label else []), f"pattern={a.pattern} prune={a.prune} algorithm={a.algorithm}", *extra])
    out_path = os.path.join(ROOT, "data", "deepcubea24-results.tsv")
    done = read_done(out_path, config, lambda cols: int(cols[1]))
    new = not os.path.exists(out_path)
    with open(out_path, "a") as out:
        if new:
            out.write(
                "# DeepCubeA's 24-puzzle boards solved optimally by table solve (scripts/deepcubea24.py); one row per\n"
                "# board and configuration (its pattern, pruning, algorithm and any other options of table solve).\n"
                "# config\tid\tmoves\toptimal\texpanded\tgenerated\tseconds\topt_seconds\n"
            )
        todo = [r for r in chosen if r[0] not in done]
        if todo:
            binary = "" if a.table == p.get_default("table") else f" binary {a.table}"
            out.write(f"# run {time.strftime('%Y-%m-%d %H:%M')} commit {commit()}{binary} machine {machine()}: {config}\n")
            out.flush()
        for i, tiles, optimal, opt_s in todo:
            cmd = [a.table, "solve", *map(str, blank_first(tiles)), *base, "--json", *extra]
            t0 = time.perf_counter()
            r = subprocess.run(cmd, capture_output=True, text=True)
            secs = time.perf_counter() - t0
            try:
                d = json.loads(r.stdout)
            except json.JSONDecodeError:
                print(f"board {i}: table solve failed: {(r.stderr.strip().splitlines() or ['no output'])[-1]}", file=sys.stderr)
                return 1
            moves = d.get("moves")
            if moves != optimal:
                print(f"board {i}: {moves} moves, but the optimum is {optimal}: WRONG", file=sys.stderr)
                return 1
            cols = [config, str(i), str(moves), str(optimal), str(d.get("expanded", "")), str(d.get("generated", "")),
                    f"{secs:.3f}", f"{opt_s:.2f}"]
            out.write("\t".join(cols) + "\n")
            out.flush()
            done[i] = cols
            print(f"board {i}: {moves} moves (optimal), {secs:.2f} s; their optimal solver {opt_s:.2f} s", flush=True)
    mine = [done[r[0]] for r in chosen if r[0] in done]
    ours = sum(float(c[6]) for c in mine)
    theirs = sum(float(c[7]) for c in mine)
    print(f"\n{config}: {len(mine)} of {len(chosen)} boards solved, all optimal")
    if mine:
        print(f"  seconds (whole process, tables loaded included): ours {ours:.1f}, their optimal solver {theirs:.1f}; "
              f"ratio {ours / theirs:.3f} (target: at most 0.1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
