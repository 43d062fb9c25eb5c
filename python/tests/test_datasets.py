"""Data sets in one call (issue 39, item 4): depth-balanced samples of a table, and boards from
random walks labelled by an optimal solver, resumable."""

import os

import numpy as np
import pytest

import slidetable as st

P = st.Puzzle(3, 3)
T = st.Table.build(P)
H = T.histogram()


def test_balanced_sample_caps_each_depth_at_what_it_holds() -> None:
    d = st.balanced_sample(T, 100, seed=4)
    counts = np.bincount(d.distances, minlength=len(H))
    np.testing.assert_array_equal(counts, np.minimum(H, 100))
    assert len(d) == int(np.minimum(H, 100).sum())
    np.testing.assert_array_equal(T.distance(d.boards), d.distances)
    assert len(np.unique(d.boards, axis=0)) == len(d), "distinct boards without replacement"
    np.testing.assert_array_equal(d.optimal_moves, T.optimal_moves(d.boards))
    at_goal = d.distances == 0
    assert (d.first_moves[at_goal] == -1).all()
    rows = np.nonzero(~at_goal)[0]
    assert d.optimal_moves[rows, d.first_moves[rows]].all(), "the first move is an optimal one"
    assert (np.diff(d.distances) >= 0).all(), "depth by depth"


def test_balanced_sample_with_replacement_gives_exactly_per_depth() -> None:
    d = st.balanced_sample(T, 500, replace=True, seed=4)
    np.testing.assert_array_equal(np.bincount(d.distances), np.full(len(H), 500))
    np.testing.assert_array_equal(T.distance(d.boards), d.distances)
    # depth 1 holds 2 boards: drawn with replacement, both appear (each with chance 1 - 2**-499)
    assert len(np.unique(d.boards[d.distances == 1], axis=0)) == 2


def test_balanced_sample_is_reproducible_and_takes_depths() -> None:
    a = st.balanced_sample(T, 30, depths=[20, 5, 31], seed=9)  # the order given does not matter
    b = st.balanced_sample(T, 30, depths=[5, 20, 31], seed=9)
    np.testing.assert_array_equal(a.boards, b.boards)
    assert sorted(set(a.distances.tolist())) == [5, 20, 31]
    assert not np.array_equal(a.boards, st.balanced_sample(T, 30, depths=[5, 20, 31], seed=10).boards)
    assert len(st.balanced_sample(T, 10, depths=[40])) == 0
    for bad in (lambda: st.balanced_sample(T, -1), lambda: st.balanced_sample(T, 5, depths=[300])):
        with pytest.raises(ValueError):
            bad()
    with pytest.raises(TypeError):
        st.balanced_sample("eight.table", 5)  # type: ignore[arg-type]


def test_save_and_load(tmp_path) -> None:
    d = st.balanced_sample(T, 7, seed=1)
    d.save(tmp_path / "set.npz")
    e = st.Dataset.load(tmp_path / "set.npz")
    assert e.puzzle == d.puzzle and repr(e) == repr(d)
    for k in ("boards", "distances", "optimal_moves", "first_moves"):
        np.testing.assert_array_equal(getattr(e, k), getattr(d, k))
    pytest.importorskip("pyarrow")
    d.save(tmp_path / "set.parquet")
    f = st.Dataset.load(tmp_path / "set.parquet")
    np.testing.assert_array_equal(f.boards, d.boards)


def test_walks_on_a_table_board_are_labelled_exactly() -> None:
    w = st.labelled_walks(P, 500, (1, 40), seed=2)
    assert len(w) == 500 and w.walk_lengths.min() >= 1 and w.walk_lengths.max() <= 40
    np.testing.assert_array_equal(w.distances, T.distance(w.boards))
    assert (w.distances <= w.walk_lengths).all()
    assert ((w.walk_lengths - w.distances) % 2 == 0).all(), "a move changes the distance by one"
    np.testing.assert_array_equal(w.optimal_moves, T.optimal_moves(w.boards))


def test_walks_past_a_table_labelled_by_the_solver_and_resumed(tmp_path) -> None:
    p = st.Puzzle(4, 4, "blank-first")
    solver = st.Solver(p, heuristic="linear-conflict", dir=tmp_path)  # IDA*: optimal, proven
    results = tmp_path / "runs"
    calls = []

    def stop_after_two(done: int, total: int) -> None:
        calls.append((done, total))
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        st.labelled_walks(p, 50, (5, 25), seed=7, solver=solver, results=results, chunk=20, progress=stop_after_two)
    assert sorted(os.listdir(results)) == ["chunk-00000.npz", "chunk-00001.npz"]
    w = st.labelled_walks(p, 50, (5, 25), seed=7, solver=solver, results=results, chunk=20)
    assert sorted(os.listdir(results)) == ["chunk-00000.npz", "chunk-00001.npz", "chunk-00002.npz"]
    fresh = st.labelled_walks(p, 50, (5, 25), seed=7, solver=solver, chunk=20)
    for k in ("boards", "distances", "first_moves", "walk_lengths"):
        np.testing.assert_array_equal(getattr(w, k), getattr(fresh, k))
    assert w.optimal_moves is None
    assert (w.distances <= w.walk_lengths).all() and ((w.walk_lengths - w.distances) % 2 == 0).all()
    # each label against a second optimal search, and the first move leads one step closer
    for board, d, m in zip(w.boards[:12], w.distances[:12], w.first_moves[:12]):
        assert solver.solve(board).length == d
        if d:
            child = p.apply(board, st.MOVES[m])
            assert solver.solve(child).length == d - 1
    # other settings in the same directory are refused, not mixed in
    with pytest.raises(ValueError, match="other settings"):
        st.labelled_walks(p, 50, (5, 26), seed=7, solver=solver, results=results, chunk=20)


def test_walk_arguments_are_checked(tmp_path) -> None:
    with pytest.raises(ValueError, match="lo must not exceed hi"):
        st.labelled_walks(P, 5, (10, 3))
    with pytest.raises(ValueError, match="not solved optimally"):
        st.labelled_walks(st.Puzzle(4, 4), 3, 10, solver=st.Solver(st.Puzzle(4, 4), heuristic="nilsson", dir=tmp_path))
    with pytest.raises(ValueError, match="solver is for"):
        st.labelled_walks(st.Puzzle(4, 4), 3, 10, solver=st.Solver(st.Puzzle(3, 4), heuristic="manhattan", dir=tmp_path))
