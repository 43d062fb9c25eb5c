#!/usr/bin/env python3
"""Benchmarks of the Python package against its targets (issue 18), medians of repeated runs.

    python scripts/python_bench.py distance            # Table.distance, 1 M random 3x3 boards, vs Rust
    python scripts/python_bench.py pdb --dir tables    # PatternDB.h 7-8 + reflection, 1 M 15-puzzle boards
    python scripts/python_bench.py batch --dir tables  # solve_batch, 1,000 random 15-puzzles, 7-8 + reflection
    python scripts/python_bench.py dask --dir tables   # the same on a 2-worker LocalCluster
    python scripts/python_bench.py slidingpuzzle       # side by side with PyPI `slidingpuzzle`
    python scripts/python_bench.py bwas                # batch-weighted A* on Korf's 100: a numpy
                                                       # Manhattan function against the built-in one
    python scripts/python_bench.py datasets --dir T    # a depth-balanced 3x3 set of 100,000 boards; 10,000
                                                       # 15-puzzles from 60-move walks labelled with 7-8
    python scripts/python_bench.py gym                 # SlidingPuzzleVectorEnv, 1,024 3x3 boards (issue 39)

The 7-8 tables (about 575 MB, 100 s to build) are built into --dir by `table build --board 4x4
--goal blank-first --pattern 7-8 --dir DIR` or on first use with --build. Needs the package
installed (`pip install ./python`), for dask / slidingpuzzle / gym `distributed`, `slidingpuzzle`,
`gymnasium`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

import slidetable as st


def median_time(f, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def random_boards(n: int, cells: int, seed: int) -> np.ndarray:
    """Uniformly random arrangements (half of them unsolvable)."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, cells)), axis=1).astype(np.uint8)


def random_solvable(puzzle: st.Puzzle, n: int, seed: int) -> np.ndarray:
    """Uniformly random boards that can reach the goal: random arrangements, the unsolvable ones
    made solvable by swapping two tiles (a bijection between the halves, so still uniform)."""
    b = random_boards(n, puzzle.cells, seed)
    bad = ~puzzle.is_solvable(b)
    for row in np.nonzero(bad)[0]:
        tiles = [i for i in range(puzzle.cells) if b[row, i] != 0][:2]
        b[row, tiles[0]], b[row, tiles[1]] = b[row, tiles[1]], b[row, tiles[0]]
    assert puzzle.is_solvable(b).all()
    return b


def bench_distance(args) -> None:
    table = st.Table.build(st.Puzzle(3, 3))
    boards = random_boards(1_000_000, 9, 1)
    table.distance(boards)  # warm up
    py = median_time(lambda: table.distance(boards), args.repeat)
    rust = statistics.median(st._core.bench_distance_loop(table._t, boards)[0] for _ in range(args.repeat))
    as_int64 = boards.astype(np.int64)
    py64 = median_time(lambda: table.distance(as_int64), args.repeat)
    print(f"Table.distance, 1,000,000 random 3x3 boards (uint8): {py * 1e3:.1f} ms = {1e6 / py / 1e6:.1f} M boards/s")
    print(f"  the same call from Rust on the same boards:        {rust * 1e3:.1f} ms = {1e6 / rust / 1e6:.1f} M boards/s")
    print(f"  ratio Python / Rust: {py / rust:.2f}  (target <= 1.3; >= 20 M boards/s)")
    print(f"  from int64 boards (one conversion copy): {py64 * 1e3:.1f} ms = {1e6 / py64 / 1e6:.1f} M boards/s")


def pattern_db(args) -> st.PatternDB:
    puzzle = st.Puzzle(4, 4, "blank-first")
    t = time.perf_counter()
    db = st.PatternDB.load(puzzle, "7-8", dir=args.dir, build_missing=args.build, notice=print)
    print(f"7-8 tables loaded in {time.perf_counter() - t:.1f} s")
    return db


