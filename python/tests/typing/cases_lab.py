"""The laboratory: benchmark sets by name, and the experiment's arguments and results."""

from typing import assert_type

import numpy as np
import numpy.typing as npt

import slidetable as st
from slidetable._common import Boards

k = st.instances("korf100")
assert_type(k, st.Instances)
assert_type(k.name, str)
assert_type(k.puzzle, st.Puzzle)
assert_type(k.boards, Boards)
assert_type(k.optimal, npt.NDArray[np.uint32])
assert_type(k.published_nodes, npt.NDArray[np.int64])
assert_type(st.is_solvable(k.boards, puzzle=k.puzzle), npt.NDArray[np.bool_])
st.instances("korf24")
st.instances("korf101")  # type: ignore[arg-type]

e = st.experiment(depths=[2, 4], count=10, heuristics=["misplaced", "table"], algorithm="idastar", ids=True)
assert_type(e, st.Experiment)
assert_type(e.columns, list[str])
assert_type(e.generated, npt.NDArray[np.float64])
assert_type(e.depths, npt.NDArray[np.int64])
st.experiment(preset="rn")
st.experiment(algorithm="bfs")  # type: ignore[arg-type]
st.experiment(heuristics=["manhatan"])  # type: ignore[list-item]
st.experiment(preset="book")  # type: ignore[arg-type]
