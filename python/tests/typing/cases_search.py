"""Search and pattern tables, as a type checker sees them (see test_typing.py)."""

from typing import Optional, assert_type

import numpy as np
import numpy.typing as npt

import slidetable as st

p = st.Puzzle(3, 3)
s = st.Solver(p, heuristic="linear-conflict")
assert_type(s.solve([8, 6, 7, 2, 5, 4, 3, 0, 1], algorithm="idastar"), Optional[st.Solution])
assert_type(s.solve_batch(np.zeros((2, 9), dtype=np.uint8)), st.BatchResult)
st.Solver(p, heuristic=lambda boards: np.zeros(len(boards)))  # a function of a batch
st.Solver(p, heuristic="linear_conflicts")  # type: ignore[arg-type]
s.solve([8, 6, 7, 2, 5, 4, 3, 0, 1], algorithm="ida")  # type: ignore[arg-type]
s.solve([8, 6, 7, 2, 5, 4, 3, 0, 1], convention="tiles")  # type: ignore[arg-type]
st.solve([8, 6, 7, 2, 5, 4, 3, 0, 1], heuristic="manhatan")  # type: ignore[arg-type]

db = st.PatternDB.load(p, "1,2,3,4/5,6,7,8", dir=".")
assert_type(db.h([8, 6, 7, 2, 5, 4, 3, 0, 1]), int)
boards = np.zeros((4, 9), dtype=np.uint8)
assert_type(db.h(boards), npt.NDArray[np.int32])
