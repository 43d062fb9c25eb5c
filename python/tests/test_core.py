"""The package against known answers, a plain Python BFS, and the library itself; every bad input."""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import sys
import threading
import time
import _thread

import numpy as np
import pytest

import slidetable as st

HARDEST = [8, 6, 7, 2, 5, 4, 3, 0, 1]  # 31 moves from blank-last (Utgoff & Saxena 1987)
# Figure 3 of the 1987 report, corrected (docs/figure3.md): states of the 8-puzzle at each depth.
FIGURE3 = [1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878,
           16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2]


def bfs_distances(rows: int, cols: int, goal: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Every state's distance to `goal` by a plain queue BFS: the obviously correct reference."""
    dist = {goal: 0}
    queue = collections.deque([goal])
    while queue:
        s = queue.popleft()
        b = s.index(0)
        r, c = divmod(b, cols)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols:
                cells = list(s)
                n = nr * cols + nc
                cells[b], cells[n] = cells[n], cells[b]
                t = tuple(cells)
                if t not in dist:
                    dist[t] = dist[s] + 1
                    queue.append(t)
    return dist


@pytest.fixture(scope="module")
def eight() -> st.Table:
    return st.Table.build(st.Puzzle(3, 3))


@pytest.fixture(scope="module")
def eight_file(tmp_path_factory, eight) -> str:
    path = tmp_path_factory.mktemp("tables") / "eight.table"
    st.Table.build(st.Puzzle(3, 3), path)
    return str(path)


# -- known answers and cross-checks -------------------------------------------------------------


def test_known_answers(eight):
    assert len(eight) == 181440
    assert eight.max_depth == 31
    assert eight.histogram().tolist() == FIGURE3
    assert eight.distance(HARDEST) == 31
    assert eight.distance([6, 4, 7, 8, 5, 0, 3, 2, 1]) == 31
    assert eight.distance([1, 2, 3, 4, 5, 6, 7, 8, 0]) == 0
    assert eight.distance([2, 1, 3, 4, 5, 6, 7, 8, 0]) is None


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (2, 4)])
@pytest.mark.parametrize("goal", ["blank-last", "blank-first"])
def test_every_state_matches_a_plain_bfs(shape, goal):
    puzzle = st.Puzzle(*shape, goal=goal)
    table = st.Table.build(puzzle)
    reference = bfs_distances(*shape, tuple(int(t) for t in puzzle.goal))
    boards = table.unrank(np.arange(len(table)))
    assert len(table) == len(reference)
    got = table.distance(boards)
    want = np.array([reference[tuple(int(t) for t in b)] for b in boards])
    np.testing.assert_array_equal(got, want)
    # rank is unrank's inverse, and the optimal-move flags step exactly one closer
    np.testing.assert_array_equal(table.rank(boards), np.arange(len(table)))
    kids, valid = puzzle.expand(boards)
    flags = table.optimal_moves(boards)
    for i in range(0, len(boards), 7):
        for a in range(4):
            closer = bool(valid[i, a]) and reference[tuple(int(t) for t in kids[i, a])] == want[i] - 1
            assert flags[i, a] == closer


def test_3x3_sample_against_the_reference(eight):
    reference = bfs_distances(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    boards = eight.unrank(np.random.default_rng(5).integers(0, len(eight), 3000))
    np.testing.assert_array_equal(eight.distance(boards), [reference[tuple(int(t) for t in b)] for b in boards])


def test_dtypes_layouts_and_batches(eight):
    boards = eight.sample(20, 50, seed=3)
    want = eight.distance(boards)
    assert want.dtype == np.int16 and (want == 20).all()
    for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64, np.uint64):
        np.testing.assert_array_equal(eight.distance(boards.astype(dtype)), want)
    # (N, rows, cols), Fortran order, strided views and lists
    np.testing.assert_array_equal(eight.distance(boards.reshape(-1, 3, 3)), want)
    np.testing.assert_array_equal(eight.distance(np.asfortranarray(boards)), want)
    wide = np.zeros((50, 18), dtype=np.int64)
    wide[:, ::2] = boards
    np.testing.assert_array_equal(eight.distance(wide[:, ::2]), want)
    np.testing.assert_array_equal(eight.distance(boards.tolist()), want)
    assert eight.distance(np.array(HARDEST).reshape(3, 3)) == 31
    assert eight.distance(np.empty((0, 9), dtype=np.uint8)).shape == (0,)
    # a misaligned array (as unpickling can make) is taken, not refused
    raw = bytearray(1 + boards.size * 2)
    raw[1:] = boards.astype("<u2").tobytes()
    odd = np.frombuffer(bytes(raw), dtype="<u2", offset=1).reshape(-1, 9)
    assert not odd.flags.aligned
    assert eight.puzzle.is_solvable(odd).all()
    np.testing.assert_array_equal(eight.puzzle.heuristic(odd), eight.puzzle.heuristic(boards))
    # unsolvable boards get the sentinel in batches
    mixed = np.array([HARDEST, [2, 1, 3, 4, 5, 6, 7, 8, 0]])
    assert eight.distance(mixed).tolist() == [31, st.UNSOLVABLE]
    assert eight.rank(mixed)[1] == st.UNSOLVABLE


