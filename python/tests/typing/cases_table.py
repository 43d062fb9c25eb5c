"""What a type checker must accept and refuse (checked by test_typing.py with mypy --strict)."""

from typing import Any, Optional, assert_type

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
