"""slidetable.dask: solve_batch on a local Dask cluster of two worker processes."""

from __future__ import annotations

import importlib
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import slidetable as st

distributed = pytest.importorskip("distributed")
from distributed import Client, LocalCluster  # noqa: E402

import slidetable.dask as sd  # noqa: E402

P33 = st.Puzzle(3, 3)
P44 = st.Puzzle(4, 4)
TABLE = st.Table.build(P33)
_HIST = TABLE.histogram()
# 200 boards from 4 to 28 moves from the goal, 8 at each depth
BOARDS = np.concatenate([TABLE.sample(d, 8, seed=d) for d in range(4, 29)]).astype(np.int64)
assert len(BOARDS) == 200
# 15-puzzles that take IDA* with linear conflict 0.1 to 0.25 s each, with their optimal lengths
HARD_4X4 = [
    ([2, 3, 11, 5, 10, 1, 7, 6, 0, 4, 8, 14, 9, 13, 12, 15], 44),
    ([10, 7, 11, 5, 9, 0, 2, 3, 4, 14, 8, 15, 13, 1, 6, 12], 46),
    ([2, 10, 11, 8, 7, 0, 6, 3, 15, 1, 14, 5, 12, 9, 13, 4], 50),
    ([5, 2, 11, 8, 4, 0, 15, 7, 6, 1, 9, 12, 3, 14, 13, 10], 44),
    ([2, 9, 10, 8, 14, 5, 3, 15, 12, 4, 7, 13, 6, 11, 1, 0], 50),
    ([14, 9, 8, 3, 1, 7, 6, 4, 2, 11, 0, 10, 15, 5, 13, 12], 44),
    ([2, 10, 4, 3, 6, 5, 9, 0, 15, 11, 12, 7, 13, 1, 8, 14], 44),
    ([15, 6, 14, 9, 4, 0, 10, 5, 13, 11, 2, 3, 7, 1, 12, 8], 54),
    ([7, 6, 13, 5, 2, 10, 4, 1, 8, 14, 3, 15, 9, 0, 12, 11], 48),
    ([8, 3, 0, 11, 7, 1, 4, 2, 10, 15, 14, 12, 6, 13, 5, 9], 46),
    ([2, 10, 1, 7, 6, 11, 9, 4, 0, 13, 12, 14, 3, 5, 15, 8], 44),
    ([6, 10, 4, 5, 7, 13, 2, 0, 15, 14, 3, 12, 9, 8, 11, 1], 50),
    ([1, 12, 2, 7, 3, 4, 6, 14, 13, 8, 0, 5, 9, 10, 11, 15], 44),
    ([13, 1, 4, 6, 14, 10, 8, 0, 5, 7, 9, 15, 11, 2, 3, 12], 46),
    ([0, 4, 11, 13, 7, 1, 9, 15, 14, 6, 3, 2, 8, 5, 12, 10], 54),
    ([0, 9, 7, 1, 13, 10, 2, 6, 15, 5, 8, 11, 4, 14, 12, 3], 50),
    ([2, 12, 1, 7, 5, 0, 6, 3, 9, 13, 4, 8, 11, 14, 15, 10], 42),
    ([2, 7, 3, 8, 13, 0, 6, 4, 14, 11, 15, 12, 1, 10, 5, 9], 42),
    ([6, 3, 4, 2, 8, 5, 11, 7, 0, 12, 14, 15, 1, 13, 10, 9], 44),
    ([3, 4, 14, 13, 1, 5, 11, 8, 0, 6, 15, 7, 10, 12, 9, 2], 48),
    ([14, 13, 5, 9, 2, 15, 7, 0, 10, 12, 6, 3, 11, 8, 1, 4], 54),
    ([1, 7, 5, 10, 6, 3, 9, 8, 14, 13, 12, 4, 15, 2, 11, 0], 44),
    ([13, 9, 1, 7, 2, 6, 5, 11, 8, 4, 0, 14, 12, 15, 10, 3], 52),
    ([2, 4, 11, 10, 1, 6, 9, 0, 14, 3, 7, 8, 12, 5, 15, 13], 46),
]


