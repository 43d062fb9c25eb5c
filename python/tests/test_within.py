"""Solutions within a proven factor (``within=``): the bound against the perfect table, the
batch's bounds, the anytime search at a time limit, and every bad argument."""

from __future__ import annotations

import numpy as np
import pytest

import slidetable as st

HARDEST = [8, 6, 7, 2, 5, 4, 3, 0, 1]  # 31 moves


@pytest.fixture(scope="module")
def table() -> st.Table:
    return st.Table.build(st.Puzzle(3, 3))


@pytest.mark.parametrize("w", [1.0, 1.1, 1.5, 3.0])
def test_within_holds_against_the_table(table: st.Table, w: float) -> None:
    boards = table.sample(24, 20, seed=5)
    s = st.Solver(st.Puzzle(3, 3), heuristic="manhattan")
    for b in boards:
        sol = s.solve(b, within=w)
        opt = table.distance(b)
        assert sol.lower_bound <= opt <= sol.length <= w * opt
        assert sol.length <= w * sol.lower_bound + 1e-9
        assert sol.within == pytest.approx(sol.length / sol.lower_bound)
        assert sol.stopped is None and sol.algorithm == "within"
        end = st.Puzzle(3, 3).apply(b, sol.moves)
        assert list(end) == list(st.Puzzle(3, 3).goal)


def test_batch_gives_each_boards_bound(table: st.Table) -> None:
    boards = table.sample(26, 8, seed=2)
    r = st.solve_batch(boards, puzzle=st.Puzzle(3, 3), heuristic="manhattan", within=1.25, progress=False)
    assert r.lower_bounds.dtype == np.int32
    opt = np.array([table.distance(b) for b in boards])
    assert (r.lower_bounds <= opt).all() and (r.lengths <= 1.25 * opt).all()
    assert (r.lengths <= 1.25 * r.lower_bounds).all()
    assert r.stopped == [None] * len(boards) and r.to_pandas()["stopped"].isna().all()
    # an optimal search's bound is its length
    r = st.solve_batch(boards, puzzle=st.Puzzle(3, 3), heuristic="manhattan", algorithm="astar", progress=False)
    assert (r.lower_bounds == r.lengths).all()


def test_a_batch_says_which_boards_a_limit_stopped() -> None:
    # a 6x6 board stopped at 1,000 nodes returns its best solution, unproven, and says why; the
    # 8-puzzle beside it is proven
    six = [8, 10, 7, 18, 0, 6, 13, 12, 23, 22, 5, 4, 2, 9, 15, 14, 1, 20, 31, 35, 11, 21, 17, 16, 34, 3,
           26, 33, 19, 24, 27, 29, 25, 28, 32, 30]
    r = st.solve_batch([six], puzzle=st.Puzzle(6, 6), heuristic="manhattan", within=1.25, max_nodes=1000, progress=False)
    assert r.lengths[0] > 1.25 * r.lower_bounds[0] and "1000 nodes" in r.stopped[0]
    assert "1000 nodes" in r.to_pandas()["stopped"][0]
    r = st.solve_batch([HARDEST], puzzle=st.Puzzle(3, 3), heuristic="manhattan", within=1.25, progress=False)
    assert r.stopped == [None]
    # batch searches with a heuristic function have no such column
    r = st.solve_batch([HARDEST], puzzle=st.Puzzle(3, 3), heuristic=lambda b: np.zeros(len(b)), progress=False)
    assert r.stopped is None and "stopped" not in r.to_pandas()


def test_weighted_search_reports_its_bound_too() -> None:
    sol = st.solve(HARDEST, heuristic="manhattan", algorithm="weighted", weight=3)
    assert sol.lower_bound is not None and sol.lower_bound <= 31 <= sol.length
    assert sol.within <= 3


def test_anytime_returns_its_best_at_the_time_limit() -> None:
    # DeepCubeA's first 35-puzzle board (their solution: 128 moves)
    board = [8, 10, 7, 18, 0, 6, 13, 12, 23, 22, 5, 4, 2, 9, 15, 14, 1, 20, 31, 35, 11, 21, 17, 16, 34, 3,
             26, 33, 19, 24, 27, 29, 25, 28, 32, 30]
    sol = st.solve(board, heuristic="manhattan", anytime=True, time_limit=1.0)
    assert sol is not None and "time limit" in sol.stopped
    assert sol.lower_bound >= 84 and sol.length >= sol.lower_bound  # 84: its Manhattan distance
    assert list(st.Puzzle(6, 6).apply(board, sol.moves)) == list(st.Puzzle(6, 6).goal)
    assert "of optimal: at least" in sol._repr_html_()


def test_large_boards_are_solved_by_construction_with_their_bound() -> None:
    p = st.Puzzle(20, 20)
    board = p.random_boards(1, seed=3)[0]
    sol = st.solve(board, puzzle=p)  # auto past 64 cells: reduce
    assert sol.algorithm == "reduce" and sol.stopped is None
    manhattan = p.heuristic(board, "manhattan")
    assert manhattan <= sol.lower_bound <= sol.length
    assert sol.within == pytest.approx(sol.length / sol.lower_bound)
    assert list(p.apply(board, sol.moves)) == list(p.goal)
    # and on request on a small board, its bound the heuristic's
    sol = st.solve(HARDEST, heuristic="manhattan", algorithm="reduce")
    assert sol.algorithm == "reduce" and 21 <= sol.lower_bound <= 31 <= sol.length


def test_beam_search_is_a_valid_solution_with_its_bound() -> None:
    p = st.Puzzle(6, 6)
    board = p.random_boards(1, seed=5)[0]
    sol = st.solve(board, puzzle=p, heuristic="linear-conflict", algorithm="beam")
    assert sol.algorithm == "beam" and sol.stopped is None
    assert p.heuristic(board, "linear-conflict") <= sol.lower_bound <= sol.length
    assert list(p.apply(board, sol.moves)) == list(p.goal)
    # the 8-puzzle's hardest board: no longer than reduce's, never shorter than the optimum
    sol = st.solve(HARDEST, heuristic="manhattan", algorithm="beam")
    assert sol.algorithm == "beam" and 31 <= sol.length


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(within=0.9), ValueError),
        (dict(within=1.0001), ValueError),
        (dict(within="1.1"), TypeError),
        (dict(within=True), TypeError),
        (dict(within=1.5, algorithm="astar"), ValueError),
        (dict(within=1.5, weight=2), ValueError),
        (dict(time_limit=0), ValueError),
        (dict(time_limit=float("nan")), ValueError),
        (dict(anytime="yes"), TypeError),
        (dict(algorithm="bwas", time_limit=3), ValueError),
        (dict(algorithm="beam", batch_size=50), ValueError),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, error: type) -> None:
    with pytest.raises(error):
        st.solve(HARDEST, heuristic="manhattan", **kwargs)


def test_a_heuristic_that_proves_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="admissible"):
        st.solve(HARDEST, heuristic="nilsson", within=1.5)
