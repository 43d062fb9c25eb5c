"""What a search returns: one board's solution, or a batch's results."""

from __future__ import annotations

import dataclasses
from typing import Optional

import numpy as np

from .conventions import moves_to_actions


@dataclasses.dataclass(frozen=True)
class Solution:
    """A solution and what finding it took."""

    moves: str
    """The moves in the convention asked for (letters ``U D L R``)."""
    convention: str
    length: int
    optimal: Optional[bool]
    """True when proven optimal (a table, or A*/IDA* with an admissible heuristic), None when not known."""
    generated: int
    """Nodes generated (a successor made; the start counts; the move straight back is never made)."""
    expanded: int
    seconds: float
    algorithm: str
    heuristic: str
    goal: str = ""
    """The goal searched for: ``blank-last``, ``blank-first``, ``snail`` or its tiles."""
    optimal_length: Optional[int] = None
    """The optimum, where the truth can be had (a table; pattern tables for 4x4 and smaller),
    else None. ``length - optimal_length`` is the solution's optimality gap."""
    heuristic_calls: Optional[int] = None
    """Batch searches (``bwas``, or any search with a heuristic function): calls to the heuristic."""
    evaluated: Optional[int] = None
    """Batch searches: boards estimated (each distinct board once, the start included)."""
    heuristic_seconds: Optional[float] = None
    """Batch searches: seconds inside the heuristic (a function's own time, apart from the search's)."""
    search_seconds: Optional[float] = None
    """Batch searches: the search's own seconds, ``seconds - heuristic_seconds``."""

    @property
    def actions(self) -> np.ndarray:
        """The moves as action numbers 0-3 in the same convention."""
        return moves_to_actions(self.moves, self.convention)


@dataclasses.dataclass(frozen=True)
class BatchResult:
    """Many boards solved: one entry per board, in input order."""

    lengths: np.ndarray
    """Solution lengths (int16); ``UNSOLVABLE`` (-1) for a board that cannot reach the goal,
    ``FAILED`` (-2) for one whose search stopped at a limit (its reason in ``errors``)."""
    moves: list
    """The solutions as move strings in ``convention`` (None for unsolvable boards)."""
    generated: np.ndarray
    expanded: np.ndarray
    seconds: np.ndarray
    """Each board's search time (the boards run side by side, so these add up to more than the wall time)."""
    optimal: np.ndarray
    """Whether each solution is proven optimal."""
    errors: list
    """None, or why the board's search failed."""
    convention: str
    wall_seconds: float
    load_seconds: float
    """Time spent loading (or building) the tables, apart from the searches."""
    goal: str = ""
    """The goal searched for: ``blank-last``, ``blank-first``, ``snail`` or its tiles."""
    optimal_lengths: Optional[np.ndarray] = None
    """Batch searches: each board's optimum where the truth can be had, else -1 (int16)."""
    heuristic_calls: Optional[np.ndarray] = None
    """Batch searches: calls to the heuristic, per board."""
    evaluated: Optional[np.ndarray] = None
    """Batch searches: boards estimated, per board."""
    heuristic_seconds: Optional[np.ndarray] = None
    """Batch searches: seconds inside the heuristic, per board."""
    search_seconds: Optional[np.ndarray] = None
    """Batch searches: the search's own seconds, per board."""

    def __len__(self) -> int:
        return int(self.lengths.shape[0])
