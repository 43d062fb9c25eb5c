"""What a researcher's trial of the package found, each pinned by a test: a heuristic function
that marks dead ends (+inf), Ctrl-C between its calls, unknown optima, goals that cannot be
reached, what a heuristic may return, grading that leaves the caller's boards alone, and the data
set's move convention."""

from __future__ import annotations

import os
import signal
import threading
import time
import warnings

import numpy as np
import pytest

import slidetable as st

P = st.Puzzle(3, 3)
TABLE = st.Table.build(P)
HARD = [8, 6, 7, 2, 5, 4, 3, 0, 1]
KORF1 = [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]


def manhattan(boards: np.ndarray) -> np.ndarray:
    return P.heuristic(boards, "manhattan").astype(np.float64)


# -- +inf marks a dead end ----------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ["astar", "weighted", "greedy", "bwas"])
def test_a_heuristic_of_infinity_everywhere_stops_at_once_and_says_why(algorithm):
    inf = lambda b: np.full(len(b), np.inf)  # noqa: E731
    started = time.perf_counter()
    with pytest.raises(st.SearchLimitError, match=f"^{algorithm} found no solution: every board left .* dead end") as e:
        st.Solver(P, heuristic=inf).solve(HARD, algorithm=algorithm)
    assert time.perf_counter() - started < 5
    assert e.value.generated == 1  # the start, estimated +inf, is never expanded
    # in a batch, the board is FAILED with the reason, and its node count is kept
    r = st.solve_batch([HARD, HARD], P, heuristic=inf, algorithm=algorithm)
    assert (r.lengths == st.FAILED).all() and all("dead end" in e for e in r.errors)
    assert (r.generated == 1).all()


def test_dead_ends_on_the_way_are_gone_around():
    truth = TABLE.distance(HARD)
    # +inf for every board whose distance is above the start's: the path down stays open
    def h(boards: np.ndarray) -> np.ndarray:
        d = TABLE.distance(boards).astype(np.float64)
        return np.where(d > truth, np.inf, d)

    sol = st.Solver(P, heuristic=h).solve(HARD, algorithm="bwas", batch_size=10)
    assert sol.length == truth


def test_a_limit_names_the_search_asked_for_and_the_batch_keeps_the_count():
    r = st.solve_batch([HARD], P, heuristic=lambda b: np.zeros(len(b)), algorithm="greedy", max_nodes=500)
    assert r.lengths[0] == st.FAILED and r.errors[0].startswith("greedy gave up"), r.errors[0]
    assert r.generated[0] > 500


def test_ctrl_c_stops_a_search_between_calls_of_the_heuristic():
    # the heuristic is asked rarely (a batch of 100,000 per step): the search spends its time
    # between calls, where the signal must still be seen
    calls = []

    def slow_to_ask(boards: np.ndarray) -> np.ndarray:
        calls.append(len(boards))
        return np.zeros(len(boards))

    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    p = st.Puzzle(4, 4)
    try:
        timer.start()
        started = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            st.Solver(p, heuristic=slow_to_ask).solve(p.random_walk(1, 60, seed=3)[0], algorithm="bwas", batch_size=100_000,
                                                      max_memory=4 << 30)
        assert time.perf_counter() - started < 10
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


# -- optima: known, unknown, proven ---------------------------------------------------------------


def test_an_unknown_optimum_is_nan_not_minus_one(tmp_path):
    p = st.Puzzle(4, 4, "blank-first")
    boards = p.random_walk(2, 12, seed=5)
    h = lambda b: p.heuristic(b, "manhattan")  # noqa: E731
    r = st.solve_batch(boards, p, heuristic=h, algorithm="astar", dir=tmp_path, optimal=False)
    assert r.lengths.dtype == np.int32
    assert np.isnan(r.optimal_lengths).all() and np.isnan(r.lengths - r.optimal_lengths).all()
    # on 3x3 the truth is had: the gap is a number
    r = st.solve_batch(TABLE.sample(10, 3, seed=1), P, heuristic=manhattan, algorithm="bwas", batch_size=5)
    assert (r.lengths - r.optimal_lengths == 0).all()


def test_an_optimal_search_reports_its_length_as_the_optimum():
    sol = st.Solver(P).solve(HARD, algorithm="idastar")
    assert sol.optimal and sol.optimal_length == sol.length == 31
    sol = TABLE.solve(HARD)
    assert sol.optimal_length == 31