def test_sample_is_uniform_at_the_depth_and_reproducible(eight):
    a = eight.sample(25, 500, seed=11)
    assert (eight.distance(a) == 25).all()
    assert len({tuple(b) for b in a.tolist()}) == 500
    np.testing.assert_array_equal(a, eight.sample(25, 500, seed=11))
    assert not np.array_equal(a, eight.sample(25, 500, seed=12))
    with pytest.raises(ValueError, match="has 2 states at depth 31"):
        eight.sample(31, 3)


def test_random_boards_are_uniform_over_the_reachable_states(eight):
    p = eight.puzzle
    boards = p.random_boards(40_000, seed=3)
    assert boards.shape == (40_000, 9) and boards.dtype == p.dtype and p.is_solvable(boards).all()
    assert (boards == p.random_boards(40_000, seed=3)).all() and not (boards == p.random_boards(40_000, seed=4)).all()
    # their distances follow the whole table's distribution (chi-square over the depths with 5
    # or more expected boards; a random walk's are far off)
    expected = eight.histogram() * 40_000 / eight.histogram().sum()
    got = np.bincount(eight.distance(boards), minlength=len(expected))
    keep = expected >= 5
    assert ((got[keep] - expected[keep]) ** 2 / expected[keep]).sum() < 60
    walks = p.random_walk(40_000, 30, seed=3)
    got = np.bincount(eight.distance(walks), minlength=len(expected))
    assert ((got[keep] - expected[keep]) ** 2 / expected[keep]).sum() > 1000
    # any board, no table; 0 boards; refusals
    big = st.Puzzle(5, 5, "blank-first").random_boards(3, seed=1)
    assert big.shape == (3, 25) and st.Puzzle(5, 5, "blank-first").is_solvable(big).all()
    assert p.random_boards(0).shape == (0, 9)
    with pytest.raises(ValueError):
        p.random_boards(-1)
    with pytest.raises(TypeError):
        p.random_boards(2.5)


def test_solutions_are_optimal_and_counted(eight):
    p = eight.puzzle
    sol = eight.solve(HARDEST)
    assert sol.length == 31 and sol.optimal
    assert (p.apply(HARDEST, sol.moves) == p.goal).all()
    tile = eight.solve(HARDEST, convention="tile")
    assert tile.moves == st.to_tile_moves(sol.moves)
    assert (p.apply(HARDEST, tile.moves, convention="tile") == p.goal).all()
    assert (p.apply(HARDEST, tile.actions, convention="tile") == p.goal).all()
    assert eight.solve([2, 1, 3, 4, 5, 6, 7, 8, 0]) is None
    # one-move boards have one solution; the count agrees with brute force on a small case
    assert eight.count_solutions([1, 2, 3, 4, 5, 6, 7, 0, 8]) == 1
    assert eight.count_solutions(HARDEST) > 1


def test_search_agrees_with_the_table(eight):
    boards = eight.sample(18, 30, seed=2)
    for algorithm in ("astar", "idastar", "bfs"):
        r = st.solve_batch(boards, st.Puzzle(3, 3), heuristic="manhattan", algorithm=algorithm)
        assert (r.lengths == 18).all() and r.optimal.all()
        assert all(m is not None and len(m) == 18 for m in r.moves)
    one = st.solve(boards[0], heuristic="misplaced", algorithm="astar")
    assert one.length == 18 and one.optimal and one.generated > one.expanded > 0
    greedy = st.solve(boards[0], algorithm="greedy")
    assert greedy.length >= 18 and greedy.optimal in (True, False)
    weighted = st.solve(boards[0], algorithm="weighted", weight=1.5)
    assert weighted.algorithm == "weighted" and weighted.length >= 18