def bench_pdb(args) -> None:
    db = pattern_db(args)
    boards = random_solvable(db.puzzle, 1_000_000, 2)
    db.h(boards)
    secs = median_time(lambda: db.h(boards), args.repeat)
    plain = median_time(lambda: db.h(boards, reflect=False), args.repeat)
    print(f"PatternDB.h 7-8 + reflection, 1,000,000 random 15-puzzle boards: {secs * 1e3:.0f} ms = "
          f"{1e6 / secs / 1e6:.1f} M boards/s (target >= 10)")
    print(f"  without reflection: {plain * 1e3:.0f} ms = {1e6 / plain / 1e6:.1f} M boards/s")


def bench_batch(args) -> None:
    puzzle = st.Puzzle(4, 4, "blank-first")
    t = time.perf_counter()
    solver = st.Solver(puzzle, heuristic="pdb", partition="7-8", dir=args.dir, build_missing=args.build)
    print(f"tables loaded in {time.perf_counter() - t:.1f} s (apart from the searches)")
    boards = random_solvable(puzzle, args.boards, 3)
    r = solver.solve_batch(boards)
    assert (r.lengths >= 0).all() and r.optimal.all()
    for b, m in zip(boards[:50], r.moves):
        assert (puzzle.apply(b, m) == puzzle.goal).all()
    print(f"solve_batch, {len(boards)} random 15-puzzles, 7-8 + reflection: {r.wall_seconds:.2f} s = "
          f"{len(boards) / r.wall_seconds:.0f} boards/s (target >= 500); mean length {r.lengths.mean():.2f}, "
          f"mean generated {r.generated.mean():,.0f}")
    return r.wall_seconds


def bench_dask(args) -> None:
    from distributed import Client, LocalCluster

    import slidetable.dask as sd

    puzzle = st.Puzzle(4, 4, "blank-first")
    boards = random_solvable(puzzle, args.boards, 3)
    local = st.Solver(puzzle, heuristic="pdb", partition="7-8", dir=args.dir)
    direct = local.solve_batch(boards)
    del local
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            t = time.perf_counter()
            r = sd.solve_batch(boards, puzzle, client=client, heuristic="pdb", partition="7-8", dir=args.dir)
            wall = time.perf_counter() - t
    assert (r.lengths == direct.lengths).all()
    print(f"solve_batch in-process: {direct.wall_seconds:.2f} s; on a 2-worker LocalCluster: {wall:.2f} s "
          f"(table loading included: {r.load_seconds:.1f} s per worker); ratio {wall / direct.wall_seconds:.2f} "
          f"(target <= 1.5)")


def _their_solve(board: list, n: int, heuristic: str, out) -> None:
    """PyPI slidingpuzzle's A* on one board (run in a child process, so a board can be timed out)."""
    import slidingpuzzle as sp

    rows = [board[r * n:(r + 1) * n] for r in range(n)]
    t = time.perf_counter()
    r = sp.search(sp.from_rows(*rows), "a*", heuristic=getattr(sp, heuristic))
    out.put((len(r.solution), time.perf_counter() - t, r.generated))


def their_solve(board: np.ndarray, n: int, heuristic: str, timeout: float):
    """(length, seconds, generated), or None when it did not finish within `timeout` seconds."""
    import multiprocessing as mp

    q = mp.Queue()
    p = mp.Process(target=_their_solve, args=([int(t) for t in board], n, heuristic, q))
    p.start()
    p.join(timeout)
    if p.is_alive():
        p.kill()
        p.join()
        return None
    return q.get()


