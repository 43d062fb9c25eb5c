"""What every module of the package shares: argument checks and the names of types."""

from __future__ import annotations

from typing import Any, Literal, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _core

#: The distance (and rank) of a board that cannot reach the goal, in batch results.
UNSOLVABLE: int = _core.UNSOLVABLE
#: The length of a board whose search failed (a limit), in ``BatchResult``.
FAILED: int = _core.FAILED


# -- the names of types ---------------------------------------------------------------------------
#
# Calls that take one board or a batch answer in kind: a number for one board, an array for a
# batch. Type checkers see the difference where the argument's shape is known: a flat list is one
# board, a list of lists a batch, and numpy arrays carry their number of dimensions where numpy's
# stubs know it (``np.zeros((n, 9))``, and every array this package returns: ``Board``,
# ``Boards``). An array of unknown shape gets ``Any``, numpy's own rule for results that
# depend on a shape (annotate the variable: ``labels: NDArray[np.int16] = table.distance(boards)``).

#: One board as this package returns it: ``(cells,)`` uint8 (uint16 past 256 cells).
Board = np.ndarray[tuple[int], np.dtype[Any]]
#: A batch of boards as this package returns it: ``(N, cells)`` uint8 (uint16 past 256 cells).
Boards = np.ndarray[tuple[int, int], np.dtype[Any]]
#: One board given: a flat sequence of ints, or a 1-D integer array (``0`` the blank).
OneBoard = Union[Sequence[int], np.ndarray[tuple[int], np.dtype[Any]]]
#: A batch given: a sequence of boards, or an ``(N, cells)`` or ``(N, rows, cols)`` integer array.
ManyBoards = Union[Sequence[Sequence[int]], np.ndarray[tuple[int, int], np.dtype[Any]], np.ndarray[tuple[int, int, int], np.dtype[Any]]]
#: One board or a batch: anything numpy turns into an integer array of cells.
BoardLike = Union[Sequence[int], npt.ArrayLike]
#: Moves: letters (``"UDLR"``) or action numbers (``0 1 2 3``).
MovesLike = Union[str, Sequence[int], npt.ArrayLike]

#: The estimates every board has: ``misplaced`` (h1; ``hamming`` is the same), ``manhattan``
#: (h2), ``linear-conflict``, ``nilsson`` (Nilsson's P + 3S, not admissible).
HeuristicName = Literal["misplaced", "hamming", "manhattan", "linear-conflict", "nilsson"]
#: What a ``Solver`` searches with, by name: the estimates above, ``table`` (a perfect
#: table's exact distance), ``pdb`` (pattern tables), or ``auto`` (the CLI's choice).
SearchHeuristic = Literal["auto", "misplaced", "hamming", "manhattan", "linear-conflict", "nilsson", "table", "pdb"]
#: The searches: ``auto``, ``astar`` (``a*``), ``idastar`` (``ida*``), ``astar-ida``
#: (``a*+ida*``), ``bfs``, ``greedy``, ``weighted``, ``bwas`` (batch-weighted ``A*``).
Algorithm = Literal["auto", "astar", "a*", "idastar", "ida*", "astar-ida", "a*+ida*", "bfs", "greedy", "weighted", "bwas", "reduce", "beam"]
#: The named goals: ``blank-last``, ``blank-first``, ``snail`` (a clockwise spiral; ``center`` on 3x3).
GoalName = Literal["blank-last", "blank-first", "snail", "center"]
#: The published benchmark sets: Korf's 100 15-puzzles, Korf & Felner's 50 24-puzzles.
InstanceSet = Literal["korf100", "korf24"]
#: The move conventions: the direction the blank moves, or the direction the tile moves.
Convention = Literal["blank", "tile"]


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


#: A goal as ``Puzzle`` takes it: a ``GoalName``, or an arrangement of the tiles as an
#: integer array, ``(cells,)`` or ``(rows, cols)``, ``0`` the blank (text arrangements,
#: ``"1 2 3 / 4 _ 5"``, and the CLI's other spellings are read too at run time; type checkers see
#: names and arrays).
GoalLike = Union[GoalName, Sequence[int], Sequence[Sequence[int]], npt.NDArray[Any]]


def _estimates_of(got: Any, n: int) -> np.ndarray:
    """A heuristic function's answer for ``n`` boards as a float64 ``(n,)`` array: real numbers
    only (ints or floats, any array-like: a list, an array, a CPU tensor), shape ``(n,)`` or
    ``(n, 1)``. Complex numbers, booleans, strings and objects are refused, not converted; NaN
    and infinity are left to the caller (the search names the board)."""
    try:
        a = np.asarray(got)
    except RuntimeError as e:  # a tensor that needs grad: numpy cannot read it
        raise TypeError(
            f"the heuristic returned {type(got).__name__} that numpy cannot read ({e}): evaluate it under "
            "torch.no_grad(), or return .detach().cpu()"
        ) from None
    except (TypeError, ValueError) as e:
        raise TypeError(f"the heuristic must return numbers, one per board; it returned {type(got).__name__}: {e}") from None
    if a.dtype.kind not in "iuf":
        raise TypeError(
            f"the heuristic must return real numbers (ints or floats), one per board; it returned "
            f"{type(got).__name__} of {a.dtype}"
        )
    if a.shape != (n,):
        if a.shape == (n, 1):
            a = a[:, 0]  # (N, 1), as a network's last layer gives
        else:
            raise ValueError(
                f"the heuristic returned shape {a.shape} for a batch of {n} boards: return one number per "
                f"board, shape ({n},)"
            )
    return np.ascontiguousarray(a, dtype=np.float64)
