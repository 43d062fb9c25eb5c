"""Search with a heuristic given as a Python function of a batch of boards (issue 39): A*,
weighted A*, greedy and batch-weighted A* (BWAS), checked against the perfect 3x3 table."""

import numpy as np
import pytest

import slidetable as st

P = st.Puzzle(3, 3)
TABLE = st.Table.build(P)


def manhattan_np(puzzle: st.Puzzle):
    """Manhattan distance in plain numpy (not the library's): the stand-in for a model."""
    cols = puzzle.cols
    goal = puzzle.goal.reshape(-1)
    gr, gc = np.zeros(puzzle.cells, int), np.zeros(puzzle.cells, int)
    gr[goal], gc[goal] = np.arange(puzzle.cells) // cols, np.arange(puzzle.cells) % cols
    cr, cc = np.arange(puzzle.cells) // cols, np.arange(puzzle.cells) % cols

    def h(boards: np.ndarray) -> np.ndarray:
        d = np.abs(gr[boards] - cr) + np.abs(gc[boards] - cc)
        d[boards == 0] = 0
        return d.sum(axis=1)

    return h


class Counting:
    """A heuristic function that records what it was given."""

    def __init__(self, f):
        self.f, self.calls, self.boards, self.seen = f, 0, 0, []

    def __call__(self, boards: np.ndarray):
        assert boards.dtype == np.uint8 and boards.ndim == 2 and boards.shape[1] == 9
        self.calls += 1
        self.boards += len(boards)
        self.seen.append(boards.copy())
        return self.f(boards)


def sample_boards(per_depth: int = 3, seed: int = 7) -> list[tuple[np.ndarray, int]]:
    out = []
    for d in range(1, TABLE.max_depth + 1):
        n = min(per_depth, int(TABLE.histogram()[d]))
        for b in TABLE.sample(d, n, seed=seed):
            out.append((b, d))
    return out


def replays(board: np.ndarray, sol: st.Solution) -> bool:
    end = P.apply(board, sol.moves, convention=sol.convention)
    return bool((end == P.goal.reshape(-1)).all())


def test_numpy_manhattan_is_the_library_s() -> None:
    boards = P.random_walk(1000, 40, seed=1)
    np.testing.assert_array_equal(manhattan_np(P)(boards), P.heuristic(boards, "manhattan"))


def test_astar_with_an_admissible_function_is_optimal_at_every_depth() -> None:
    h = manhattan_np(P)
    s = st.Solver(P, heuristic=h)
    assert s.heuristic == "callable"
    for board, d in sample_boards():
        sol = s.solve(board, algorithm="astar")
        assert sol is not None and replays(board, sol)
        assert sol.length == d == sol.optimal_length, board
        assert sol.optimal is True and sol.algorithm == "astar" and sol.heuristic == "callable"


def test_bwas_solves_and_reports_what_it_asked() -> None:
    s_fn = st.Solver(P, heuristic=manhattan_np(P))
    for board, d in sample_boards(per_depth=1, seed=3)[::3]:
        for batch_size, weight in [(10, 1.0), (100, 1.0), (64, 1.5), (1000, 0.5)]:
            counted = Counting(manhattan_np(P))
            sol = st.Solver(P, heuristic=counted).solve(board, algorithm="bwas", batch_size=batch_size, weight=weight)
            assert sol is not None and replays(board, sol)
            assert sol.length >= d and sol.optimal_length == d
            assert sol.optimal == (sol.length == d)
            # one call per step at most, and every board estimated once
            assert sol.heuristic_calls == counted.calls and sol.evaluated == counted.boards
            seen = np.concatenate(counted.seen)
            assert len(np.unique(seen, axis=0)) == len(seen), "a board was estimated twice"
            assert (seen[0] == board).all(), "the start is estimated first"
            assert 0 <= sol.heuristic_seconds <= sol.seconds and sol.search_seconds >= 0
            assert sol.algorithm == "bwas"
        # the same search with the built-in Manhattan: the same moves and counts
        a = s_fn.solve(board, algorithm="bwas", batch_size=50)
        b = st.Solver(P, heuristic="manhattan").solve(board, algorithm="bwas", batch_size=50)
        assert (a.moves, a.expanded, a.generated, a.evaluated) == (b.moves, b.expanded, b.generated, b.evaluated)
        assert b.heuristic == "manhattan"


def test_weighted_and_greedy_with_a_function() -> None:
    s = st.Solver(P, heuristic=manhattan_np(P))
    for board, d in sample_boards(per_depth=2, seed=5):
        w = s.solve(board, algorithm="weighted", weight=2)
        assert replays(board, w) and d <= w.length <= 2 * d and w.algorithm == "weighted"
        g = s.solve(board, algorithm="greedy")
        assert replays(board, g) and g.length >= d and g.algorithm == "greedy"
        gb = s.solve(board, algorithm="greedy", batch_size=20)
        assert replays(board, gb) and gb.algorithm == "bwas"