def bench_slidingpuzzle(args) -> None:
    import slidingpuzzle as sp  # PyPI `slidingpuzzle`

    p3 = st.Puzzle(3, 3)
    table = st.Table.build(p3)
    boards = random_solvable(p3, 200, 4)
    exact = table.distance(boards)
    t = time.perf_counter()
    their = [sp.search(sp.from_rows(*[list(map(int, b[r * 3:r * 3 + 3])) for r in range(3)]), "a*",
                       heuristic=sp.manhattan_distance) for b in boards]
    their_s = time.perf_counter() - t
    t = time.perf_counter()
    ours = st.solve_batch(boards, p3, heuristic="manhattan", algorithm="astar", threads=1)
    ours_s = time.perf_counter() - t
    their_len = np.array([len(r.solution) for r in their])
    assert (their_len == exact).all() and (ours.lengths == exact).all()
    print(f"200 random 8-puzzles, A* with Manhattan: slidingpuzzle {their_s:.2f} s "
          f"({np.mean([r.generated for r in their]):,.0f} nodes generated a board), slidetable {ours_s * 1e3:.1f} ms "
          f"({ours.generated.mean():,.0f}), one thread each: {their_s / ours_s:.0f}x; lengths equal to the table's")
    # 15-puzzle: theirs A* with their linear conflict, ours IDA* with the 7-8 tables (or linear conflict)
    p4 = st.Puzzle(4, 4)
    hard = random_solvable(p4, args.fifteen, 5)
    try:
        solver = st.Solver(p4, heuristic="pdb", partition="7-8", dir=args.dir, build_missing=False)
        how = "IDA* with 7-8 + reflection"
    except (OSError, ValueError):
        solver = st.Solver(p4, heuristic="linear-conflict")
        how = "IDA* with linear conflict"
    print(f"{len(hard)} random 15-puzzles: slidingpuzzle A* with linear_conflict_distance, at most {args.timeout:.0f} s "
          f"a board, against slidetable {how} (one thread)")
    done, ratios = 0, []
    for i, b in enumerate(hard):
        ours = solver.solve(b, threads=1)
        theirs = their_solve(b, 4, "linear_conflict_distance", args.timeout)
        if theirs is None:
            print(f"  board {i + 1:2}: ours {ours.length} moves in {ours.seconds * 1e3:8.1f} ms; "
                  f"theirs did not finish in {args.timeout:.0f} s")
            continue
        done += 1
        ratios.append(theirs[1] / ours.seconds)
        print(f"  board {i + 1:2}: ours {ours.length} moves in {ours.seconds * 1e3:8.1f} ms; theirs {theirs[0]} moves "
              f"in {theirs[1]:.1f} s ({theirs[2]:,} generated); {'equal' if theirs[0] == ours.length else 'DIFFER'}")
    if ratios:
        print(f"  theirs finished {done} of {len(hard)}; on those, median ratio theirs/ours "
              f"{statistics.median(ratios):,.0f}x")