def _cluster() -> LocalCluster:
    return LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")


@pytest.fixture(scope="module")
def client():
    with _cluster() as cluster, Client(cluster) as c:
        c.wait_for_workers(2, timeout=60)
        yield c


def swapped(board: np.ndarray) -> np.ndarray:
    """The board with its first two tiles swapped: the other parity, which cannot reach the goal."""
    b = board.copy()
    i, j = np.flatnonzero(b != 0)[:2]
    b[i], b[j] = b[j], b[i]
    return b


def check_solutions(puzzle: st.Puzzle, boards: np.ndarray, r: st.BatchResult) -> None:
    """Every solvable board's moves take it to the goal, in as many moves as its length."""
    for b, length, moves in zip(boards, r.lengths, r.moves):
        if length == st.UNSOLVABLE:
            assert moves is None
            continue
        assert len(moves) == length
        np.testing.assert_array_equal(puzzle.apply(b, moves, r.convention), puzzle.goal)


def lines_of(path: Path) -> list[dict[str, Any]]:
    text = path.read_text()
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def solver_name(**kw: Any) -> str:
    return sd.SolverPlugin(**kw).name


# -- results ---------------------------------------------------------------------------------------


def test_matches_solve_batch_in_input_order(client):
    boards = BOARDS.copy()
    bad = [0, 57, 121, 199]  # unsolvable boards here and there, at chunk edges too
    for i in bad:
        boards[i] = swapped(boards[i])
    calls: list[tuple[int, int]] = []
    r = sd.solve_batch(boards, P33, client=client, chunk_size=16, progress=lambda d, n: calls.append((d, n)))
    ref = st.solve_batch(boards, P33)
    assert isinstance(r, st.BatchResult) and len(r) == 200
    np.testing.assert_array_equal(r.lengths, ref.lengths)
    assert r.lengths.dtype == ref.lengths.dtype == np.int32
    assert list(np.flatnonzero(r.lengths == st.UNSOLVABLE)) == bad
    assert all(r.moves[i] is None for i in bad)
    expected = np.array(TABLE.distance(boards))
    np.testing.assert_array_equal(r.lengths, expected)  # input order, board by board
    check_solutions(P33, boards, r)
    assert r.optimal[r.lengths >= 0].all() and r.errors == [None] * 200
    assert r.generated.dtype == np.uint64 and r.seconds.dtype == np.float64
    assert r.convention == "blank" and r.wall_seconds > 0 and r.load_seconds > 0
    # progress: the start, then one call per chunk of 16 (13 chunks), ending with everything
    assert calls[0] == (0, 200) and calls[-1] == (200, 200) and len(calls) == 1 + 13
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_tile_convention_and_odd_shapes(client):
    boards = BOARDS[::7].reshape(-1, 3, 3)  # (N, rows, cols) works too
    r = sd.solve_batch(boards, P33, client=client, chunk_size=5, convention="tile")
    assert r.convention == "tile"
    check_solutions(P33, boards.reshape(-1, 9), r)
    ref = st.solve_batch(boards, P33, convention="tile")
    assert r.moves == ref.moves
    # a single board is a batch of one; nothing to solve needs no work (nor a cluster)
    one = sd.solve_batch(BOARDS[5], P33, client=client)
    assert len(one) == 1 and one.lengths[0] == TABLE.distance(BOARDS[5])
    empty = sd.solve_batch(np.zeros((0, 9), dtype=np.uint8), P33, client=client)
    assert len(empty) == 0 and empty.lengths.dtype == np.int32
    # without client=, the current client
    with client.as_current():
        r = sd.solve_batch(BOARDS[:20], P33, chunk_size=7)
        assert len(sd.worker_stats()) == 2
    np.testing.assert_array_equal(r.lengths, TABLE.distance(BOARDS[:20]))


def test_bad_input_is_refused_before_anything_runs(client, tmp_path):
    with pytest.raises(ValueError, match="board 1"):
        sd.solve_batch([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 1, 3, 4, 5, 6, 7, 8, 0]], P33, client=client)
    with pytest.raises(ValueError, match="chunk_size"):
        sd.solve_batch(BOARDS, P33, client=client, chunk_size=0)
    db = st.PatternDB.load(P33, "auto", dir=tmp_path)
    with pytest.raises(TypeError, match="PatternDB"):
        sd.solve_batch(BOARDS, P33, client=client, heuristic=db)  # type: ignore[arg-type]


