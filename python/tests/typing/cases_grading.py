"""Grading, as a type checker sees it (see test_typing.py)."""

from typing import assert_type

import numpy as np
import numpy.typing as npt

import slidetable as st

p = st.Puzzle(3, 3)
boards = np.zeros((5, 9), dtype=np.uint8)


def learned(batch: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    return np.zeros(len(batch), dtype=np.float32)


g = st.grade("manhattan", boards, puzzle=p)
assert_type(g, st.Grade)
assert_type(st.grade(learned, boards, table=st.Table.build(p), batch_size=1024), st.Grade)
assert_type(st.grade(lambda b: p.heuristic(b, "misplaced"), [[8, 6, 7, 2, 5, 4, 3, 0, 1]]), st.Grade)
st.grade("manhatan", boards)  # type: ignore[arg-type]
st.grade("manhattan", boards, table=p)  # type: ignore[arg-type]
assert_type(g.admissible, bool)
assert_type(g.consistent, bool)
assert_type(g.summary(), str)
assert_type(g.name, str)
assert_type(g.scope, str)
assert_type(g.total_mae, float)
assert_type(g.total_states, int)
assert_type(g.states, npt.NDArray[np.uint64])
assert_type(g.mae, npt.NDArray[np.float64])
assert_type(g.max_overestimate, npt.NDArray[np.uint32])
g.total_mae = 0.0  # type: ignore[misc]