def test_answers_of_any_numeric_form_are_taken() -> None:
    h = manhattan_np(P)
    board = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    forms = [
        lambda b: h(b).astype(np.float32),
        lambda b: h(b).reshape(-1, 1),  # a network's (N, 1) output
        lambda b: list(h(b)),
        lambda b: h(b).astype(np.int8),
    ]
    for f in forms:
        sol = st.solve(board, P, heuristic=f, algorithm="bwas", batch_size=20)
        assert sol.length >= 31 and sol.optimal_length == 31


def test_bad_functions_and_options_are_refused_in_words() -> None:
    board = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    with pytest.raises(ValueError, match=r"one number per board, shape \(1,\)"):
        st.solve(board, P, heuristic=lambda b: np.zeros(3))
    with pytest.raises(ValueError, match="gave NaN"):
        st.solve(board, P, heuristic=lambda b: np.full(len(b), np.nan))
    with pytest.raises(TypeError, match="must return (real )?numbers"):
        st.solve(board, P, heuristic=lambda b: ["x"] * len(b))

    class Boom(RuntimeError):
        pass

    def boom(b):
        raise Boom("the model failed")

    with pytest.raises(Boom, match="the model failed"):
        st.solve(board, P, heuristic=boom)
    h = manhattan_np(P)
    with pytest.raises(ValueError, match="cannot search with a heuristic function"):
        st.solve(board, P, heuristic=h, algorithm="idastar")
    with pytest.raises(ValueError, match="batch_size goes with algorithm='bwas'"):
        st.solve(board, P, heuristic=h, algorithm="astar", batch_size=10)
    with pytest.raises(ValueError, match="batch_size must be at least 1"):
        st.solve(board, P, heuristic=h, algorithm="bwas", batch_size=0)
    with pytest.raises(ValueError, match="out of range"):
        st.solve(board, P, heuristic=h, algorithm="bwas", weight=-1)
    with pytest.raises(TypeError, match="a function of a batch of boards"):
        st.Solver(P, heuristic=42)  # type: ignore[arg-type]
    with pytest.raises(st.SearchLimitError):
        st.solve(board, P, heuristic=h, algorithm="astar", max_nodes=100)


def test_unsolvable_boards_never_call_the_function() -> None:
    counted = Counting(manhattan_np(P))
    with pytest.warns(UserWarning, match="can reach the snail goal"):  # the other parity's named goal
        assert st.solve([2, 1, 3, 4, 5, 6, 7, 8, 0], P, heuristic=counted) is None
    assert counted.calls == 0


def test_solve_batch_with_a_function_fills_every_column() -> None:
    boards = np.array([b for b, _ in sample_boards(per_depth=1, seed=11)] + [[2, 1, 3, 4, 5, 6, 7, 8, 0]])
    truth = TABLE.distance(boards)
    r = st.solve_batch(boards, P, heuristic=manhattan_np(P), algorithm="bwas", batch_size=30)
    assert len(r) == len(boards)
    assert r.lengths[-1] == st.UNSOLVABLE and r.moves[-1] is None and np.isnan(r.optimal_lengths[-1])
    np.testing.assert_array_equal(r.optimal_lengths[:-1], truth[:-1])
    assert (r.lengths[:-1] >= truth[:-1]).all()
    np.testing.assert_array_equal(r.optimal[:-1], r.lengths[:-1] == truth[:-1])
    assert (r.heuristic_calls[:-1] >= 1).all() and (r.evaluated[:-1] >= r.heuristic_calls[:-1]).all()
    for b, m in zip(boards[:-1], r.moves[:-1]):
        assert (P.apply(b, m) == P.goal.reshape(-1)).all()
    # a limit fails the board, not the batch
    r = st.solve_batch(boards[-3:], P, heuristic=manhattan_np(P), algorithm="astar", max_nodes=3)
    assert (r.lengths[:2] == st.FAILED).all() and "limit" in r.errors[0]


def test_fifteen_puzzle_bwas_against_pattern_tables_found_in_dir(tmp_path) -> None:
    # the optimum beside the found length comes from an optimal search with the pattern tables
    # in dir; without them, optimal_length is None unless asked for
    p = st.Puzzle(4, 4, "blank-first")
    board = p.random_walk(1, 30, seed=4)[0]
    h = manhattan_np(p)
    sol = st.Solver(p, heuristic=h, dir=tmp_path).solve(board, algorithm="bwas", batch_size=200, weight=1.5)
    assert sol.optimal_length is None and replays_on(p, board, sol)
    sol = st.Solver(p, heuristic=h, dir=tmp_path).solve(board, algorithm="bwas", batch_size=200, optimal=True)
    exact = st.solve(board, p, heuristic="linear-conflict", algorithm="idastar")
    assert sol.optimal_length == exact.length <= sol.length


def replays_on(p: st.Puzzle, board: np.ndarray, sol: st.Solution) -> bool:
    return bool((p.apply(board, sol.moves) == p.goal.reshape(-1)).all())
