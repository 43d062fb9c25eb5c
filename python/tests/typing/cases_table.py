"""What a type checker must accept and refuse (checked by test_typing.py with mypy --strict)."""

from typing import Any, Optional, Union, assert_type

import numpy as np
import numpy.typing as npt


import slidetable as st

t = st.Table.build(st.Puzzle(3, 3))
assert_type(t.distance([8, 6, 7, 2, 5, 4, 3, 0, 1]), Optional[int])
assert_type(t.distance([[8, 6, 7, 2, 5, 4, 3, 0, 1]]), npt.NDArray[np.int16])
batch = np.zeros((5, 9), dtype=np.uint8)
board = np.zeros(9, dtype=np.uint8)
assert_type(t.distance(batch), npt.NDArray[np.int16])
assert_type(t.distance(board), Optional[int])
# an array whose shape numpy's stubs do not know: Any, so either annotation type-checks
labels: npt.NDArray[np.int16] = t.distance(np.asarray([[1]]))
one: Any = t.distance(np.asarray([1]))
st.instances("korf101")  # type: ignore[arg-type]


# -- the rest of Table ------------------------------------------------------------------------
Board = np.ndarray[tuple[int], np.dtype[Any]]
Boards = np.ndarray[tuple[int, int], np.dtype[Any]]
assert_type(st.Table.build(st.Puzzle(2, 3), progress=lambda p: print(p["depth"])), st.Table)
assert_type(st.Table.open("eight.table", mmap=False), st.Table)
st.Table.build("3x3")  # type: ignore[call-overload]
# a last depth may stop the build short of a table
assert_type(st.Table.build(st.Puzzle(3, 4), "t.table", max_depth=10), Union[st.Table, st.PartialBuild])
assert_type(t.path, Optional[str])
assert_type(t.max_depth, int)
assert_type(len(t), int)
# rank answers like distance: a number (or None) for one board, int64 for a batch
assert_type(t.rank([8, 6, 7, 2, 5, 4, 3, 0, 1]), Optional[int])
assert_type(t.rank(batch), npt.NDArray[np.int64])
assert_type(t.rank(board), Optional[int])
ranks: npt.NDArray[np.int64] = t.rank(np.asarray([[1]]))
# optimal_moves: (4,) for one board, (N, 4) for a batch, bool either way
assert_type(t.optimal_moves(board), np.ndarray[tuple[int], np.dtype[np.bool_]])
assert_type(t.optimal_moves(batch, convention="tile"), np.ndarray[tuple[int, int], np.dtype[np.bool_]])
moves: npt.NDArray[np.bool_] = t.optimal_moves(np.asarray([[1]]))  # shape unknown: either kind
t.optimal_moves(board, convention="tiles")  # type: ignore[call-overload]
# unrank: one index gives a board, a flat array of them a batch
assert_type(t.unrank(5), Board)
assert_type(t.unrank(np.uint64(5)), Board)
assert_type(t.unrank([0, 1, 2]), Boards)
assert_type(t.unrank(np.arange(3)), Boards)
assert_type(t.sample(20, 10, seed=3), Boards)
assert_type(t.solve(board, convention="tile"), Optional[st.Solution])
t.solve(board, convention="tiles")  # type: ignore[arg-type]
assert_type(t.count_solutions(board), Optional[int])
assert_type(t.histogram(), np.ndarray[tuple[int], np.dtype[np.uint64]])
assert_type(t.as_array(), np.ndarray[tuple[int], np.dtype[np.uint8]])
t.verify()
assert_type(t.grade("linear-conflict"), st.Grade)
assert_type(t.grade(lambda b: np.zeros(len(b)), states=batch), st.Grade)
t.grade("linear_conflicts")  # type: ignore[arg-type]
