"""Data sets, as a type checker sees them (see test_typing.py)."""

from typing import Any, Optional, assert_type

import numpy as np
import numpy.typing as npt

import slidetable as st

t = st.Table.build(st.Puzzle(3, 3))
d = st.balanced_sample(t, 100, depths=range(10, 20), replace=True, seed=2)
assert_type(d, st.Dataset)
assert_type(d.puzzle, st.Puzzle)
assert_type(d.boards, np.ndarray[tuple[int, int], np.dtype[Any]])
assert_type(d.distances, npt.NDArray[np.int16])
assert_type(d.optimal_moves, Optional[npt.NDArray[np.bool_]])
assert_type(d.first_moves, npt.NDArray[np.int8])
assert_type(d.walk_lengths, Optional[npt.NDArray[np.int16]])
assert_type(len(d), int)
st.balanced_sample(t.puzzle, 100)  # type: ignore[arg-type]

w = st.labelled_walks(st.Puzzle(3, 3), 10, (5, 15), seed=1, results="walks", chunk=4, progress=lambda done, n: None)
assert_type(w, st.Dataset)
st.labelled_walks(st.Puzzle(3, 3), 10, "5-15")  # type: ignore[arg-type]
assert_type(st.Dataset.load("walks.npz"), st.Dataset)
w.save("walks.npz")
w.save(3.5)  # type: ignore[arg-type]
