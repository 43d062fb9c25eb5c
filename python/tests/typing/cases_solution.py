"""What a search returns: the fields of a Solution and a BatchResult."""

from typing import Literal, Optional, assert_type

import numpy as np
import numpy.typing as npt

import slidetable as st

sol = st.solve([8, 6, 7, 2, 5, 4, 3, 0, 1])
assert sol is not None
assert_type(sol.moves, str)
assert_type(sol.convention, Literal["blank", "tile"])
assert_type(sol.length, int)
assert_type(sol.optimal, Optional[bool])
assert_type(sol.generated, int)
assert_type(sol.seconds, float)
assert_type(sol.optimal_length, Optional[int])
assert_type(sol.heuristic_seconds, Optional[float])
assert_type(sol.actions, npt.NDArray[np.int8])

r = st.solve_batch([[8, 6, 7, 2, 5, 4, 3, 0, 1]])
assert_type(r.lengths, npt.NDArray[np.int32])
assert_type(r.moves, list[Optional[str]])
assert_type(r.generated, npt.NDArray[np.uint64])
assert_type(r.seconds, npt.NDArray[np.float64])
assert_type(r.optimal, npt.NDArray[np.bool_])
assert_type(r.errors, list[Optional[str]])
assert_type(r.wall_seconds, float)
assert_type(r.optimal_lengths, Optional[npt.NDArray[np.float64]])
assert_type(len(r), int)
r.lengths = r.lengths  # type: ignore[misc]