def test_limits_mark_boards_failed(client):
    r = sd.solve_batch(BOARDS[-16:], P33, client=client, chunk_size=4, heuristic="misplaced", max_nodes=50)
    assert (r.lengths == st.FAILED).any()
    assert all((e is not None) == (length == st.FAILED) for e, length in zip(r.errors, r.lengths))


# -- tables opened once per worker -----------------------------------------------------------------


def test_within_gives_each_boards_proof_and_resumes(client, tmp_path):
    path = tmp_path / "within.jsonl"
    r = sd.solve_batch(BOARDS[:40], P33, client=client, heuristic="manhattan", within=1.25, chunk_size=16,
                       results_file=path, progress=False)
    opt = np.array([TABLE.distance(b) for b in BOARDS[:40]])
    assert r.lower_bounds is not None and r.lower_bounds.dtype == np.int32
    assert (r.lower_bounds <= opt).all() and (opt <= r.lengths).all() and (r.lengths <= 1.25 * r.lower_bounds).all()
    # read back from the file, bounds and all; another factor is another run
    again = sd.solve_batch(BOARDS[:40], P33, client=client, heuristic="manhattan", within=1.25, chunk_size=16,
                           results_file=path, progress=False)
    assert (again.lower_bounds == r.lower_bounds).all() and again.wall_seconds == 0
    assert r.stopped == again.stopped == [None] * 40 and r.goal == again.goal == "blank-last"
    with pytest.raises(ValueError):
        sd.solve_batch(BOARDS[:40], P33, client=client, heuristic="manhattan", within=2, chunk_size=16,
                       results_file=path, progress=False)


def test_tables_are_opened_once_per_worker(client, tmp_path):
    st.PatternDB.load(P33, "auto", dir=tmp_path)  # build the pattern tables once, here
    kw: dict[str, Any] = dict(heuristic="pdb", partition="auto", dir=str(tmp_path), build_missing=False)
    name = solver_name(puzzle=P33, **kw)
    other = solver_name(puzzle=P33, heuristic="manhattan", dir=str(tmp_path))
    ref = st.solve_batch(BOARDS, P33)
    for _ in range(2):  # 25 tasks a run, two runs: still one opening per worker
        r = sd.solve_batch(BOARDS, P33, client=client, chunk_size=8, **kw)
        np.testing.assert_array_equal(r.lengths, ref.lengths)
        assert r.load_seconds > 0
    r = sd.solve_batch(BOARDS, P33, client=client, chunk_size=8, heuristic="manhattan", dir=str(tmp_path))
    np.testing.assert_array_equal(r.lengths, ref.lengths)
    stats = sd.worker_stats(client)
    assert len(stats) == 2
    for per_worker in stats.values():
        for n in (name, other):  # the two solvers live side by side
            assert per_worker[n]["loads"] == 1
            assert per_worker[n]["source"] == "plugin" and per_worker[n]["open"]
    assert sum(s[name]["chunks"] for s in stats.values()) == 50
    assert sum(s[name]["boards"] for s in stats.values()) == 400
    assert sum(s[other]["chunks"] for s in stats.values()) == 25


def test_missing_tables_raise_and_leave_no_plugin(client, tmp_path):
    kw: dict[str, Any] = dict(heuristic="pdb", partition="auto", dir=str(tmp_path / "nowhere"), build_missing=False)
    with pytest.raises(FileNotFoundError, match="no such directory"):
        sd.solve_batch(BOARDS[:10], P33, client=client, **kw)
    name = solver_name(puzzle=P33, **kw)
    plugins = client.run(lambda dask_worker: list(dask_worker.plugins))
    assert all(name not in names for names in plugins.values())


# -- resuming from a results file ------------------------------------------------------------------