def test_a_board_that_cannot_reach_the_solvers_goal_but_another_one_warns():
    p = st.Puzzle(4, 4)  # blank-last: Korf's boards are written toward blank-first
    s = st.Solver(p)
    with pytest.warns(UserWarning, match="the goal is blank-last; the board cannot reach it but can reach the blank-first goal"):
        assert s.solve(KORF1) is None
    with pytest.warns(UserWarning, match="2 of the 2 boards cannot reach it"):
        s.solve_batch([KORF1, KORF1])
    # a batch that mixes in an unsolvable board on purpose is not warned about
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s.solve_batch([KORF1, p.goal])
    # no puzzle= given: the warning says the goal was assumed, once
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert st.solve(KORF1) is None
    assert len(seen) == 1 and "no puzzle= was given" in str(seen[0].message), [str(w.message) for w in seen]
    assert seen[0].filename == __file__  # the warning points at the caller's line


# -- what a heuristic may return ---------------------------------------------------------------


@pytest.mark.parametrize(
    "answer, kind",
    [
        (lambda b: np.zeros(len(b), dtype=complex), "complex"),
        (lambda b: np.zeros(len(b), dtype=bool), "bool"),
        (lambda b: ["1"] * len(b), "<U1"),
        (lambda b: np.array([object()] * len(b)), "object"),
    ],
)
def test_a_heuristic_must_return_real_numbers(answer, kind):
    with pytest.raises(TypeError, match=f"real numbers .* of {kind}"):
        st.Solver(P, heuristic=answer).solve(HARD, algorithm="astar")
    with pytest.raises(TypeError, match="real numbers"):
        st.grade(answer, TABLE.sample(5, 3), table=TABLE)


def test_grading_never_changes_the_callers_boards():
    boards = TABLE.sample(8, 20, seed=2)
    before = boards.copy()

    def vandal(b: np.ndarray) -> np.ndarray:
        b[:] = 0  # an in-place operation on its input
        return np.zeros(len(b))

    st.grade(vandal, boards, table=TABLE)
    np.testing.assert_array_equal(boards, before)


def test_the_estimate_at_the_goal_is_kept_as_given():
    g = TABLE.grade(lambda b: manhattan(b) + 0.25)
    assert g.at_goal == 0.25 and not g.consistent
    assert "h(goal) = 0.25" in g.summary()


# -- data sets ---------------------------------------------------------------------------------


def test_a_dataset_compares_by_identity_and_hashes():
    d = st.balanced_sample(TABLE, 3, seed=1)
    assert d == d and d != st.balanced_sample(TABLE, 3, seed=1)
    assert len({d}) == 1


def test_a_datasets_labels_in_the_tile_convention(tmp_path):
    d = st.balanced_sample(TABLE, 20, seed=4)
    t = d.in_convention("tile")
    assert t.convention == "tile" and d.convention == "blank"
    for i in range(len(d)):
        if d.distances[i] == 0:
            assert t.first_moves[i] == -1 and not t.optimal_moves[i].any()
            continue
        # the tile's move reaches the same board as the blank's
        blank = st.MOVES[d.first_moves[i]]
        tile = st.MOVES[t.first_moves[i]]
        np.testing.assert_array_equal(P.apply(d.boards[i], blank), P.apply(d.boards[i], tile, convention="tile"))
        np.testing.assert_array_equal(t.optimal_moves[i], P.expand(d.boards[i], convention="tile")[1] &
                                      (TABLE.distance(P.expand(d.boards[i], convention="tile")[0]) == d.distances[i] - 1))
    assert t.in_convention("blank").first_moves.tolist() == d.first_moves.tolist()
    back = st.Dataset.load(t.save(tmp_path / "t.npz"))
    assert back.convention == "tile" and back.first_moves.tolist() == t.first_moves.tolist()
    with pytest.raises(ValueError, match="convention"):
        d.in_convention("tiles")  # type: ignore[arg-type]


# -- small things --------------------------------------------------------------------------------


def test_small_things_the_trial_met():
    with pytest.raises(ValueError, match="the deepest are at depth 31"):
        TABLE.sample(40, 5)
    with pytest.raises(ValueError, match="name a depth twice"):
        st.balanced_sample(TABLE, 3, depths=[5, 5])
    with pytest.raises(ValueError, match="batch_size"):
        TABLE.grade("manhattan", batch_size=0)
    assert "annotations" not in dir(st)
    assert repr(st.instances("korf100")) == "Instances('korf100', Puzzle(4, 4, goal='blank-first'), 100 boards, optimal lengths 41-66)"