def test_heuristics_and_their_grades(eight):
    boards = eight.sample(22, 200, seed=4)
    p = eight.puzzle
    h1, h2, lc = (p.heuristic(boards, n) for n in ("misplaced", "manhattan", "linear-conflict"))
    assert (h1 <= h2).all() and (h2 <= lc).all() and (lc <= 22).all()
    assert p.heuristic(HARDEST, "manhattan") == 21
    g = eight.grade("manhattan")
    assert g.admissible and g.consistent and g.states.sum() == len(eight)
    n = eight.grade("nilsson")
    assert not n.admissible and n.total_overestimates > 0
    # a Python heuristic graded like a named one gives the same figures
    learned = eight.grade(lambda b: p.heuristic(b, "manhattan"))
    np.testing.assert_array_equal(learned.exact_share, g.exact_share)
    assert learned.total_inconsistent_edges == g.total_inconsistent_edges
    # floats are rounded up, so an overestimate stays one
    over = eight.grade(lambda b: p.heuristic(b, "manhattan") + 0.5)
    assert over.total_overestimates > 0
    with pytest.raises(ValueError, match="shape"):
        eight.grade(lambda b: np.zeros(3))


def test_children_moves_and_walks():
    p = st.Puzzle(3, 3)
    kids, valid = p.expand(p.goal)
    assert valid.tolist() == [True, False, True, False]  # the blank can go up and left
    assert (kids[1] == p.goal).all()
    tkids, tvalid = p.expand(p.goal, convention="tile")
    assert tvalid.tolist() == [False, True, False, True]
    assert (tkids[1] == kids[0]).all()
    walks = p.random_walk(100, 30, seed=9)
    np.testing.assert_array_equal(walks, st.random_walk(p, 100, 30, seed=9))
    assert p.is_solvable(walks).all()
    assert st.moves_to_actions("UDLR").tolist() == [0, 1, 2, 3]
    assert st.actions_to_moves([3, 2]) == "RL"
    assert st.to_blank_moves(st.to_tile_moves("UULDR")) == "UULDR"
    with pytest.raises(ValueError, match="move 2 \\(R\\) takes the blank off the board"):
        p.apply(p.goal, "UR")


def test_parse_goals_and_pickling():
    import pickle

    assert st.parse("8 6 7 / 2 5 4 / 3 _ 1").tolist() == HARDEST
    assert st.parse("867254301").tolist() == HARDEST
    assert st.parse("3\n 8 6 7\n 2 5 4\n 3 0 1\n").tolist() == HARDEST
    p = st.Puzzle(3, 3, goal="snail")
    assert p.goal.tolist() == [1, 2, 3, 8, 0, 4, 7, 6, 5] and p.goal_name == "snail"
    assert st.Puzzle(3, 3, goal=[0, 1, 2, 3, 4, 5, 6, 7, 8]) == st.Puzzle(3, 3, goal="blank-first")
    assert pickle.loads(pickle.dumps(p)) == p
    assert st.Puzzle(2, 4).shape == (2, 4) and st.Puzzle(4).cells == 16


def test_instances_ship_with_the_package():
    k = st.instances("korf100")
    assert len(k) == 100 and k.puzzle == st.Puzzle(4, 4, "blank-first")
    assert k.optimal.mean() == pytest.approx(53.05)
    assert k.puzzle.is_solvable(k.boards).all()
    k24 = st.instances("korf24")
    assert k24.boards.shape == (50, 25) and k24.published_nodes[0] == 2031102635
    with pytest.raises(ValueError, match="korf100 or korf24"):
        st.instances("korf99")


def test_experiment_against_the_book():
    e = st.experiment(depths=[2, 4, 6, 8], count=30, seed=1)
    assert e.columns == ["A*(hamming)", "A*(manhattan)"]
    assert e.generated.shape == (4, 2) and (e.generated[:, 1] <= e.generated[:, 0]).all()
    assert not np.isnan(e.published).any()
    rn = st.experiment(preset="rn", depths=[2, 4, 6], count=20)
    assert rn.columns[0] == "IDS" and np.isfinite(rn.b_star).all()