@pytest.fixture
def submissions(client, monkeypatch):
    """The chunk indices submitted to the cluster (from the task keys)."""
    seen: list[int] = []
    real = client.submit

    def counting(*args: Any, **kwargs: Any) -> Any:
        seen.append(int(str(kwargs["key"]).rsplit("-", 1)[1]))
        return real(*args, **kwargs)

    monkeypatch.setattr(client, "submit", counting)
    return seen


def test_resume_computes_only_missing_chunks(client, tmp_path, submissions):
    boards = BOARDS[::2]  # 100 boards, 10 chunks of 10
    kw: dict[str, Any] = dict(client=client, chunk_size=10, dir=str(tmp_path))
    name = solver_name(puzzle=P33, dir=str(tmp_path))
    full = tmp_path / "full.jsonl"
    ref = sd.solve_batch(boards, P33, results_file=full, **kw)
    recs = lines_of(full)
    assert sorted(r["chunk"] for r in recs) == list(range(10)) and sorted(submissions) == list(range(10))
    by_chunk = {r["chunk"]: r for r in recs}
    raw = {r["chunk"]: line for r, line in zip(recs, full.read_text().splitlines())}

    # a file as a killed run leaves it: chunks 0, 2 and 5 done, chunk 7 cut short mid-line
    part = tmp_path / "part.jsonl"
    part.write_text(raw[0] + "\n" + raw[2] + "\n" + raw[5] + "\n" + raw[7][:45])
    before = sum(s[name]["chunks"] for s in sd.worker_stats(client).values())
    submissions.clear()
    r = sd.solve_batch(boards, P33, results_file=part, **kw)
    assert sorted(submissions) == [1, 3, 4, 6, 7, 8, 9]
    after = sum(s[name]["chunks"] for s in sd.worker_stats(client).values())
    assert after - before == 7
    recs2 = lines_of(part)  # every line whole (the cut one dropped), each chunk exactly once
    assert sorted(x["chunk"] for x in recs2) == list(range(10))
    assert [x["chunk"] for x in recs2[:3]] == [0, 2, 5]
    for x in recs2:
        assert x["lengths"] == by_chunk[x["chunk"]]["lengths"] and x["hash"] == by_chunk[x["chunk"]]["hash"]
    np.testing.assert_array_equal(r.lengths, ref.lengths)
    assert r.moves == ref.moves
    check_solutions(P33, boards, r)

    # run again: nothing left to do, nothing submitted, the same result, the file unchanged
    submissions.clear()
    text = part.read_text()
    r3 = sd.solve_batch(boards, P33, results_file=part, **kw)
    assert submissions == [] and part.read_text() == text
    np.testing.assert_array_equal(r3.lengths, ref.lengths)
    assert r3.wall_seconds == 0.0 and r3.load_seconds == 0.0

    # a chunk recorded twice (identically) counts once
    dup = tmp_path / "dup.jsonl"
    dup.write_text(raw[3] + "\n" + raw[3] + "\n")
    submissions.clear()
    sd.solve_batch(boards, P33, results_file=dup, **kw)
    assert sorted(submissions) == [0, 1, 2, 4, 5, 6, 7, 8, 9]
    assert sorted(x["chunk"] for x in lines_of(dup)) == [0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9]


def test_resume_after_an_interrupted_run(client, tmp_path, submissions):
    boards = BOARDS[1::2]
    f = tmp_path / "run.jsonl"

    class Stop(Exception):
        pass

    def stop_after_30(done: int, total: int) -> None:
        if done >= 30:
            raise Stop

    with pytest.raises(Stop):
        sd.solve_batch(boards, P33, client=client, chunk_size=10, results_file=f, progress=stop_after_30)
    written = [x["chunk"] for x in lines_of(f)]
    assert len(written) == 3
    submissions.clear()
    r = sd.solve_batch(boards, P33, client=client, chunk_size=10, results_file=f)
    assert sorted(submissions) == sorted(set(range(10)) - set(written))
    assert sorted(x["chunk"] for x in lines_of(f)) == list(range(10))
    np.testing.assert_array_equal(r.lengths, TABLE.distance(boards))
    check_solutions(P33, boards, r)

    # a subset's chunks are the first chunks of the whole: solving the subset first counts
    g = tmp_path / "subset.jsonl"
    sd.solve_batch(boards[:40], P33, client=client, chunk_size=10, results_file=g)
    submissions.clear()
    r = sd.solve_batch(boards, P33, client=client, chunk_size=10, results_file=g)
    assert sorted(submissions) == [4, 5, 6, 7, 8, 9]
    np.testing.assert_array_equal(r.lengths, TABLE.distance(boards))


