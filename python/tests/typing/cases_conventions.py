"""Moves: letters and action numbers in a named convention."""

from typing import assert_type

import numpy as np
import numpy.typing as npt

import slidetable as st

assert_type(st.MOVES, str)
assert_type(st.to_tile_moves("UULR"), str)
assert_type(st.to_blank_moves("DDRL"), str)
assert_type(st.moves_to_actions("UDLR"), npt.NDArray[np.int8])
assert_type(st.moves_to_actions("UDLR", convention="tile"), npt.NDArray[np.int8])
assert_type(st.actions_to_moves([0, 2, 3]), str)
assert_type(st.actions_to_moves(np.array([1, 1]), "blank"), str)
st.moves_to_actions("UDLR", convention="tiles")  # type: ignore[arg-type]
st.actions_to_moves([0], convention="up")  # type: ignore[arg-type]
st.to_tile_moves([0, 1])  # type: ignore[arg-type]