def test_pattern_databases_are_admissible_and_match_the_reference(tmp_path, eight):
    p = st.Puzzle(3, 3)
    notes: list[str] = []
    db = st.PatternDB.load(p, "1,2,3,4/5,6,7,8", dir=tmp_path, notice=notes.append)
    assert len(notes) == 2 and "was missing; built it" in notes[0]
    assert sorted(os.listdir(tmp_path)) == sorted(f for f in os.listdir(tmp_path) if f.endswith(".table"))
    boards = eight.sample(20, 300, seed=8)
    h = db.h(boards)
    plain = db.h(boards, reflect=False)
    assert (plain <= h).all() and (h <= 20).all() and (h >= p.heuristic(boards, "misplaced")).all()
    # loaded again: from the files, nothing built
    notes.clear()
    again = st.PatternDB.load(p, "1,2,3,4/5,6,7,8", dir=tmp_path, notice=notes.append)
    assert notes == [] and (again.h(boards) == h).all() and not again.shared
    mapped = st.PatternDB.load(p, "1,2,3,4/5,6,7,8", dir=tmp_path, share=True)
    assert mapped.shared and (mapped.h(boards) == h).all()
    s = st.Solver(p, heuristic=again)
    assert s.heuristic == "pdb"
    r = s.solve_batch(boards[:20])
    assert (r.lengths == 20).all() and r.optimal.all()
    with pytest.raises(ValueError, match="no pattern table at"):
        st.PatternDB.load(p, "1,2,3/4,5,6,7,8", dir=tmp_path, build_missing=False)


def test_pattern_catalogues_take_the_largest_sum(tmp_path, eight):
    p = st.Puzzle(3, 3)
    a = st.PatternDB.load(p, "1,2,3,4/5,6,7,8", dir=tmp_path)
    b = st.PatternDB.load(p, "1,2,5,6/3,4,7,8", dir=tmp_path)
    cat = st.PatternDB.load(p, "1,2,3,4/5,6,7,8 + 1,2,5,6/3,4,7,8", dir=tmp_path)
    assert cat.groups == [[1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 5, 6], [3, 4, 7, 8]]
    boards = eight.sample(20, 300, seed=9)
    h = cat.h(boards)
    assert (h == np.maximum(a.h(boards), b.h(boards))).all() and (h <= 20).all()
    r = st.Solver(p, heuristic=cat).solve_batch(boards[:10])
    assert (r.lengths == 20).all() and r.optimal.all()


def test_file_tables_open_zero_copy(eight_file, eight):
    t = st.Table.open(eight_file)
    assert t.path == eight_file and t.distance(HARDEST) == 31
    a = t.as_array()
    assert a.shape == (181440,) and not a.flags.writeable
    np.testing.assert_array_equal(a, eight.as_array())
    assert a[t.rank(HARDEST)] == 31
    with pytest.raises(ValueError):
        a[0] = 1
    del t  # the view keeps the mapping alive
    assert int(a.max()) == 31
    t2 = st.Table.open(eight_file)
    t2.verify()


# -- bad input ----------------------------------------------------------------------------------


def test_bad_boards_raise_with_the_cli_words(eight):
    with pytest.raises(TypeError, match="integer"):
        eight.distance(np.array(HARDEST, dtype=float))
    with pytest.raises(TypeError):
        eight.distance(["a"] * 9)
    with pytest.raises(ValueError, match="board 1: bad board: tile -1 is out of range"):
        eight.distance([HARDEST, [8, 6, 7, 2, 5, 4, 3, 0, -1]])
    with pytest.raises(ValueError, match="tile 9 is out of range: a 3x3 board has tiles 1 to 8 and the blank 0"):
        eight.distance([8, 6, 7, 2, 5, 4, 3, 9, 1])
    with pytest.raises(ValueError, match="board 2: bad board: tile 6 appears more than once"):
        eight.distance([HARDEST, HARDEST, [8, 6, 6, 2, 5, 4, 3, 0, 1]])
    with pytest.raises(ValueError, match=r"a 2x3 board given \(6 tiles\), but this puzzle is 3x3 \(9 cells\): give st.Puzzle\(2, 3\)"):
        st.Table.build(st.Puzzle(3, 3)).distance([[1, 2, 3], [4, 5, 0]])
    with pytest.raises(ValueError, match="16 tiles given, but a 3x3 board has 9 cells"):
        eight.distance(list(range(16)))
    with pytest.raises(ValueError, match="3x3"):
        eight.distance(np.zeros((2, 4, 4), dtype=int))
    with pytest.raises(ValueError):
        eight.distance(np.zeros((2, 2, 3, 3), dtype=int))
    with pytest.raises(ValueError, match="blank"):
        eight.distance([1, 2, 3, 4, 5, 6, 7, 0, 0])
    with pytest.raises(ValueError, match="not a tile number"):
        st.parse("8 6 7 2 5 4 3 x 1")
    with pytest.raises(ValueError, match="out of range"):
        eight.unrank([len(eight)])
    with pytest.raises(ValueError, match="unknown heuristic"):
        st.Puzzle(3, 3).heuristic(HARDEST, "euclid")
    with pytest.raises(ValueError, match="convention"):
        eight.optimal_moves(HARDEST, convention="left")
    with pytest.raises(ValueError, match="bad goal"):
        st.Puzzle(3, 3, goal="sideways")
    with pytest.raises(ValueError, match="tables go up to 15 cells"):
        st.Table.build(st.Puzzle(4, 4))
    with pytest.raises(ValueError, match="unknown algorithm"):
        st.solve(HARDEST, algorithm="dfs")


