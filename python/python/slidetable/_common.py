"""What every module of the package shares: argument checks and the names of types."""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _core

#: The distance (and rank) of a board that cannot reach the goal, in batch results.
UNSOLVABLE: int = _core.UNSOLVABLE
#: The length of a board whose search failed (a limit), in :class:`BatchResult`.
FAILED: int = _core.FAILED



BoardLike = Union[Sequence[int], npt.ArrayLike]
MovesLike = Union[str, Sequence[int], npt.ArrayLike]


def _int(value: Any, name: str, low: int = 0) -> int:
    """An integer argument: ints and numpy integers only (a float or a bool is a mistake, not a
    number to truncate), at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}")
    v = int(value)
    if v < low:
        raise ValueError(f"{name} must be at least {low}, not {v}")
    return v


def _opt_int(value: Any, name: str, low: int = 0) -> Optional[int]:
    return None if value is None else _int(value, name, low)


def _seed(seed: int) -> int:
    """A seed of 64 bits (larger ones were cut to their low 64 bits, so 2**64 drew seed 0's boards)."""
    s = _int(seed, "seed")
    if s >= 2**64:
        raise ValueError(f"seed {seed} is out of range: give a whole number from 0 to 2**64 - 1")
    return s