def numpy_manhattan(puzzle: st.Puzzle):
    """Manhattan distance written in numpy, as a user would write a heuristic function: the
    callable path's stand-in for a learned model."""
    rows, cols = puzzle.shape
    goal = puzzle.goal.reshape(-1)
    goal_row, goal_col = np.zeros(puzzle.cells, np.int16), np.zeros(puzzle.cells, np.int16)
    goal_row[goal], goal_col[goal] = np.arange(puzzle.cells) // cols, np.arange(puzzle.cells) % cols
    cell_row, cell_col = (np.arange(puzzle.cells) // cols).astype(np.int16), (np.arange(puzzle.cells) % cols).astype(np.int16)

    def h(boards: np.ndarray) -> np.ndarray:
        d = np.abs(goal_row[boards] - cell_row) + np.abs(goal_col[boards] - cell_col)
        d[boards == 0] = 0
        return d.sum(axis=1)

    return h


def bench_bwas(args) -> None:
    k = st.instances("korf100")
    h = numpy_manhattan(k.puzzle)
    boards = k.boards[: args.instances]
    assert (h(boards) == k.puzzle.heuristic(boards, "manhattan")).all()
    weight = 1 / args.lam
    fn = st.Solver(k.puzzle, heuristic=h)
    builtin = st.Solver(k.puzzle, heuristic="manhattan", build_missing=False)
    print(f"batch-weighted A* (DeepCubeA's BWAS), Manhattan, lambda {args.lam} (weight {weight:.3f}), "
          f"batch {args.batch_size}, Korf's {len(boards)}; median of {args.repeat} runs of each instance set")
    rows = []
    for rep in range(args.repeat):
        a = fn.solve_batch(boards, algorithm="bwas", weight=weight, batch_size=args.batch_size, optimal=False)
        b = builtin.solve_batch(boards, algorithm="bwas", weight=weight, batch_size=args.batch_size, optimal=False)
        assert (a.lengths == b.lengths).all() and (a.expanded == b.expanded).all(), "the same search"
        rows.append((a.search_seconds.sum(), a.heuristic_seconds.sum(), a.evaluated.sum(), b.seconds.sum(),
                     a.wall_seconds))
        own, in_h, evaluated, built, wall = rows[-1]
        print(f"  run {rep + 1}: function path {wall:.2f} s (search {own:.2f} s, in the function {in_h:.2f} s); "
              f"built-in {built:.2f} s; search / built-in {own / built:.2f}; {evaluated / in_h / 1e6:.1f} M boards/s "
              f"in the function")
    own, in_h, evaluated, built, _ = (statistics.median(c) for c in zip(*rows))
    gap = a.lengths.astype(int) - k.optimal[: len(boards)]
    print(f"median: search's own time {own:.2f} s against the built-in search's {built:.2f} s: ratio {own / built:.2f} "
          f"(target <= 3); the function evaluated {evaluated / in_h / 1e6:.1f} M boards/s (target >= 1 M)")
    print(f"  {int(a.evaluated.sum()):,} boards evaluated in {int(a.heuristic_calls.sum()):,} calls; "
          f"{int(a.expanded.sum()):,} nodes expanded")
    print(f"  solution lengths against Korf's optima: mean gap {gap.mean():.2f} moves, max {gap.max()}, "
          f"{(gap == 0).sum()} of {len(gap)} optimal")
def bench_gym(args) -> None:
    import gymnasium

    from slidetable.gym import SlidingPuzzleEnv, SlidingPuzzleVectorEnv

    n, calls = args.envs, args.steps
    actions = np.random.default_rng(0).integers(0, 4, (calls, n))  # illegal actions included
    print(f"SlidingPuzzleVectorEnv, {n} 3x3 boards, {calls} step() calls a run, random actions, "
          f"next-step autoreset at 200 steps; board-steps per second, {args.repeat} runs (target >= 2,000,000)")
    for label, kwargs in (("default: info with distance, action_mask, steps", {}),
                          ("optimal_actions=True: and the optimal actions", {"optimal_actions": True})):
        envs = SlidingPuzzleVectorEnv(n, 3, 3, seed=0, **kwargs)
        envs.reset()

        def run() -> None:
            for a in actions:
                envs.step(a)

        run()  # warm up
        rates = sorted(n * calls / median_time(run, 1) for _ in range(args.repeat))
        print(f"  {label}: median {statistics.median(rates):,.0f} steps/s "
              f"(runs {', '.join(f'{r / 1e6:.2f}' for r in rates)} M)")
    # for scale: Gymnasium's SyncVectorEnv over as many single environments (a loop over the boards)
    sync = gymnasium.vector.SyncVectorEnv([lambda i=i: SlidingPuzzleEnv(3, 3, seed=i) for i in range(n)])
    sync.reset(seed=0)
    few = actions[:10]
    secs = median_time(lambda: [sync.step(a) for a in few], 3)
    print(f"  for scale, SyncVectorEnv of {n} SlidingPuzzleEnv: {n * len(few) / secs:,.0f} steps/s")
    sync.close()


def bench_datasets(args) -> None:
    table = st.Table.build(st.Puzzle(3, 3))
    per = -(-100_000 // (table.max_depth + 1))  # 3,125 at each of the 32 depths
    st.balanced_sample(table, per, replace=True, seed=0)  # warm up
    secs = median_time(lambda: st.balanced_sample(table, per, replace=True, seed=1), args.repeat)
    n = len(st.balanced_sample(table, per, replace=True, seed=1))
    print(f"balanced_sample: {n:,} 3x3 boards ({per:,} at each depth, with replacement), distances and "
          f"optimal moves: median {secs * 1e3:.1f} ms of {args.repeat} (target <= 100 ms)")
    capped = median_time(lambda: st.balanced_sample(table, per, seed=1), args.repeat)
    print(f"  without replacement (capped at what each depth holds: "
          f"{len(st.balanced_sample(table, per, seed=1)):,} boards): {capped * 1e3:.1f} ms")
    p = st.Puzzle(4, 4, "blank-first")
    t = time.perf_counter()
    solver = st.Solver(p, heuristic="pdb", partition="7-8", dir=args.dir, build_missing=args.build)
    print(f"7-8 tables loaded in {time.perf_counter() - t:.1f} s (apart from the labelling)")
    runs = []
    for rep in range(args.repeat_walks):
        t = time.perf_counter()
        w = st.labelled_walks(p, args.walks, 60, seed=rep, solver=solver)
        runs.append(time.perf_counter() - t)
        print(f"  run {rep + 1}: {len(w):,} boards from 60-move walks labelled in {runs[-1]:.1f} s "
              f"(distances {int(w.distances.min())}-{int(w.distances.max())}, mean {w.distances.mean():.1f})")
    print(f"labelled_walks: median {statistics.median(runs):.1f} s for {args.walks:,} boards (target <= 30 s)")


def bench_pictures(args) -> None:
    p = st.Puzzle(3, 3)
    boards = random_solvable(p, 1000, 0)
    pictures = [p.picture(b) for b in boards]
    secs = median_time(lambda: [x.to_svg() for x in pictures], args.repeat)
    print(f"1,000 3x3 boards' SVGs: median {secs * 1e3:.1f} ms of {args.repeat} (target <= 500 ms)")
    made = median_time(lambda: [p.picture(b).to_svg() for b in boards], args.repeat)
    print(f"  with each picture made from its array too: {made * 1e3:.1f} ms")
    table = st.Table.build(p)
    sol = table.solve([8, 6, 7, 2, 5, 4, 3, 0, 1])  # one of the two boards 31 moves out
    html = sol._repr_html_()
    print(f"the 3x3's hardest board ({sol.length} moves): its Solution's HTML (start and animation) is "
          f"{len(html.encode()):,} bytes (target <= 50 KB)")


def bench_progress(args) -> None:
    p = st.Puzzle(3, 4)
    runs: dict[str, list[float]] = {"no bar (progress=False)": [], "the bar (progress=True)": []}
    for rep in range(args.repeat_builds):
        order = [("no bar (progress=False)", False), ("the bar (progress=True)", True)]
        for name, progress in order if rep % 2 == 0 else order[::-1]:  # neither always first
            t = time.perf_counter()
            st.Table.build(p, progress=progress)
            runs[name].append(time.perf_counter() - t)
            print(f"  run {rep + 1}, {name}: {runs[name][-1]:.2f} s", file=sys.stderr if progress else sys.stdout)
    for name, secs in runs.items():
        print(f"3x4 Table.build, {name}: median {statistics.median(secs):.2f} s of {len(secs)}")
    ratio = statistics.median(runs["the bar (progress=True)"]) / statistics.median(runs["no bar (progress=False)"])
    print(f"with the bar / without: {ratio:.3f} (target: no slower)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["distance", "pdb", "batch", "dask", "slidingpuzzle", "bwas", "gym", "datasets", "pictures", "progress"])
    ap.add_argument("--walks", type=int, default=10_000, help="datasets: boards from random walks")
    ap.add_argument("--repeat-walks", type=int, default=3, help="datasets: runs of the labelling")
    ap.add_argument("--lam", type=float, default=0.6, help="bwas: DeepCubeA's lambda (weight 1/lambda)")
    ap.add_argument("--batch-size", type=int, default=1000, help="bwas: nodes expanded per step")
    ap.add_argument("--instances", type=int, default=100, help="bwas: the first N of Korf's 100")
    ap.add_argument("--dir", default="tables", help="where the 7-8 tables are")
    ap.add_argument("--build", action="store_true", help="build missing 7-8 tables (100 s, 2 GB of memory)")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--repeat-builds", type=int, default=3, help="progress: builds of the 3x4 with and without the bar")
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--fifteen", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=300, help="seconds slidingpuzzle gets for one 15-puzzle")
    ap.add_argument("--envs", type=int, default=1024, help="boards of the vector environment (gym)")
    ap.add_argument("--steps", type=int, default=500, help="step() calls a timed run (gym)")
    args = ap.parse_args()
    {"distance": bench_distance, "pdb": bench_pdb, "batch": bench_batch, "dask": bench_dask,
     "slidingpuzzle": bench_slidingpuzzle, "bwas": bench_bwas, "gym": bench_gym,
     "datasets": bench_datasets, "pictures": bench_pictures, "progress": bench_progress}[args.what](args)


if __name__ == "__main__":
    sys.exit(main())