def test_damaged_and_missing_files(tmp_path, eight_file):
    with pytest.raises(FileNotFoundError, match="opening"):
        st.Table.open(tmp_path / "nothing.table")
    data = open(eight_file, "rb").read()
    cut = tmp_path / "cut.table"
    cut.write_bytes(data[:-100])
    with pytest.raises(st.TableError, match="truncated"):
        st.Table.open(cut)
    flipped = tmp_path / "flipped.table"
    b = bytearray(data)
    b[-5000] ^= 0x40
    flipped.write_bytes(bytes(b))
    with pytest.raises(st.TableError, match="checksum"):
        st.Table.open(flipped)
    junk = tmp_path / "junk.table"
    junk.write_bytes(b"not a table at all" * 300)
    with pytest.raises(st.TableError, match="magic"):
        st.Table.open(junk)
    assert issubclass(st.TableError, ValueError)
    # a 2x3 table asked about a 3x3 board
    small = st.Table.build(st.Puzzle(2, 3))
    with pytest.raises(ValueError, match="a 2x3 board has 6 cells"):
        small.distance(HARDEST)
    # an unwritable path: the build fails with OSError and leaves nothing
    with pytest.raises(OSError):
        st.Table.build(st.Puzzle(2, 3), tmp_path / "no" / "such" / "dir" / "x.table")


def test_search_limits_raise_and_batches_go_on(eight):
    deep = eight.sample(26, 4, seed=1)
    with pytest.raises(st.SearchLimitError, match="gave up"):
        st.solve(deep[0], heuristic="misplaced", algorithm="astar", max_nodes=100)
    r = st.solve_batch(np.vstack([deep, [[1, 2, 3, 4, 5, 6, 7, 0, 8]]]), heuristic="misplaced", algorithm="astar",
                       max_nodes=100)
    assert (r.lengths[:4] == st.FAILED).all() and r.lengths[4] == 1
    assert r.errors[0] is not None and r.errors[4] is None


# -- the GIL and Ctrl-C --------------------------------------------------------------------------


def test_long_calls_release_the_gil(eight):
    boards = eight.sample(27, 60, seed=5)
    ticks = [0]
    stop = threading.Event()

    def count() -> None:
        while not stop.is_set():
            ticks[0] += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        before = ticks[0]
        started = time.perf_counter()
        r = st.solve_batch(boards, heuristic="misplaced", algorithm="astar", threads=1)
        seconds = time.perf_counter() - started
        during = ticks[0] - before
    finally:
        stop.set()
        t.join()
    assert (r.lengths == 27).all()
    # a thread holding no GIL-free time would be frozen for the whole call
    assert seconds > 0.05, seconds
    assert during > 1000, (during, seconds)


def test_ctrl_c_stops_a_long_search():
    hard = st.instances("korf100").boards[0]  # days for IDA* with misplaced tiles
    solver = st.Solver(st.Puzzle(4, 4, "blank-first"), heuristic="misplaced")
    # Python's own Ctrl-C handler, even where SIGINT came in ignored (a background job)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    try:
        timer.start()
        started = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            solver.solve(hard, algorithm="idastar", threads=1)
        assert time.perf_counter() - started < 5
        # and the solver answers the next question
        assert solver.solve(solver.puzzle.goal).length == 0
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


# -- the stubs --------------------------------------------------------------------------------------