def test_a_results_file_of_other_boards_is_refused(client, tmp_path, submissions):
    boards = BOARDS[:40]
    f = tmp_path / "r.jsonl"
    sd.solve_batch(boards, P33, client=client, chunk_size=10, results_file=f)
    text = f.read_text()
    submissions.clear()
    with pytest.raises(ValueError, match="other boards"):
        sd.solve_batch(boards[::-1], P33, client=client, chunk_size=10, results_file=f)
    with pytest.raises(ValueError, match="other boards"):
        sd.solve_batch(boards, st.Puzzle(3, 3, "blank-first"), client=client, chunk_size=10, results_file=f)
    with pytest.raises(ValueError, match="chunk_size"):
        sd.solve_batch(boards, P33, client=client, chunk_size=20, results_file=f)
    with pytest.raises(ValueError, match="chunk_size"):
        sd.solve_batch(boards[:30], P33, client=client, chunk_size=10, results_file=f)
    assert submissions == [] and f.read_text() == text  # nothing run, the file untouched
    bad = tmp_path / "bad.jsonl"
    lines = text.splitlines()
    bad.write_text(lines[0] + "\n{not json\n" + lines[1] + "\n")
    with pytest.raises(ValueError, match="line 2 is not a slidetable.dask result"):
        sd.solve_batch(boards, P33, client=client, chunk_size=10, results_file=bad)


# -- a worker dying mid-run ------------------------------------------------------------------------


def test_a_worker_killed_mid_run_loses_and_doubles_nothing(tmp_path):
    boards = np.array([b for b, _ in HARD_4X4])
    optimal = np.array([n for _, n in HARD_4X4])
    f = tmp_path / "kill.jsonl"
    with _cluster() as cluster, Client(cluster) as c:
        c.wait_for_workers(2, timeout=60)
        pids: dict[str, int] = c.run(os.getpid)
        killed: list[tuple[str, int, int, list[int]]] = []

        def kill_a_busy_worker(done: int, total: int) -> None:
            if killed or done == 0 or done == total:
                return
            busy = {w: keys for w, keys in c.processing().items() if keys and w in pids}
            victim = next(iter(busy)) if busy else next(iter(pids))
            os.kill(pids[victim], signal.SIGKILL)
            lost = [int(str(k).rsplit("-", 1)[1]) for k in busy.get(victim, ())]
            killed.append((victim, pids[victim], done, lost))

        r = sd.solve_batch(
            boards,
            P44,
            client=c,
            heuristic="linear-conflict",
            algorithm="idastar",
            chunk_size=2,
            results_file=f,
            progress=kill_a_busy_worker,
            timeout=180,
        )
        assert killed, "the run ended before a worker could be killed"
        victim, pid, done_then, lost = killed[0]
        assert done_then < len(boards) and lost, "the killed worker had no task in hand"
        # the nanny started a new worker process in place of the killed one
        c.wait_for_workers(2, timeout=60)
        assert pid not in c.run(os.getpid).values()

    assert len(r) == len(boards)
    np.testing.assert_array_equal(r.lengths, optimal)
    assert r.optimal.all() and r.errors == [None] * len(boards)
    check_solutions(P44, boards, r)
    recs = lines_of(f)
    assert sorted(x["chunk"] for x in recs) == list(range(12))  # each chunk written exactly once
    # the chunks the killed worker had in hand were solved again, by another worker
    redone = {x["chunk"]: x["worker"] for x in recs if x["chunk"] in lost}
    assert sorted(redone) == sorted(lost) and victim not in redone.values()


def test_import_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.delitem(sys.modules, "slidetable.dask")
    with pytest.raises(ImportError, match=r"pip install distributed"):
        importlib.import_module("slidetable.dask")
