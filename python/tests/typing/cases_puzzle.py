"""Puzzle and the module calls on boards: one board answers in kind, a batch in arrays."""

from typing import Any, assert_type

import numpy as np
import numpy.typing as npt

import slidetable as st
from slidetable._common import Board, Boards

p = st.Puzzle(3, 3)
st.Puzzle(3, 3, goal="blank-first")
st.Puzzle(3, goal="center")
st.Puzzle(2, 3, goal=[1, 2, 3, 4, 0, 5])
st.Puzzle(2, 3, goal=np.array([1, 2, 3, 4, 0, 5]))
st.Puzzle(3, 3, goal="blank_last")  # type: ignore[arg-type]
st.Puzzle(3, 3, goal=1.5)  # type: ignore[arg-type]

one = [8, 6, 7, 2, 5, 4, 3, 0, 1]
many = [[8, 6, 7, 2, 5, 4, 3, 0, 1], [1, 2, 3, 4, 5, 6, 7, 0, 8]]
board = np.zeros(9, dtype=np.uint8)
batch = np.zeros((5, 9), dtype=np.uint8)
grids = np.zeros((5, 3, 3), dtype=np.int64)

# properties
assert_type(p.rows, int)
assert_type(p.cols, int)
assert_type(p.cells, int)
assert_type(p.shape, tuple[int, int])
assert_type(p.goal, Board)
assert_type(p.goal_name, str)
assert_type(p.dtype, np.dtype[Any])

# boards out
assert_type(p.parse("8 6 7 2 5 4 3 0 1"), Board)
assert_type(p.apply(one, "UL"), Board)
assert_type(p.apply(one, [0, 2], convention="tile"), Board)
p.apply(one, "UL", convention="tiles")  # type: ignore[arg-type]
assert_type(p.random_walk(4, 10, seed=1), Boards)
assert_type(p.unsolvable_reason(one), str | None)
assert_type(p.grid(one), str)

# one board against a batch
assert_type(p.is_solvable(one), bool)
assert_type(p.is_solvable(board), bool)
assert_type(p.is_solvable(many), npt.NDArray[np.bool_])
assert_type(p.is_solvable(batch), npt.NDArray[np.bool_])
assert_type(p.is_solvable(grids), npt.NDArray[np.bool_])
assert_type(p.heuristic(one), int)
assert_type(p.heuristic(one, "linear-conflict"), int)
assert_type(p.heuristic(batch, "misplaced"), npt.NDArray[np.int32])
p.heuristic(one, "manhatan")  # type: ignore[call-overload]
kids, legal = p.expand(one)
assert_type(kids, Boards)
assert_type(legal, np.ndarray[tuple[int], np.dtype[np.bool_]])
kids3, legal2 = p.expand(batch, convention="tile")
assert_type(kids3, np.ndarray[tuple[int, int, int], np.dtype[Any]])
assert_type(legal2, np.ndarray[tuple[int, int], np.dtype[np.bool_]])
# an array whose shape numpy's stubs do not know: Any, so either annotation type-checks
h: npt.NDArray[np.int32] = p.heuristic(np.asarray([[1]]))
ok: bool = p.is_solvable(np.asarray([1]))

# the module functions
assert_type(st.parse("8 6 7 2 5 4 3 0 1"), Board)
assert_type(st.parse("1 2 3 4 0 5", puzzle=p), Board)
assert_type(st.is_solvable(one), bool)
assert_type(st.is_solvable(batch, puzzle=p), npt.NDArray[np.bool_])
assert_type(st.heuristic(one), int)
assert_type(st.heuristic(many, "nilsson"), npt.NDArray[np.int32])
st.heuristic(one, "lc")  # type: ignore[call-overload]
assert_type(st.expand(one)[1], np.ndarray[tuple[int], np.dtype[np.bool_]])
assert_type(st.expand(many, p, "tile")[0], np.ndarray[tuple[int, int, int], np.dtype[Any]])
assert_type(st.apply(one, "UL"), Board)
assert_type(st.random_walk(p, 2, 5), Boards)
for name in st.HEURISTICS:
    assert_type(p.heuristic(batch, name), npt.NDArray[np.int32])