def test_stubs_match_the_extension(tmp_path):
    pytest.importorskip("mypy")
    # from a scratch directory, so the installed package (with its stubs) is what is checked
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "slidetable._core"], capture_output=True, text=True, cwd=tmp_path
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_what_a_review_found(tmp_path, eight_file):
    p = st.Puzzle(3, 3)
    # an impossible allocation is an exception, not a crash
    with pytest.raises((MemoryError, ValueError)):
        p.random_walk(2**62, 1)
    # numbers are whole numbers: floats and bools are refused, negatives are ValueErrors
    for bad in (lambda: st.Puzzle(2.5, 3), lambda: p.random_walk(2.5, 5), lambda: p.random_walk(2, 5, seed=1.7),
                lambda: st.Table.build(p).sample(5.5, 1), lambda: st.actions_to_moves([1.5]),
                lambda: st.Puzzle(True, 3), lambda: st.parse(123), lambda: st.moves_to_actions(5),
                lambda: st.Table.build("3x3")):
        with pytest.raises(TypeError):
            bad()
    for bad in (lambda: st.Puzzle(-1, 3), lambda: st.solve(HARDEST, max_nodes=-1), lambda: st.solve(HARDEST, threads=0),
                lambda: st.experiment(count=-1), lambda: st.moves_to_actions("U,X")):
        with pytest.raises(ValueError):
            bad()
    # grade's batch size, and a heuristic of the wrong shape
    t = st.Table.build(st.Puzzle(2, 3))
    with pytest.raises(ValueError, match="batch_size"):
        t.grade(lambda b: np.zeros(len(b)), batch_size=-1)
    with pytest.raises(ValueError, match="one number per board"):
        t.grade(lambda b: np.zeros((2, len(b) // 2)))
    # empty Python lists are empty batches; no moves is no moves
    assert t.distance([]).shape == (0,) and t.unrank([]).shape == (0, 6)
    assert (p.apply(p.goal, []) == p.goal).all()
    # one board given as a grid, to the module-level calls
    fifteen = st.instances("korf100").boards[0]
    assert st.heuristic(fifteen.reshape(4, 4), puzzle=st.Puzzle(4, 4, "blank-first")) == st.heuristic(
        fifteen, puzzle=st.Puzzle(4, 4, "blank-first"))
    assert st.solve(np.array(HARDEST).reshape(3, 3)).length == 31
    # file errors keep their kind through the solver
    with pytest.raises(FileNotFoundError):
        st.Solver(p, heuristic="table", table=tmp_path / "missing.table")
    with pytest.raises(FileNotFoundError):
        st.Solver(p, dir=tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError, match="^opening [^:]*: No such file"):
        st.Table.open(tmp_path / "nope.table")
    damaged = tmp_path / "damaged.table"
    data = bytearray(open(eight_file, "rb").read())
    data[-10] ^= 1
    damaged.write_bytes(bytes(data))
    with pytest.raises(st.TableError):
        st.Solver(p, heuristic="table", table=damaged)
    # a table heuristic without a table is refused when the solver is made, not at every search
    with pytest.raises(ValueError, match="no table"):
        st.Solver(st.Puzzle(2, 5), heuristic="table", dir=tmp_path)
    # tables, solvers and pattern databases pickle (opened or built again where unpickled)
    import pickle

    t2 = pickle.loads(pickle.dumps(st.Table.open(eight_file)))
    assert t2.distance(HARDEST) == 31
    assert pickle.loads(pickle.dumps(t)).distance([1, 2, 3, 4, 0, 5]) == 1
    s = pickle.loads(pickle.dumps(st.Solver(p, heuristic="manhattan")))
    assert s.heuristic == "manhattan" and s.solve(HARDEST).length == 31
    db = st.PatternDB.load(p, "1,2,3,4/5,6,7,8", dir=tmp_path)
    assert (pickle.loads(pickle.dumps(db)).h(HARDEST)) == db.h(HARDEST)


def test_a_failing_progress_callback_stops_the_build(tmp_path):
    path = tmp_path / "t.table"
    path.write_bytes(b"the user's old file")
    seen = []

    def progress(p):
        seen.append(p["depth"])
        if p["depth"] == 2:
            raise ZeroDivisionError("stop here")

    # 3x4: 239,500,800 states, seconds to build in full; stopped after a few levels
    started = time.perf_counter()
    with pytest.raises(ZeroDivisionError, match="stop here"):
        st.Table.build(st.Puzzle(3, 4), path, progress=progress)
    assert time.perf_counter() - started < 2.5
    assert path.read_bytes() == b"the user's old file"
    assert os.listdir(tmp_path) == ["t.table"]
    assert seen[:3] == [0, 1, 2] and len(seen) < 20
