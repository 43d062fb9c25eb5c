"""slidetable: exact distances, optimal solutions and pattern databases for sliding-tile puzzles.

The engine is the slidetable Rust library; this package hands it numpy arrays.

Conventions
-----------
* A board is an integer array of its cells, row-major, ``0`` the blank: ``[8, 6, 7, 2, 5, 4, 3, 0, 1]``.
* A batch is ``(N, cells)`` or ``(N, rows, cols)``, of any integer dtype, contiguous or not (it is
  copied only when it must be). Results are numpy arrays, one entry per board.
* A board that cannot reach the goal gets ``UNSOLVABLE`` (-1) in batch results, ``None`` from calls
  on one board.
* Moves are letters ``U D L R`` or action numbers ``0 1 2 3`` (in that order), in a named
  convention: ``"blank"`` (the direction the blank moves: slidetable's and the CLI's) or
  ``"tile"`` (the direction the tile moves, as DeepCubeA, SPGym and most environments write them).
  :func:`to_tile_moves` and :func:`to_blank_moves` convert.
* Bad input raises: ``TypeError`` for a non-integer dtype, ``ValueError`` for a wrong shape, a tile
  out of range or repeated (naming the board), ``OSError`` for a missing or unreadable file,
  :class:`TableError` (a ``ValueError``) for a damaged table, with the messages of the ``table`` CLI.

Quick start
-----------
>>> import slidetable as st
>>> table = st.Table.build(st.Puzzle(3, 3))
>>> int(table.distance([8, 6, 7, 2, 5, 4, 3, 0, 1]))
31
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
import warnings
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._core import SearchLimitError, TableError

__all__ = [
    "UNSOLVABLE",
    "FAILED",
    "MOVES",
    "Puzzle",
    "Table",
    "PatternDB",
    "Solver",
    "Solution",
    "BatchResult",
    "BATCH_ALGORITHMS",
    "Dataset",
    "balanced_sample",
    "labelled_walks",
    "Grade",
    "Instances",
    "Experiment",
    "TableError",
    "SearchLimitError",
    "parse",
    "is_solvable",
    "apply",
    "expand",
    "random_walk",
    "heuristic",
    "grade",
    "solve",
    "solve_batch",
    "instances",
    "experiment",
    "to_tile_moves",
    "to_blank_moves",
    "moves_to_actions",
    "actions_to_moves",
]

__version__: str = _core.__version__

#: The distance (and rank) of a board that cannot reach the goal, in batch results.
UNSOLVABLE: int = _core.UNSOLVABLE
#: The length of a board whose search failed (a limit), in :class:`BatchResult`.
FAILED: int = _core.FAILED
#: The move letters in action order: action ``i`` is ``MOVES[i]``.
MOVES = "UDLR"
#: Heuristics every board has (``Puzzle.heuristic``); ``nilsson`` is not admissible.
HEURISTICS = ("misplaced", "manhattan", "linear-conflict", "nilsson")

_SWAP = str.maketrans("UDLRudlr", "DURLdurl")
_CONVENTIONS = ("blank", "tile")
# action i in the tile convention is the blank's action _TILE_TO_BLANK[i] (the opposite direction)
_TILE_TO_BLANK = np.array([1, 0, 3, 2])

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


def _convention(convention: str) -> str:
    if convention not in _CONVENTIONS:
        raise ValueError(f"unknown move convention {convention!r}: use 'blank' (the blank's direction) or 'tile'")
    return convention


def to_tile_moves(moves: str) -> str:
    """Moves written as the blank's directions, rewritten as the tiles' (and back: the same swap)."""
    return _letters(moves).translate(_SWAP)


def to_blank_moves(moves: str) -> str:
    """Moves written as the tiles' directions, rewritten as the blank's."""
    return _letters(moves).translate(_SWAP)


def _letters(moves: str) -> str:
    """The move letters of ``moves`` (either case; spaces, commas and dashes between them are
    ignored, as the CLI does), checked."""
    if not isinstance(moves, str):
        raise TypeError(f"moves must be a string of U, D, L and R, not {type(moves).__name__}")
    out = []
    for c in moves:
        if c.isspace() or c in ",-":
            continue
        if c not in "UDLRudlr":
            raise ValueError(f"`{c}` is not a move: moves are the letters U, D, L and R")
        out.append(c.upper())
    return "".join(out)


def moves_to_actions(moves: str, convention: str = "blank") -> np.ndarray:
    """Move letters as action numbers (``U D L R`` = ``0 1 2 3``) in the same convention."""
    _convention(convention)
    return np.array([MOVES.index(c) for c in _letters(moves)], dtype=np.int8)


def actions_to_moves(actions: Union[Iterable[int], npt.ArrayLike], convention: str = "blank") -> str:
    """Action numbers (``0 1 2 3`` = ``U D L R``) as move letters in the same convention."""
    _convention(convention)
    if isinstance(actions, str):
        raise TypeError("actions must be integers 0 to 3; for letters use the string itself")
    a = np.asarray(actions)
    if a.size == 0:
        return ""
    if a.dtype.kind not in "iu":
        raise TypeError(f"actions must be integers 0 to 3, not {a.dtype}")
    out = []
    for x in a.ravel():
        if not 0 <= int(x) <= 3:
            raise ValueError(f"action {x} is not a move: actions are 0 to 3 (U, D, L, R)")
        out.append(MOVES[int(x)])
    return "".join(out)


def _blank_moves(moves: MovesLike, convention: str) -> str:
    """Moves in any accepted form as the blank's letters."""
    _convention(convention)
    if isinstance(moves, str):
        letters = _letters(moves)
    else:
        letters = actions_to_moves(moves)
    return to_blank_moves(letters) if convention == "tile" else letters


class Puzzle:
    """A board shape and its goal.

    ``Puzzle(3, 3)`` is the 8-puzzle with the blank last; ``Puzzle(4, 4, goal="blank-first")`` the
    15-puzzle of Korf's instances. ``goal`` is a name of the CLI (``blank-last``, ``blank-first``,
    ``snail``: the tiles along a clockwise spiral, which ends in the centre on 3x3, hence its other
    name ``center``) or an arrangement (text or an array).
    """

    __slots__ = ("_p",)

    def __init__(self, rows: int = 3, cols: Optional[int] = None, goal: Union[str, BoardLike] = "blank-last"):
        rows = _int(rows, "rows", 2)
        cols = rows if cols is None else _int(cols, "cols", 2)
        if not isinstance(goal, str):
            g = np.asarray(goal)
            if g.dtype.kind not in "iu":
                raise TypeError(f"goal must be a name or an integer board, not {g.dtype}")
            goal = [int(t) for t in g.ravel()]
        self._p = _core.Puzzle(int(rows), int(cols), goal)

    @classmethod
    def _from_core(cls, rows: int, cols: int, goal: Sequence[int]) -> "Puzzle":
        return cls(rows, cols, list(goal))

    @property
    def rows(self) -> int:
        return int(self._p.rows)

    @property
    def cols(self) -> int:
        return int(self._p.cols)

    @property
    def cells(self) -> int:
        return int(self._p.cells)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    @property
    def goal(self) -> np.ndarray:
        """The goal's cells, row-major (a read-only array)."""
        g = np.array(self._p.goal_cells, dtype=self.dtype)
        g.flags.writeable = False
        return g

    @property
    def goal_name(self) -> str:
        """``blank-last``, ``blank-first``, ``snail``, or the goal's tiles."""
        return str(self._p.goal_name)

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the boards this package returns: uint8 up to 256 cells, else uint16."""
        return np.dtype(np.uint8) if self.cells <= 256 else np.dtype(np.uint16)

    def __repr__(self) -> str:
        return f"Puzzle({self.rows}, {self.cols}, goal={self.goal_name!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Puzzle) and self.shape == other.shape and self._p.goal_cells == other._p.goal_cells

    def __hash__(self) -> int:
        return hash((self.shape, tuple(self._p.goal_cells)))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Puzzle._from_core, (self.rows, self.cols, list(self._p.goal_cells)))

    # -- boards in, checked and shaped ---------------------------------------------------------

    def _boards(self, states: BoardLike, dtype: Any = None) -> tuple[np.ndarray, bool]:
        """``states`` as a C-contiguous (N, cells) array of ``dtype``, and whether one board was
        given. Checks the dtype, the shape and the range (repeats are the library's check)."""
        a = np.asarray(states)
        if a.dtype.kind not in "iu":
            if a.size == 0:  # [] is float64 to numpy: no boards at all
                a = a.astype(np.int64).reshape(0, self.cells)
            else:
                raise TypeError(f"boards must be integer arrays (0 the blank), not {a.dtype}")
        n = self.cells
        single = False
        if a.ndim == 1:
            single, a = True, a[None, :]
        elif a.ndim == 2 and a.shape == (self.rows, self.cols) and n != self.cols:
            single, a = True, a.reshape(1, n)
        elif a.ndim == 3:
            if a.shape[1:] != (self.rows, self.cols):
                raise ValueError(f"boards of shape {a.shape[1:]} given, but this puzzle is {self.rows}x{self.cols}")
            a = a.reshape(a.shape[0], n)
        elif a.ndim != 2:
            raise ValueError(f"a batch of boards is (N, {n}) or (N, {self.rows}, {self.cols}), not {a.shape}")
        if a.shape[1] != n:
            raise ValueError(f"{a.shape[1]} tiles given, but a {self.rows}x{self.cols} board has {n} cells")
        # values that the conversion to `dtype` could wrap are refused here; the rest (a tile
        # too large for the board, a repeat) is the library's check, board by board
        target = np.dtype(dtype or self.dtype)
        if a.size and a.dtype != target:
            lo = int(a.min()) if a.dtype.kind == "i" else 0
            hi = int(a.max())
            if lo < 0 or hi >= n:
                bad = (a < 0) | (a >= n)
                row = int(np.argmax(bad.any(axis=1)))
                tile = int(a[row][bad[row]][0])
                raise ValueError(
                    f"board {row}: bad board: tile {tile} is out of range: a {self.rows}x{self.cols} board "
                    f"has tiles 1 to {n - 1} and the blank 0"
                )
        # C order and aligned (an array unpickled from a byte stream can be misaligned)
        return np.require(a, dtype=dtype or self.dtype, requirements=["C", "A"]), single

    def _one(self, state: BoardLike) -> list[int]:
        a, single = self._boards(state, np.uint16)
        if not single:
            raise ValueError(f"one board expected, got a batch of {a.shape[0]}")
        return [int(t) for t in a[0]]

    def _out(self, cells: Sequence[int]) -> np.ndarray:
        return np.array(cells, dtype=self.dtype)

    # -- the calls -----------------------------------------------------------------------------

    def parse(self, text: str) -> np.ndarray:
        """A board from text in any syntax the CLI accepts (``8 6 7 2 5 4 3 0 1``,
        ``8,6,7/2,5,4/3,_,1``, ``867254301``), or the text of a COS 226 puzzle file."""
        return self._out(self._p.parse(text))

    def is_solvable(self, states: BoardLike) -> Union[bool, np.ndarray]:
        """Whether each board can reach the goal (the parity rule)."""
        a, single = self._boards(states, np.uint16)
        r = self._p.solvable(a)
        return bool(r[0]) if single else r

    def unsolvable_reason(self, state: BoardLike) -> Optional[str]:
        """Why a board cannot reach the goal, in words; None if it can."""
        r = self._p.unsolvable_reason(self._one(state))
        return None if r is None else str(r)

    def apply(self, state: BoardLike, moves: MovesLike, convention: str = "blank") -> np.ndarray:
        """The board after ``moves`` (letters or actions in ``convention``); raises ValueError,
        naming the move, if one would leave the board."""
        return self._out(self._p.apply(self._one(state), _blank_moves(moves, convention)))

    def expand(self, states: BoardLike, convention: str = "blank") -> tuple[np.ndarray, np.ndarray]:
        """The children of each board, one per action, and which actions are legal: arrays
        ``(N, 4, cells)`` and ``(N, 4)`` (``(4, cells)`` and ``(4,)`` for one board). An illegal
        action's child is the board itself."""
        _convention(convention)
        a, single = self._boards(states, np.uint16)
        kids, valid = self._p.expand(a)
        if convention == "tile":
            kids, valid = kids[:, _TILE_TO_BLANK], valid[:, _TILE_TO_BLANK]
        kids = kids.astype(self.dtype, copy=False)
        return (kids[0], valid[0]) if single else (kids, valid)

    def random_walk(self, n: int, steps: int, seed: int = 0) -> np.ndarray:
        """``n`` boards reached from the goal by ``steps`` random moves each (never straight back),
        reproducible from ``seed``. The end of a walk can be nearer than ``steps``: for boards at
        an exact distance use :meth:`Table.sample`."""
        n, steps = _int(n, "n"), _int(steps, "steps")
        return self._p.random_walks(n, steps, _seed(seed)).astype(self.dtype, copy=False)

    def heuristic(self, states: BoardLike, name: str = "manhattan") -> Union[int, np.ndarray]:
        """The estimate ``name`` of each board: ``misplaced`` (h1), ``manhattan`` (h2),
        ``linear-conflict``, or ``nilsson`` (Nilsson's P + 3S: not admissible)."""
        a, single = self._boards(states, np.uint16)
        h = self._p.estimates(a, name).astype(np.int32)
        return int(h[0]) if single else h

    def grid(self, state: BoardLike) -> str:
        """The board drawn as a grid of rows."""
        return str(self._p.grid(self._one(state)))


def _seed(seed: int) -> int:
    """A seed of 64 bits (larger ones were cut to their low 64 bits, so 2**64 drew seed 0's boards)."""
    s = _int(seed, "seed")
    if s >= 2**64:
        raise ValueError(f"seed {seed} is out of range: give a whole number from 0 to 2**64 - 1")
    return s


def _puzzle_of(states: BoardLike, puzzle: Optional[Puzzle]) -> Puzzle:
    """The given puzzle, or the square one with the boards' number of cells (blank-last goal)."""
    if puzzle is not None:
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        return puzzle
    a = np.asarray(states)
    if a.ndim == 3:
        return Puzzle(a.shape[1], a.shape[2])
    if a.ndim == 2 and a.shape[0] == a.shape[1] >= 2:
        # one board as a grid, unless it reads as rows of square boards: (4, 4) is one 4x4
        # board or four 2x2 ones, and only tiles above 3 tell; pass puzzle= to say
        side = int(round(a.shape[1] ** 0.5))
        if side * side != a.shape[1] or (a.size and a.dtype.kind in "iu" and int(a.max()) >= a.shape[1]):
            return Puzzle(a.shape[0], a.shape[1])
    cells = a.shape[-1] if a.ndim else 0
    side = int(round(cells**0.5))
    if side < 2 or side * side != cells:
        raise ValueError(f"{cells} cells is not a square board: pass puzzle=Puzzle(rows, cols)")
    return Puzzle(side, side)


def parse(text: str, puzzle: Optional[Puzzle] = None) -> np.ndarray:
    """A board parsed from text; without ``puzzle``, the square board with that many tiles."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, not {type(text).__name__}")
    if puzzle is None:
        first = text.strip().splitlines()[0] if text.strip() else ""
        if "\n" in text.strip() and len(first.split()) in (1, 2):
            dims = [int(x) for x in first.split()]
            puzzle = Puzzle(dims[0], dims[-1])
        else:
            count = len([t for t in text.replace(",", " ").replace("/", " ").replace(";", " ").split() if t])
            if count == 1:
                count = len(text.strip())
            side = int(round(count**0.5))
            if side < 2 or side * side != count:
                raise ValueError(f"`{text}` is not a square number of tiles: pass puzzle=Puzzle(rows, cols)")
            puzzle = Puzzle(side, side)
    return puzzle.parse(text)


def _warn_if_other_goal(states: BoardLike, p: Puzzle, given: Optional[Puzzle], what: str) -> None:
    """With no ``puzzle=`` given (the goal assumed blank-last), warns when a board cannot reach
    that goal but can reach another named one: Korf's instances, say, are written toward the
    blank-first goal, and without a word ``solve`` would answer None and ``heuristic`` a number
    for the wrong goal."""
    if given is not None:
        return
    a, _ = p._boards(states)
    unsolvable = ~np.atleast_1d(p.is_solvable(a))
    if not unsolvable.any():
        return
    first = int(np.argmax(unsolvable))
    instead = p._p.reachable_instead([int(c) for c in a[first]])
    if not instead:
        return
    other = Puzzle(p.rows, p.cols, instead[0])
    n, m = int(unsolvable.sum()), int(np.count_nonzero(other.is_solvable(a[unsolvable])))
    if len(a) == 1:
        boards = "the board cannot reach it but can reach"
    else:
        boards = f"{n} of the {len(a)} boards cannot reach it (the first: row {first}); {m} of those can reach"
    warnings.warn(
        f"{what}: no puzzle= was given, so the goal was taken to be {p.goal_name}; {boards} the "
        f"{instead[0]} goal: pass puzzle=slidetable.Puzzle({p.rows}, {p.cols}, {instead[0]!r}) if that "
        f"is the one meant",
        UserWarning,
        stacklevel=3,
    )


def is_solvable(states: BoardLike, puzzle: Optional[Puzzle] = None) -> Union[bool, np.ndarray]:
    """Whether each board can reach the goal of ``puzzle`` (default: the square blank-last one;
    a warning says so when a board can reach another named goal instead)."""
    p = _puzzle_of(states, puzzle)
    _warn_if_other_goal(states, p, puzzle, "is_solvable")
    return p.is_solvable(states)


def apply(state: BoardLike, moves: MovesLike, convention: str = "blank", puzzle: Optional[Puzzle] = None) -> np.ndarray:
    """The board after ``moves``; see :meth:`Puzzle.apply`."""
    return _puzzle_of(state, puzzle).apply(state, moves, convention)


def expand(
    states: BoardLike, puzzle: Optional[Puzzle] = None, convention: str = "blank"
) -> tuple[np.ndarray, np.ndarray]:
    """Children and legal-move mask; see :meth:`Puzzle.expand`."""
    return _puzzle_of(states, puzzle).expand(states, convention)


def random_walk(puzzle: Puzzle, n: int, steps: int, seed: int = 0) -> np.ndarray:
    """``n`` random walks of ``steps`` moves from the goal; see :meth:`Puzzle.random_walk`."""
    return puzzle.random_walk(n, steps, seed)


def heuristic(states: BoardLike, name: str = "manhattan", puzzle: Optional[Puzzle] = None) -> Union[int, np.ndarray]:
    """A classic estimate of each board; see :meth:`Puzzle.heuristic` (default puzzle: the square
    blank-last one; a warning says so when a board can reach another named goal instead)."""
    p = _puzzle_of(states, puzzle)
    _warn_if_other_goal(states, p, puzzle, "heuristic")
    return p.heuristic(states, name)


# -- results -----------------------------------------------------------------------------------


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


@dataclasses.dataclass(frozen=True, repr=False)
class Grade:
    """A heuristic ``h`` graded against the exact distances ``h*``: over every state and edge of
    a table (:meth:`Table.grade`), or over given boards and their moves (:func:`grade`).

    The error is ``h* - h``, the true distance minus the estimate: positive where ``h``
    underestimates (as an admissible heuristic does), negative where it overestimates. Estimates
    are used as given (a learned heuristic's fractions are not rounded); ``h = h*`` means equal.

    Arrays are per depth, indexed by the true distance ``h*`` (a depth without boards has count
    0 and zeros); the ``total_*`` numbers are over every board graded. :meth:`summary` prints
    them as a table.

    Edges: over a table, two states one move apart, each edge counted once at its shallower
    end; over given boards, each board's moves to its children, counted at the board's depth (so
    the whole table given as boards counts every edge twice).

    Policy accuracy: over the boards not at the goal, the share where moving to the child with
    the smallest ``h`` is an optimal move (to a child at ``h* - 1``). A tie among ``k`` children
    with the smallest ``h``, ``j`` of them optimal, counts ``j / k``: the accuracy expected of the
    policy that breaks ties uniformly at random (a constant ``h`` scores a random policy's).

    Examples
    --------
    >>> import slidetable as st
    >>> g = st.Table.build(st.Puzzle(3, 3)).grade("manhattan")
    >>> round(g.total_mae, 3), round(g.total_mean_error, 3), g.admissible, g.consistent
    (7.972, 7.972, True, True)
    """

    name: str
    """The heuristic's name (a function's ``__name__``)."""
    states: np.ndarray
    """Boards at each depth (uint64)."""
    mean_h: np.ndarray
    """Mean estimate ``h`` per depth."""
    mean_exact: np.ndarray
    """Mean true distance ``h*`` per depth (the depth itself where there are boards)."""
    mean_error: np.ndarray
    """Signed mean error ``mean(h* - h)`` per depth: positive where ``h`` underestimates on
    average, negative where it overestimates. Errors of both signs cancel: read it with ``mae``."""
    exact_share: np.ndarray
    """Share (0 to 1) of boards with ``h = h*``, per depth."""
    overestimates: np.ndarray
    """Boards with ``h > h*`` (admissibility violations), per depth."""
    max_overestimate: np.ndarray
    """The largest ``h - h*`` per depth, rounded up (uint32; ``worst_overestimate`` unrounded)."""
    edges: np.ndarray
    """Edges counted per depth (see the class doc)."""
    inconsistent_edges: np.ndarray
    """Edges whose estimates differ by more than one move, ``|h(a) - h(b)| > 1`` (consistency
    violations), per depth."""
    total_exact_share: float
    """Share of all boards with ``h = h*``."""
    total_mean_error: float
    """Signed mean error ``mean(h* - h)`` over all boards: positive = underestimate. Errors of
    both signs cancel in it: quote ``total_mae`` beside it."""
    total_overestimates: int
    """Boards with ``h > h*`` (admissibility violations)."""
    total_inconsistent_edges: int
    """Edges with ``|h(a) - h(b)| > 1`` (consistency violations)."""
    at_goal: int
    """The estimate at the goal (a consistent heuristic has 0), rounded up."""
    mae: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    """Mean absolute error ``mean |h* - h|`` per depth."""
    rmse: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    """Root mean square error ``sqrt(mean (h* - h)^2)`` per depth."""
    under_share: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    """Share (0 to 1) of boards with ``h < h*``, per depth."""
    over_share: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    """Share (0 to 1) of boards with ``h > h*``, per depth."""
    worst_overestimate: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    """The largest ``h - h*`` per depth (0 where none overestimates)."""
    max_edge_difference: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    """The largest ``|h(a) - h(b)|`` over the edges counted per depth (above 1: the worst
    consistency violation)."""
    policy_accuracy: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    """Policy accuracy per depth (NaN at depth 0, and where no board is graded)."""
    total_states: int = 0
    """Boards graded."""
    total_mean_h: float = 0.0
    """Mean estimate over all boards."""
    total_mean_exact: float = 0.0
    """Mean true distance over all boards."""
    total_mae: float = 0.0
    """Mean absolute error ``mean |h* - h|`` over all boards."""
    total_rmse: float = 0.0
    """Root mean square error ``sqrt(mean (h* - h)^2)`` over all boards."""
    total_under_share: float = 0.0
    """Share of all boards with ``h < h*``."""
    total_over_share: float = 0.0
    """Share of all boards with ``h > h*``."""
    total_worst_overestimate: float = 0.0
    """The largest ``h - h*`` over all boards (0 for an admissible heuristic)."""
    total_edges: int = 0
    """Edges counted."""
    total_max_edge_difference: float = 0.0
    """The largest ``|h(a) - h(b)|`` over all edges counted (at most 1 for a consistent one)."""
    total_policy_accuracy: float = float("nan")
    """Policy accuracy over the boards not at the goal (NaN when every board is the goal)."""
    total_policy_states: int = 0
    """Boards whose policy is graded (those not at the goal)."""
    scope: str = "table"
    """What was graded: ``"table"`` (every state and edge) or ``"boards"`` (given boards and their moves)."""

    @property
    def admissible(self) -> bool:
        """Whether it never overestimates, on the boards graded."""
        return self.total_overestimates == 0

    @property
    def consistent(self) -> bool:
        """Whether it is consistent on the edges graded: admissible, 0 at the goal, no edge changes by more than one."""
        return self.admissible and self.at_goal == 0 and self.total_inconsistent_edges == 0

    def _where(self) -> str:
        if self.scope == "table":
            return f"all {self.total_states:,} states of the table"
        return f"{self.total_states:,} given boards"

    def __repr__(self) -> str:
        verdict = ("admissible" if self.admissible else "not admissible") + (
            ", consistent" if self.consistent else ", not consistent"
        )
        return (
            f"Grade({self.name!r} on {self._where()}: MAE {self.total_mae:.3f}, RMSE {self.total_rmse:.3f}, "
            f"h*-h {self.total_mean_error:+.3f}, under/over/exact {100 * self.total_under_share:.1f}%/"
            f"{100 * self.total_over_share:.1f}%/{100 * self.total_exact_share:.1f}%, "
            f"policy {100 * self.total_policy_accuracy:.1f}%, {verdict})"
        )

    def summary(self) -> str:
        """The headline measures, then one row per depth, as plain text (monospace).

        Examples
        --------
        >>> import slidetable as st
        >>> print(st.Table.build(st.Puzzle(2, 3)).grade("manhattan").summary().splitlines()[0])
        manhattan on all 360 states of the table (error = h* - h: positive where h underestimates)
        """
        pct = lambda x: "-" if np.isnan(x) else f"{100 * x:.2f}%"  # noqa: E731
        worst = f", worst h - h* = {self.total_worst_overestimate:g}" if self.total_overestimates else ""
        lines = [
            f"{self.name} on {self._where()} (error = h* - h: positive where h underestimates)",
            f"  mean absolute error   {self.total_mae:.3f}",
            f"  RMSE                  {self.total_rmse:.3f}",
            f"  signed mean h* - h    {self.total_mean_error:+.3f}",
            f"  mean h, mean h*       {self.total_mean_h:.3f}, {self.total_mean_exact:.3f}",
            f"  h < h*, h > h*, h = h*  {pct(self.total_under_share)}, {pct(self.total_over_share)}, "
            f"{pct(self.total_exact_share)}",
            f"  admissibility         {self.total_overestimates:,} boards with h > h*{worst}",
            f"  consistency           {self.total_inconsistent_edges:,} of {self.total_edges:,} edges with "
            f"|h(a) - h(b)| > 1 (largest {self.total_max_edge_difference:g}), h(goal) = {self.at_goal}",
            f"  policy accuracy       {pct(self.total_policy_accuracy)} of {self.total_policy_states:,} boards "
            f"not at the goal (a tie of k children, j optimal, counts j/k)",
            "",
            f"{'depth':>5}  {'boards':>9}  {'mean h':>7}  {'MAE':>6}  {'RMSE':>6}  {'h*-h':>7}  "
            f"{'h<h*':>7}  {'h>h*':>7}  {'h=h*':>7}  {'policy':>7}",
        ]
        for d in range(len(self.states)):
            if self.states[d] == 0:
                continue
            lines.append(
                f"{d:>5}  {int(self.states[d]):>9,}  {self.mean_h[d]:>7.3f}  {self.mae[d]:>6.3f}  {self.rmse[d]:>6.3f}  "
                f"{self.mean_error[d]:>+7.3f}  {pct(self.under_share[d]):>7}  {pct(self.over_share[d]):>7}  "
                f"{pct(self.exact_share[d]):>7}  {pct(self.policy_accuracy[d]):>7}"
            )
        lines.append(
            f"{'all':>5}  {self.total_states:>9,}  {self.total_mean_h:>7.3f}  {self.total_mae:>6.3f}  "
            f"{self.total_rmse:>6.3f}  {self.total_mean_error:>+7.3f}  {pct(self.total_under_share):>7}  "
            f"{pct(self.total_over_share):>7}  {pct(self.total_exact_share):>7}  {pct(self.total_policy_accuracy):>7}"
        )
        return "\n".join(lines)


def _grade(name: str, d: dict, at_goal: float, scope: str = "table") -> Grade:
    """A :class:`Grade` from the library's per-depth sums (``d``: columns by depth and a ``total``)."""
    states = np.array(d["states"], dtype=np.uint64)
    n = np.maximum(states, 1).astype(np.float64)
    col = lambda k: np.array(d[k], dtype=np.float64)  # noqa: E731
    t = d["total"]
    tn = max(t["states"], 1)
    ps = np.array(d["policy_states"], dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        policy = np.where(ps > 0, col("policy_correct") / np.maximum(ps, 1), np.nan)
    return Grade(
        name=name,
        states=states,
        mean_h=col("sum_estimate") / n,
        mean_exact=col("sum_exact") / n,
        mean_error=(col("sum_exact") - col("sum_estimate")) / n,
        exact_share=col("exact") / n,
        overestimates=np.array(d["overestimates"], dtype=np.uint64),
        max_overestimate=np.array(d["max_overestimate"], dtype=np.uint32),
        edges=np.array(d["edges"], dtype=np.uint64),
        inconsistent_edges=np.array(d["inconsistent_edges"], dtype=np.uint64),
        total_exact_share=t["exact"] / tn,
        total_mean_error=(t["sum_exact"] - t["sum_estimate"]) / tn,
        total_overestimates=int(t["overestimates"]),
        total_inconsistent_edges=int(t["inconsistent_edges"]),
        at_goal=int(np.ceil(at_goal)),
        mae=col("sum_abs_error") / n,
        rmse=np.sqrt(col("sum_squared_error") / n),
        under_share=col("underestimates") / n,
        over_share=col("overestimates") / n,
        worst_overestimate=col("worst_overestimate"),
        max_edge_difference=col("max_edge_difference"),
        policy_accuracy=policy,
        total_states=int(t["states"]),
        total_mean_h=t["sum_estimate"] / tn,
        total_mean_exact=t["sum_exact"] / tn,
        total_mae=t["sum_abs_error"] / tn,
        total_rmse=float(np.sqrt(t["sum_squared_error"] / tn)),
        total_under_share=t["underestimates"] / tn,
        total_over_share=t["overestimates"] / tn,
        total_worst_overestimate=float(t["worst_overestimate"]),
        total_edges=int(t["edges"]),
        total_max_edge_difference=float(t["max_edge_difference"]),
        total_policy_accuracy=t["policy_correct"] / t["policy_states"] if t["policy_states"] else float("nan"),
        total_policy_states=int(t["policy_states"]),
        scope=scope,
    )


# -- tables ------------------------------------------------------------------------------------


class Table:
    """A perfect table: the exact distance of every state of a board of up to 12 cells.

    ``Table.build(Puzzle(3, 3))`` builds the 8-puzzle's in a few milliseconds; ``Table.open(path)``
    memory-maps a file written by ``Table.build(..., path=...)`` or by ``table build``.
    """

    __slots__ = ("_t", "puzzle")

    def __init__(self, core: Any):
        self._t = core
        self.puzzle = Puzzle._from_core(core.rows, core.cols, core.goal_cells)

    @classmethod
    def build(
        cls,
        puzzle: Puzzle,
        path: Union[str, os.PathLike, None] = None,
        progress: Optional[Callable[[dict], Any]] = None,
    ) -> "Table":
        """Builds the table by breadth-first search from the goal, in memory or into ``path``
        (written to a temporary file and renamed: an existing file is untouched if the build
        fails). ``progress`` is called after each depth with a dict (depth, level_states,
        reached, total, seconds). Ctrl-C, or an exception from ``progress``, stops the build
        after the depth in progress (the file is not written; an old one stays as it was)."""
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        return cls(_core.Table.build(puzzle._p, None if path is None else os.fspath(path), progress))

    @classmethod
    def open(cls, path: Union[str, os.PathLike], mmap: bool = True) -> "Table":
        """Opens a table file with the CLI's checks on open.

        Parameters
        ----------
        path:
            The table file (``eight.table``, ``3x4.table``, ...).
        mmap:
            ``True`` (default): memory-mapped, no copy, shared with other processes through the
            page cache. A mapped file must not be truncated by another program while it is
            open: a read past its new end is a bus error (SIGBUS) that ends the interpreter, and
            no Python code can catch it. ``False``: read into memory (one copy per process),
            safe whatever happens to the file afterwards.

        Raises
        ------
        FileNotFoundError, PermissionError, IsADirectoryError
            The file cannot be opened (a directory is named as such).
        TableError
            The file is not a table, is damaged or truncated.

        Examples
        --------
        >>> t = Table.build(Puzzle(3, 3), "eight.table")   # doctest: +SKIP
        >>> Table.open("eight.table", mmap=False).distance([8, 6, 7, 2, 5, 4, 3, 0, 1])  # doctest: +SKIP
        31
        """
        if not isinstance(mmap, bool):
            raise TypeError(f"mmap must be True or False, not {type(mmap).__name__}")
        return cls(_core.Table.open(os.fspath(path), mmap))

    @property
    def path(self) -> Optional[str]:
        return self._t.path

    @property
    def max_depth(self) -> int:
        return int(self._t.max_depth)

    def __len__(self) -> int:
        return int(self._t.entries)

    def __reduce__(self) -> tuple[Any, ...]:
        # a file table is opened again from its path; one built in memory is built again (the
        # same table: milliseconds up to 10 cells, seconds for 12)
        if self.path is not None:
            return (Table.open, (self.path,))
        return (Table.build, (self.puzzle,))

    def __repr__(self) -> str:
        where = f", path={self.path!r}" if self.path else ""
        return f"Table({self.puzzle!r}, entries={len(self)}, max_depth={self.max_depth}{where})"

    def _boards(self, states: BoardLike) -> tuple[np.ndarray, bool]:
        return self.puzzle._boards(states, np.uint8)

    def distance(self, states: BoardLike) -> Union[int, None, np.ndarray]:
        """The exact distance of each board (int16, ``UNSOLVABLE`` for a board that cannot reach
        the goal); for one board an int, or None."""
        a, single = self._boards(states)
        d = self._t.distances(a)
        if single:
            return None if d[0] < 0 else int(d[0])
        return d

    def optimal_moves(self, states: BoardLike, convention: str = "blank") -> np.ndarray:
        """Which actions (``U D L R`` in ``convention``) lead one step closer to the goal: ``(N, 4)``
        bool (``(4,)`` for one board), all False at the goal and for unsolvable boards. The
        labels of an optimal policy."""
        _convention(convention)
        a, single = self._boards(states)
        m = self._t.optimal_moves(a)
        if convention == "tile":
            m = m[:, _TILE_TO_BLANK]
        return m[0] if single else m

    def solve(self, state: BoardLike, convention: str = "blank") -> Optional[Solution]:
        """An optimal solution by hill-climbing down the table; None if the board cannot reach the goal."""
        _convention(convention)
        moves = self._t.solve(self.puzzle._one(state))
        if moves is None:
            return None
        moves = to_tile_moves(moves) if convention == "tile" else moves
        return Solution(moves, convention, len(moves), True, 0, 0, 0.0, "table", "table", goal=self.puzzle.goal_name)

    def count_solutions(self, state: BoardLike) -> Optional[int]:
        """The number of distinct optimal solutions; None if the board cannot reach the goal."""
        c = self._t.count_solutions(self.puzzle._one(state))
        return None if c is None else int(c[1])

    def sample(self, depth: int, count: int, seed: int = 1) -> np.ndarray:
        """``count`` distinct boards drawn uniformly from those exactly ``depth`` moves from the
        goal, reproducible from ``seed`` (the same boards as ``table sample --seed``)."""
        depth, count = _int(depth, "depth"), _int(count, "count")
        if depth > 255:
            raise ValueError(f"no states at depth {depth}: the deepest are at depth {self.max_depth}")
        return self._t.sample(depth, count, _seed(seed)).astype(self.puzzle.dtype, copy=False)

    def histogram(self) -> np.ndarray:
        """States at each distance (figure 3 of the 1987 report for the 8-puzzle)."""
        return np.array(self._t.histogram(), dtype=np.uint64)

    def verify(self) -> None:
        """Checks every entry against the distance function, as ``table verify`` does; raises
        :class:`TableError` naming the first wrong entry."""
        self._t.verify()

    def rank(self, states: BoardLike) -> Union[int, None, np.ndarray]:
        """Each board's index in the table (int64, ``UNSOLVABLE`` for unsolvable boards)."""
        a, single = self._boards(states)
        r = self._t.ranks(a)
        if single:
            return None if r[0] < 0 else int(r[0])
        return r

    def unrank(self, indices: Union[int, npt.ArrayLike]) -> np.ndarray:
        """The boards at ``indices`` (0 to ``len(table) - 1``)."""
        i = np.asarray(indices)
        if i.size == 0:
            i = i.astype(np.uint64)
        if i.dtype.kind not in "iu":
            raise TypeError(f"indices must be integers, not {i.dtype}")
        if i.size and i.min() < 0:
            raise ValueError(f"index {int(i.min())} is out of range: the table has indices 0 to {len(self) - 1}")
        boards = self._t.unrank(np.require(i.ravel(), dtype=np.uint64, requirements=["C", "A"]))
        return boards[0] if i.ndim == 0 else boards.reshape(i.shape + (self.puzzle.cells,))

    def as_array(self) -> np.ndarray:
        """The entries, one byte per state in index order: a read-only view of the table's own
        memory (no copy; the table stays open while the view lives)."""
        return np.frombuffer(self._t, dtype=np.uint8)

    def grade(
        self,
        h: Union[str, Callable[[np.ndarray], npt.ArrayLike]],
        batch_size: int = 65536,
        states: Optional[BoardLike] = None,
    ) -> Grade:
        """Grades a heuristic against this table's exact distances: on every state and every
        edge, as ``table heuristic`` does, or on the given ``states`` and their moves.

        Parameters
        ----------
        h : str or callable
            A name (``misplaced``, ``manhattan``, ``linear-conflict``, ``nilsson``) or a function
            of a batch of boards, ``(B, cells)`` uint8 in, ``B`` numbers out (a learned
            heuristic). Fractions are graded as given (not rounded).
        batch_size : int
            Boards per call of a function ``h``.
        states : array_like of int, optional
            Boards ``(N, cells)`` or ``(N, rows, cols)`` to grade instead of every state (a
            held-out set); see :func:`grade`.

        Returns
        -------
        Grade
            The measures, in total and per depth.

        Raises
        ------
        ValueError
            An unknown name; ``h`` returning the wrong shape, or NaN or infinity (naming the
            state or board); a bad or unsolvable board in ``states``.
        TypeError
            ``h`` neither a name nor callable, or returning something that is not numbers.

        Examples
        --------
        >>> import slidetable as st
        >>> t = st.Table.build(st.Puzzle(3, 3))
        >>> g = t.grade("misplaced")
        >>> g.admissible, g.total_mae > 0, g.total_mean_error > 0  # h* - h > 0: it underestimates
        (True, True, True)
        """
        if states is not None:
            return grade(h, states, table=self, batch_size=batch_size)
        if isinstance(h, str):
            d = self._t.grade(h)
            return _grade(h, d, d["at_goal"])
        if not callable(h):
            raise TypeError("h must be a heuristic name or a function of a batch of boards")
        batch_size = _int(batch_size, "batch_size", 1)
        n = len(self)
        # whole numbers from 0 to 254 (every classic heuristic, a rounded network) take a byte a
        # state; fractions are kept as float64 up to 2^24 states and float32 above (4 bytes a
        # state: 1 GB for 12 cells, where float64 would be 2)
        est: np.ndarray = np.empty(n, dtype=np.uint8)
        for start in range(0, n, batch_size):
            stop = min(n, start + batch_size)
            boards = self.unrank(np.arange(start, stop, dtype=np.uint64))
            v = _estimates(h(boards), stop - start)
            if est.dtype == np.uint8 and not _bytes_hold(v):
                est = est.astype(np.float64 if n <= 1 << 24 else np.float32)
            est[start:stop] = v
        at_goal = _estimates(h(self.puzzle.goal[None, :].astype(np.uint8)), 1)[0]
        return _grade(_name_of(h), self._t.grade_estimates(est), float(at_goal))


def _name_of(h: Any) -> str:
    return h if isinstance(h, str) else getattr(h, "__name__", type(h).__name__)


def _bytes_hold(v: np.ndarray) -> bool:
    """Whether estimates are whole numbers from 0 to 254 (stored exactly in a byte)."""
    return bool(np.isfinite(v).all() and (v == np.round(v)).all() and (v.size == 0 or (v.min() >= 0 and v.max() <= 254)))


def _estimates(values: npt.ArrayLike, expected: int) -> np.ndarray:
    """A heuristic's answer for ``expected`` boards as float64 ``(expected,)``; NaN and
    infinity are left for the library, which names the board."""
    try:
        v = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"the heuristic must return numbers, not {type(values).__name__}: {e}") from None
    if v.shape == (expected, 1):
        v = v[:, 0]
    if v.shape != (expected,):
        raise ValueError(
            f"the heuristic returned shape {np.shape(values)} for a batch of {expected} boards: "
            f"return one estimate per board, shape ({expected},)"
        )
    return v


def _evaluate(h: Union[str, Callable[[np.ndarray], npt.ArrayLike]], puzzle: Puzzle, boards: np.ndarray, batch_size: int) -> np.ndarray:
    """``h`` on ``boards`` ((N, cells) uint8) as float64, a function called ``batch_size`` boards at a time."""
    if isinstance(h, str):
        return puzzle.heuristic(boards, h).astype(np.float64).reshape(len(boards))
    if not callable(h):
        raise TypeError(f"h must be a heuristic name or a function of a batch of boards, not {type(h).__name__}")
    out = np.empty(len(boards), dtype=np.float64)
    for start in range(0, len(boards), batch_size):
        stop = min(len(boards), start + batch_size)
        out[start:stop] = _estimates(h(np.ascontiguousarray(boards[start:stop])), stop - start)
    return out


def grade(
    h: Union[str, Callable[[np.ndarray], npt.ArrayLike]],
    states: BoardLike,
    puzzle: Optional[Puzzle] = None,
    table: Optional["Table"] = None,
    solver: Optional["Solver"] = None,
    batch_size: int = 65536,
) -> Grade:
    """Grades a heuristic on given boards (a held-out set) against their exact distances.

    Each board counts once, at its true depth; ``h`` is also evaluated on every board's children
    (the boards one move away), which gives the edges for consistency (each board's moves) and
    the greedy policy's choice. The measures are :class:`Grade`'s, defined there; on every state
    of a table they equal :meth:`Table.grade`'s, except that each edge is seen from both ends.

    Parameters
    ----------
    h : str or callable
        A built-in heuristic's name (``misplaced``, ``manhattan``, ``linear-conflict``,
        ``nilsson``) or a function of a batch of boards: ``(B, cells)`` uint8 in, ``B`` numbers
        out (any array-like; ``(B, 1)`` is accepted). Fractions are graded as given.
    states : array_like of int
        The boards, ``(N, cells)`` or ``(N, rows, cols)`` (or one board). Each must reach the goal.
    puzzle : Puzzle, optional
        Their puzzle; by default the table's or the solver's, else the square blank-last one.
    table : Table, optional
        Where the exact distances come from. Without ``table`` or ``solver``, boards of up to
        10 cells get a table built in memory (milliseconds); larger ones need one of the two.
    solver : Solver, optional
        Exact distances by optimal searches (a :class:`Solver` with pattern tables, or an
        admissible heuristic): each board and each of its children is solved, up to five
        searches a board, so this is slow past 3x4 (on 4x4, seconds a board with the 7-8
        tables). Its searches must be optimal.
    batch_size : int
        Boards per call of a function ``h``.

    Returns
    -------
    Grade
        With ``scope == "boards"``; per-depth arrays run from 0 to the deepest board.

    Raises
    ------
    ValueError
        A board of the wrong shape or puzzle, malformed or unable to reach the goal; ``h``
        returning the wrong shape, NaN or infinity (naming the board); a table or solver for
        another puzzle; no way to find the distances; a solver whose searches are not optimal.
    TypeError
        ``h`` neither a name nor callable; ``table`` or ``solver`` of the wrong type.

    Examples
    --------
    >>> import slidetable as st
    >>> p = st.Puzzle(3, 3)
    >>> held_out = st.Table.build(p).sample(20, 100, seed=7)
    >>> g = st.grade(lambda b: p.heuristic(b, "manhattan"), held_out)
    >>> g.total_states, g.admissible, int(g.states[20]), g.total_mae > 0
    (100, True, 100, True)
    """
    if table is not None and solver is not None:
        raise ValueError("give table= or solver=, not both: the exact distances come from one of them")
    if table is not None and not isinstance(table, Table):
        raise TypeError(f"table must be a slidetable.Table, not {type(table).__name__}")
    if solver is not None and not isinstance(solver, Solver):
        raise TypeError(f"solver must be a slidetable.Solver, not {type(solver).__name__}")
    source = table if table is not None else solver
    if source is not None:
        if puzzle is not None and puzzle != source.puzzle:
            raise ValueError(f"the {'table' if table is not None else 'solver'} is for {source.puzzle!r}, not {puzzle!r}")
        puzzle = source.puzzle
    puzzle = _puzzle_of(states, puzzle)
    batch_size = _int(batch_size, "batch_size", 1)
    boards, _ = puzzle._boards(states, np.uint8)
    n = len(boards)
    kids, valid = puzzle.expand(boards) if n else (np.zeros((0, 4, puzzle.cells)), np.zeros((0, 4), dtype=bool))
    kids = kids.astype(np.uint8)
    hb = _evaluate(h, puzzle, boards, batch_size)
    hc = np.zeros((n, 4), dtype=np.float64)
    hc[valid] = _evaluate(h, puzzle, kids[valid], batch_size)
    at_goal = float(_evaluate(h, puzzle, puzzle.goal[None, :].astype(np.uint8), 1)[0])
    name = _name_of(h)
    if solver is None:
        if table is None:
            if puzzle.cells > 10:
                raise ValueError(
                    f"no exact distances for {puzzle.rows}x{puzzle.cols} boards: pass table= (a table of "
                    f"up to 12 cells, Table.open) or solver= (a slidetable.Solver with pattern tables)"
                )
            table = _memory_table(puzzle)
        return _grade(name, table._t.grade_boards(boards, hb, hc), at_goal, "boards")
    if solver._h is not None:
        raise ValueError("solver= must search with its own tables, not a heuristic function: make it with heuristic='auto'")
    every = np.concatenate([boards, kids[valid]])
    uniq, inverse = np.unique(every, axis=0, return_inverse=True)
    r = solver.solve_batch(uniq)
    lengths = np.asarray(r.lengths)[inverse.reshape(-1)]
    if (lengths[:n] < 0).any():
        row = int(np.argmax(lengths[:n] < 0))
        why = "cannot reach the goal" if lengths[row] == UNSOLVABLE else f"was not solved ({r.errors[int(inverse.reshape(-1)[row])]})"
        raise ValueError(f"board {row}: {puzzle.grid(boards[row])!r} {why}: grade boards that can")
    if not np.asarray(r.optimal).all():
        raise ValueError(
            f"the solver's searches are not optimal (heuristic {solver.heuristic!r}): give a Solver with pattern "
            "tables or an admissible heuristic, or table="
        )
    exact = lengths[:n].astype(np.uint32)
    child_exact = np.zeros((n, 4), dtype=np.uint32)
    child_exact[valid] = lengths[n:]
    d = _core.Table.grade_given(exact, hb, valid, child_exact, hc)
    return _grade(name, d, at_goal, "boards")


# -- pattern databases and search ----------------------------------------------------------------


class PatternDB:
    """Additive pattern databases for a puzzle: for each group of a partition of the tiles, the
    fewest moves that bring the group home; their sum (and, on square boards, the sum for the
    board reflected about the diagonal) is an admissible estimate.

    ``PatternDB.load(Puzzle(4, 4), "7-8", dir="tables")`` loads the 7-8 tables from ``tables/``;
    small missing tables (``auto``, ``6-6-3``, ``5-5-5``) are built there on the spot.
    ``PatternDB.build(Puzzle(4, 4, "blank-first"), "7-8", dir="tables")`` builds any partition or
    catalogue the ``table build --pattern`` command builds, into the same files.
    """

    __slots__ = ("_db", "puzzle", "_args")

    def __init__(self, core: Any, puzzle: Puzzle, args: tuple = ()):
        self._db = core
        self.puzzle = puzzle
        self._args = args

    def __reduce__(self) -> tuple[Any, ...]:
        # loaded again from its files where it is unpickled (a Dask worker, a subprocess)
        return (_load_patterns, self._args)

    @classmethod
    def load(
        cls,
        puzzle: Puzzle,
        partition: str = "auto",
        dir: Union[str, os.PathLike] = ".",
        build_missing: bool = True,
        reflect: bool = True,
        notice: Optional[Callable[[str], Any]] = None,
        share: bool = False,
    ) -> "PatternDB":
        """Loads (building small missing ones when ``build_missing``) the tables of ``partition``
        (a name: ``auto``, 4x4 ``5-5-5``/``6-6-3``/``7-8``, 5x5 ``6-6-6-6``; or groups of tiles
        ``1,2,3/4,5,6,7``) from ``dir``. ``notice`` receives what the CLI would say on stderr.
        With ``share``, the tables stay the files' memory mappings instead of private copies:
        processes on one machine then share one copy (lookups are somewhat slower)."""
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        # estimates only: no move-pruning machine (prune=2, the move back), which only searches use
        core = _core.Solver(puzzle._p, "pdb", partition, _dir(dir), reflect, build_missing, None, notice, share, 2)
        return cls(core, puzzle, (puzzle, partition, os.fspath(dir), build_missing, reflect, share))

    @classmethod
    def build(
        cls,
        puzzle: Puzzle,
        partition: str = "auto",
        dir: Union[str, os.PathLike] = ".",
        zero: Union[bool, str] = False,
        progress: Optional[Callable[[dict], Any]] = None,
        reflect: bool = True,
        share: bool = False,
    ) -> "PatternDB":
        """Builds the pattern tables of ``partition`` into ``dir`` and loads them.

        The same build and the same files as ``table build --pattern``: one file per group of
        tiles (a group that a mirror or rotation of the board maps onto an earlier group is
        looked up in that group's table and gets none of its own), named as :meth:`load` and
        :class:`Solver` look for them, each written to a temporary file and renamed into place,
        so an interrupted build never leaves a partial table under a table's name. Existing
        tables of the same names are replaced.

        Parameters
        ----------
        puzzle : Puzzle
            The board shape and goal.
        partition : str
            A named partition or catalogue (:meth:`partitions` lists them: 4x4 ``5-5-5``,
            ``6-6-3``, ``7-8``; 5x5 ``6-6-6-6``, ``small-t``...), ``auto``, groups of tiles
            (``"1,2,3/4,5,6,7"``), or partitions joined by ``+`` (a catalogue: the estimate is
            the largest of their sums, a group shared by several is built once).
        dir : str or os.PathLike
            The existing directory the tables are written to.
        zero : bool or {"bits", "bytes"}
            Zero-aware tables (an entry per placement and region of the blank; never below the
            classic entry, often above): ``True`` or ``"bits"`` one bit an entry, ``"bytes"``
            the distance itself. :meth:`load` prefers them when both kinds are present.
        progress : callable, optional
            Called after each depth of each table with a dict: ``table`` (from 1) of
            ``tables``, ``tiles``, ``depth``, ``level_states``, ``reached``, ``total`` (an
            upper bound on the states), ``seconds`` (of this table). An exception it raises
            stops the build and is raised here.
        reflect, share
            As :meth:`load`.

        Returns
        -------
        PatternDB
            The tables built, loaded.

        Raises
        ------
        ValueError
            A partition that does not parse or whose largest table would not fit in memory.
        FileNotFoundError, NotADirectoryError
            ``dir`` is not a directory.
        OSError
            A table cannot be written.
        KeyboardInterrupt
            On Ctrl-C, after the depth under way; the table being built is not written.

        Examples
        --------
        >>> import os, tempfile, slidetable as st
        >>> p = st.Puzzle(4, 4, "blank-first")
        >>> with tempfile.TemporaryDirectory() as d:
        ...     db = st.PatternDB.build(p, "1,2,3/4,5,6", dir=d)
        ...     sorted(os.listdir(d))
        ['4x4-blank-first-tiles-1-2-3.table', '4x4-blank-first-tiles-4-5-6.table']
        >>> int(db.h(p.goal))
        0
        """
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        if not isinstance(partition, str):
            raise TypeError(f"partition must be a name or groups of tiles, not {type(partition).__name__}")
        if partition.strip() == "list":
            raise ValueError("partition='list' is the command line's listing: PatternDB.partitions(puzzle) lists them")
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be a function of a dict, not {type(progress).__name__}")
        if zero is False or zero is None:
            bits: Optional[bool] = None
        elif zero is True or zero == "bits":
            bits = True
        elif zero == "bytes":
            bits = False
        else:
            raise ValueError(f"zero={zero!r}: give False, True (one bit an entry), 'bits' or 'bytes'")
        path = _dir(dir)
        _core.build_patterns(puzzle._p, partition, path, bits, progress)
        return cls.load(puzzle, partition, dir, build_missing=False, reflect=reflect, share=share)

    @staticmethod
    def build_pruner(puzzle: Puzzle, length: int, dir: Union[str, os.PathLike] = ".") -> str:
        """Makes the move-pruning machine of ``puzzle``'s board shape for strings of up to
        ``length`` moves (every string with a shorter or equal-but-earlier equivalent is never
        searched), as ``table build --prune``, and writes it into ``dir``, where a
        :class:`Solver` given ``prune=length`` and that ``dir`` finds it. Machines of up to 12
        moves are made on the spot when missing; longer ones take time (4x4: 14 moves in about
        1 s, 16 in 7 s; 5x5: 14 in 13 s) and must be made here first.

        Parameters
        ----------
        puzzle : Puzzle
            The board shape (the goal does not matter).
        length : int
            The longest move strings compared, 2 to 24.
        dir : str or os.PathLike
            The existing directory the machine is written to.

        Returns
        -------
        str
            The path written (``RxC-moves-L.fsm`` in ``dir``).

        Examples
        --------
        >>> import os, tempfile, slidetable as st
        >>> with tempfile.TemporaryDirectory() as d:
        ...     os.path.basename(st.PatternDB.build_pruner(st.Puzzle(3, 3), 8, dir=d))
        '3x3-moves-8.fsm'
        """
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        path, _, _ = _core.build_pruner(puzzle._p, _int(length, "length"), _dir(dir))
        return str(path)

    @staticmethod
    def partitions(puzzle: Puzzle) -> dict[str, str]:
        """The named partitions and catalogues of ``puzzle``'s board shape, and ``auto``: name ->
        what it is (``table build --pattern list`` lists every shape's)."""
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        return dict(_core.partitions(puzzle._p))

    @property
    def partition(self) -> str:
        return str(self._db.partition)

    @property
    def groups(self) -> list[list[int]]:
        return [list(g) for g in self._db.groups]

    @property
    def reflects(self) -> bool:
        """Whether the reflected lookup is available (square board, blank on the diagonal)."""
        return bool(self._db.reflects)

    @property
    def shared(self) -> bool:
        """Whether the tables are the files' memory mappings (``share=True``)."""
        return bool(self._db.shares_tables)

    def __repr__(self) -> str:
        return f"PatternDB({self.puzzle!r}, {self.partition!r})"

    def h(self, states: BoardLike, reflect: bool = True) -> Union[int, np.ndarray]:
        """The estimate of each board (int32): the sum over the groups, or with ``reflect`` the
        larger of that and the reflected board's sum."""
        a, single = self.puzzle._boards(states, np.uint8)
        h = self._db.h(a, bool(reflect))
        return int(h[0]) if single else h.astype(np.int32, copy=False)


def _dir(dir: Union[str, os.PathLike]) -> str:
    """A tables directory that exists (FileNotFoundError, NotADirectoryError otherwise)."""
    path = os.fspath(dir)
    if not os.path.isdir(path):
        if os.path.exists(path):
            raise NotADirectoryError(f"dir {path}: not a directory")
        raise FileNotFoundError(f"dir {path}: no such directory")
    return path


def _load_patterns(puzzle: Puzzle, partition: str, dir: str, build_missing: bool, reflect: bool, share: bool) -> "PatternDB":
    return PatternDB.load(puzzle, partition, dir, build_missing, reflect, None, share)


_ALGORITHMS = ("auto", "astar", "a*", "idastar", "ida*", "astar-ida", "a*+ida*", "bfs", "greedy", "weighted", "bwas")
#: The algorithms that search with a heuristic function (and ``bwas`` with any heuristic).
BATCH_ALGORITHMS = ("astar", "weighted", "greedy", "bwas")
#: ``bwas``'s default number of nodes expanded per step.
DEFAULT_BATCH_SIZE = 100

HeuristicFn = Callable[[np.ndarray], npt.ArrayLike]


def _heuristic_fn(h: HeuristicFn) -> Callable[[np.ndarray], np.ndarray]:
    """``h`` as the search calls it: boards ``(N, cells)`` uint8 in, ``(N,)`` float64 out,
    whatever array-like of numbers ``h`` returns (a list, a numpy array of any numeric dtype, a
    CPU tensor)."""

    def call(boards: np.ndarray) -> np.ndarray:
        got = h(boards)
        try:
            a = np.asarray(got, dtype=np.float64)
        except (TypeError, ValueError) as e:
            raise TypeError(
                f"the heuristic must return numbers, one per board (shape ({len(boards)},)); "
                f"it returned {type(got).__name__}: {e}"
            ) from None
        if a.shape != (len(boards),):
            if a.size == len(boards) and a.ndim == 2:
                a = a.reshape(-1)  # (N, 1), as a network's last layer gives
            else:
                raise ValueError(
                    f"the heuristic returned shape {a.shape} for {len(boards)} boards: it must return "
                    f"one number per board, shape ({len(boards)},)"
                )
        return np.ascontiguousarray(a)

    return call


@functools.lru_cache(maxsize=8)
def _memory_table(puzzle: "Puzzle") -> "Table":
    """One in-memory perfect table per shape and goal in this process, for the small boards
    (up to 10 cells: milliseconds to build) whose exact distances are had on the spot: optimal
    lengths, grading, labelled walks, the Gymnasium environments."""
    return Table.build(puzzle)


class Solver:
    """Searches on one puzzle with the tables loaded once: the heuristic is chosen as the CLI
    chooses it (``auto``: linear conflict up to 12 cells; past that, pattern tables found in
    ``dir``), the tables found, loaded or built on the spot, and kept for every call.

    ``heuristic`` may also be a function of a batch of boards, such as a trained network:
    called with a ``(N, cells)`` uint8 array, it returns ``N`` numbers (any array-like: a numpy
    array, a list, a CPU tensor). It then searches with A* (``algorithm="astar"``), weighted A*,
    greedy best-first, or DeepCubeA's batch-weighted A* (``algorithm="bwas"``: the
    ``batch_size`` best nodes expanded per step and all their new children estimated in one
    call), asking the function once per step and never twice for a board. ``bwas`` takes the
    built-in heuristics too, to compare with.

    Examples
    --------
    >>> import slidetable as st
    >>> p = st.Puzzle(3, 3)
    >>> manhattan = lambda boards: p.heuristic(boards, "manhattan")  # any function of a batch
    >>> sol = st.Solver(p, heuristic=manhattan).solve([8, 6, 7, 2, 5, 4, 3, 0, 1], algorithm="bwas", batch_size=50)
    >>> sol.optimal_length, sol.length >= 31, sol.heuristic_calls < sol.evaluated
    (31, True, True)
    """

    __slots__ = ("_s", "puzzle", "load_seconds", "_args", "_h")

    def __init__(
        self,
        puzzle: Puzzle,
        heuristic: Union[str, PatternDB, HeuristicFn] = "auto",
        partition: Optional[str] = None,
        dir: Union[str, os.PathLike] = ".",
        reflect: bool = True,
        build_missing: Optional[bool] = None,
        table: Union[str, os.PathLike, None] = None,
        notice: Optional[Callable[[str], Any]] = None,
        share_tables: bool = False,
        prune: Optional[int] = None,
    ):
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        self.puzzle = puzzle
        prune = _opt_int(prune, "prune")
        self._args = (puzzle, heuristic, partition, dir, reflect, build_missing, table, None, share_tables, prune)
        self._h: Optional[Callable[[np.ndarray], np.ndarray]] = None
        if isinstance(heuristic, PatternDB):
            if heuristic.puzzle != puzzle:
                raise ValueError(f"the pattern tables are for {heuristic.puzzle!r}, not {puzzle!r}")
            self._s = heuristic._db
            self.load_seconds = 0.0
            return
        if heuristic is not None and not isinstance(heuristic, str):
            if not callable(heuristic):
                raise TypeError(
                    f"heuristic must be a name, a PatternDB or a function of a batch of boards, "
                    f"not {type(heuristic).__name__}"
                )
            self._h = _heuristic_fn(heuristic)
            # the library's solver is kept for the goal and the truth (a table, or pattern tables
            # already in dir): nothing is built for a function's search unless asked
            heuristic = None
            if build_missing is None:
                build_missing = False
        name = None if heuristic in (None, "auto") else str(heuristic)
        path = None if table is None else os.fspath(table)
        self._s = _core.Solver(
            puzzle._p, name, partition, _dir(dir), reflect, True if build_missing is None else build_missing,
            path, notice, share_tables, prune,
        )
        self.load_seconds = float(self._s.load_seconds)

    @property
    def shares_tables(self) -> bool:
        """Whether the pattern tables are the files' mappings, shared with other processes."""
        return bool(self._s.shares_tables)

    @property
    def heuristic(self) -> str:
        """The heuristic chosen: misplaced (hamming), manhattan, linear-conflict, nilsson, table,
        pdb, or ``callable`` for a function."""
        return "callable" if self._h is not None else str(self._s.heuristic)

    def __repr__(self) -> str:
        return f"Solver({self.puzzle!r}, heuristic={self.heuristic!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # opened again, tables and all, where it is unpickled (a function goes by pickle's rules)
        return (Solver, self._args)

    def _options(
        self, algorithm: str, weight: Optional[float], max_nodes: Any, max_memory: Any, threads: Any
    ) -> tuple[str, Optional[float]]:
        _opt_int(max_nodes, "max_nodes")
        _opt_int(max_memory, "max_memory", 1)
        _opt_int(threads, "threads", 1)
        if not isinstance(algorithm, str):
            raise TypeError(f"algorithm must be a name, not {type(algorithm).__name__}")
        a = algorithm.lower()
        if a not in _ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}: use one of {', '.join(_ALGORITHMS)}")
        if weight is not None and a not in ("auto", "weighted", "bwas"):
            raise ValueError("weight goes with algorithm='weighted' or 'bwas'")
        if a in ("astar-ida", "a*+ida*"):
            if self._h is not None:
                raise ValueError(
                    "algorithm='astar-ida' searches with pattern tables, not a heuristic function: "
                    "use algorithm='astar', 'weighted', 'greedy' or 'bwas' with a function"
                )
            if self._s.heuristic != "pdb":
                raise ValueError(
                    f"algorithm='astar-ida' searches with pattern tables, and this solver's heuristic is "
                    f"{self._s.heuristic!r}: make the Solver with heuristic='pdb' (or partition=, or a PatternDB), "
                    f"or use algorithm='astar' or 'idastar'"
                )
        return a, weight

    def _batched(self, a: str, batch_size: Any) -> bool:
        """Whether the search is the library's batch search (a function, ``bwas``, a batch size)."""
        return self._h is not None or a == "bwas" or batch_size is not None

    def _batch_plan(self, a: str, weight: Optional[float], batch_size: Any) -> tuple[int, float, bool]:
        """(batch size, weight, greedy) of a batch search named ``a``."""
        if batch_size is not None:
            batch_size = _int(batch_size, "batch_size", 1)
        if a in ("idastar", "ida*", "astar-ida", "a*+ida*", "bfs"):
            raise ValueError(
                f"algorithm={a!r} cannot search with a heuristic function or a batch size: use "
                f"{', '.join(BATCH_ALGORITHMS)}"
            )
        if a == "auto":
            a = "bwas" if batch_size is not None else "weighted" if weight is not None else "astar"
        if a in ("astar", "a*", "weighted") and batch_size not in (None, 1):
            raise ValueError(f"batch_size goes with algorithm='bwas' (or 'greedy'), not {a!r}")
        w = None if weight is None else float(weight)
        if w is not None and not (np.isfinite(w) and 0 <= w <= 1000):
            raise ValueError(f"weight {weight} is out of range: give a number from 0 to 1000")
        if a in ("astar", "a*"):
            return 1, 1.0, False
        if a == "weighted":
            return 1, 2.0 if w is None else w, False
        if a == "greedy":
            return batch_size or 1, 0.0, True
        return batch_size or DEFAULT_BATCH_SIZE, 1.0 if w is None else w, False

    def _optimal_length(self, board: list[int], exact: Optional[int], optimal: Optional[bool]) -> Optional[int]:
        """The optimum of ``board`` where the truth can be had (see :meth:`solve`)."""
        if optimal is False:
            return None
        if exact is not None:
            return int(exact)
        p = self.puzzle
        if p.cells <= 10:
            d = _memory_table(p).distance(board)
            return None if d is None else int(d)
        if optimal or (self._s.heuristic == "pdb" and p.cells <= 16):
            r = self._s.solve(board, "auto", None, None, None, None)
            return None if r is None else len(r["moves"])
        return None

    def _batch_one(
        self, board: list[int], plan: tuple[int, float, bool], max_nodes: Any, max_memory: Any, optimal: Optional[bool]
    ) -> Optional[dict]:
        r = self._s.batch_search(board, self._h, plan[0], plan[1], plan[2], max_nodes, max_memory)
        if r is None:
            return None
        r["optimal_length"] = self._optimal_length(board, r.pop("exact"), optimal)
        if r["optimal_length"] is not None:
            r["optimal"] = len(r["moves"]) == r["optimal_length"]
        elif self._h is None and r["algorithm"] == "astar" and self._s.heuristic not in ("nilsson",):
            r["optimal"] = True
        else:
            r["optimal"] = None
        return r

    def solve(
        self,
        state: BoardLike,
        algorithm: str = "auto",
        weight: Optional[float] = None,
        max_nodes: Optional[int] = None,
        max_memory: Optional[int] = None,
        threads: Optional[int] = None,
        convention: str = "blank",
        batch_size: Optional[int] = None,
        optimal: Optional[bool] = None,
        checkpoint: Union[str, os.PathLike, None] = None,
    ) -> Optional[Solution]:
        """Solves one board; None if it cannot reach the goal.

        Parameters
        ----------
        state:
            The board (any integer array-like of its cells).
        algorithm:
            ``auto`` (IDA* with pattern tables, else A*; with a heuristic function, A*, or
            ``bwas`` when ``batch_size`` is given), ``astar``, ``idastar``, ``bfs``, ``greedy``,
            ``weighted`` (with ``weight``, default 2), or ``bwas``: batch-weighted A* on
            ``g + weight*h`` (default weight 1; DeepCubeA's ``λ·g + h`` is ``weight = 1/λ``),
            expanding ``batch_size`` nodes per step (default 100); or ``astar-ida`` (pattern
            tables only; Bu & Korf's A*+IDA*): A* until ``max_memory`` (its budget here,
            default 1 GiB), then IDA* below the boards left on its open list, optimal.
        max_nodes, max_memory:
            Raise :class:`SearchLimitError` past this many generated nodes or bytes
            (``astar-ida``: ``max_memory`` is its A* part's budget, not a limit).
        threads:
            Threads of one IDA* search with pattern tables (default: all cores).
        batch_size:
            Nodes expanded per step of ``bwas`` (or ``greedy``) with their new children
            estimated in one call.
        optimal:
            Whether to find ``optimal_length`` (batch searches): ``None`` (default) where it is
            cheap (a table; 10 cells or fewer; pattern tables found in ``dir`` up to 4x4),
            ``True`` always (an optimal search beside, maybe slow), ``False`` never.
        checkpoint:
            ``astar-ida`` only: a file its progress is kept in (rewritten whole at each new
            bound and about once a minute) and resumed from when it exists, as ``table solve
            --checkpoint``: after a stop (Ctrl-C, ``max_nodes``, a crash), the same call goes on
            from the last save. The file is removed when the solution is found; one of another
            search (board, goal, tables, ``prune``, ``max_memory``) is refused.

        Raises
        ------
        ValueError
            A bad board, algorithm or option; a heuristic function's answer of the wrong shape
            or NaN.
        SearchLimitError
            At ``max_nodes`` (generated) or ``max_memory`` (bytes).
        KeyboardInterrupt
            On Ctrl-C.
        """
        _convention(convention)
        a, w = self._options(algorithm, weight, max_nodes, max_memory, threads)
        if checkpoint is not None and a not in ("astar-ida", "a*+ida*"):
            raise ValueError(f"checkpoint= goes with algorithm='astar-ida' (the search of hours), not {algorithm!r}")
        if self._batched(a, batch_size):
            plan = self._batch_plan(a, w, batch_size)
            r = self._batch_one(self.puzzle._one(state), plan, max_nodes, max_memory, optimal)
        else:
            path = None if checkpoint is None else os.fspath(checkpoint)
            r = self._s.solve(self.puzzle._one(state), a, w, max_nodes, max_memory, threads, path)
        return None if r is None else _solution(r, convention, self.puzzle.goal_name)

    def solve_batch(
        self,
        states: BoardLike,
        algorithm: str = "auto",
        weight: Optional[float] = None,
        max_nodes: Optional[int] = None,
        max_memory: Optional[int] = None,
        threads: Optional[int] = None,
        convention: str = "blank",
        batch_size: Optional[int] = None,
        optimal: Optional[bool] = None,
    ) -> BatchResult:
        """Solves many boards in parallel (one board per thread at a time, ``threads`` threads,
        default all cores); results in input order. A board whose search fails (a limit) is
        marked ``FAILED`` with its reason and the others go on; Ctrl-C stops the batch.

        Batch searches (a heuristic function, ``bwas``, a ``batch_size``) take the boards one
        after the other, each with its steps' boards in one call to the heuristic, and fill the
        result's ``optimal_lengths``, ``heuristic_calls``, ``evaluated``, ``heuristic_seconds``
        and ``search_seconds``. Parameters as :meth:`solve`."""
        _convention(convention)
        a, w = self._options(algorithm, weight, max_nodes, max_memory, threads)
        boards, _ = self.puzzle._boards(states, np.uint16)
        if self._batched(a, batch_size):
            return self._solve_batch_batched(boards, a, w, batch_size, max_nodes, max_memory, convention, optimal)
        r = self._s.solve_batch(boards, a, w, max_nodes, max_memory, threads)
        moves = [None if m is None else (to_tile_moves(m) if convention == "tile" else m) for m in r["moves"]]
        return BatchResult(
            lengths=r["lengths"],
            moves=moves,
            generated=r["generated"],
            expanded=r["expanded"],
            seconds=r["seconds"],
            optimal=r["optimal"],
            errors=list(r["errors"]),
            convention=convention,
            wall_seconds=float(r["wall_seconds"]),
            load_seconds=self.load_seconds,
            goal=self.puzzle.goal_name,
        )

    def _solve_batch_batched(
        self,
        boards: np.ndarray,
        a: str,
        w: Optional[float],
        batch_size: Any,
        max_nodes: Any,
        max_memory: Any,
        convention: str,
        optimal: Optional[bool],
    ) -> BatchResult:
        plan = self._batch_plan(a, w, batch_size)
        n = len(boards)
        lengths = np.full(n, UNSOLVABLE, dtype=np.int16)
        best = np.full(n, -1, dtype=np.int16)
        generated, expanded, calls, evaluated = (np.zeros(n, dtype=np.uint64) for _ in range(4))
        seconds, in_h, own = (np.zeros(n) for _ in range(3))
        proven = np.zeros(n, dtype=bool)
        moves: list = [None] * n
        errors: list = [None] * n
        started = time.perf_counter()
        for i, board in enumerate(boards):
            cells = [int(c) for c in board]
            try:
                r = self._batch_one(cells, plan, max_nodes, max_memory, optimal)
            except SearchLimitError as e:
                lengths[i], errors[i] = FAILED, str(e)
                continue
            if r is None:
                continue
            lengths[i] = len(r["moves"])
            moves[i] = to_tile_moves(r["moves"]) if convention == "tile" else r["moves"]
            generated[i], expanded[i] = r["generated"], r["expanded"]
            calls[i], evaluated[i] = r["heuristic_calls"], r["evaluated"]
            seconds[i], in_h[i], own[i] = r["seconds"], r["heuristic_seconds"], r["search_seconds"]
            proven[i] = bool(r["optimal"])
            if r["optimal_length"] is not None:
                best[i] = r["optimal_length"]
        return BatchResult(
            lengths=lengths,
            moves=moves,
            generated=generated,
            expanded=expanded,
            seconds=seconds,
            optimal=proven,
            errors=errors,
            convention=convention,
            wall_seconds=time.perf_counter() - started,
            load_seconds=self.load_seconds,
            goal=self.puzzle.goal_name,
            optimal_lengths=best,
            heuristic_calls=calls,
            evaluated=evaluated,
            heuristic_seconds=in_h,
            search_seconds=own,
        )


def _solution(r: dict, convention: str, goal: str = "") -> Solution:
    moves = r["moves"]
    return Solution(
        moves=to_tile_moves(moves) if convention == "tile" else moves,
        convention=convention,
        length=len(moves),
        optimal=r["optimal"],
        generated=int(r["generated"]),
        expanded=int(r["expanded"]),
        seconds=float(r["seconds"]),
        algorithm=str(r["algorithm"]),
        heuristic=str(r["heuristic"]),
        goal=goal,
        optimal_length=r.get("optimal_length"),
        heuristic_calls=r.get("heuristic_calls"),
        evaluated=r.get("evaluated"),
        heuristic_seconds=r.get("heuristic_seconds"),
        search_seconds=r.get("search_seconds"),
    )


def solve(
    state: BoardLike,
    puzzle: Optional[Puzzle] = None,
    heuristic: Union[str, PatternDB, HeuristicFn] = "auto",
    algorithm: str = "auto",
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    dir: Union[str, os.PathLike] = ".",
    partition: Optional[str] = None,
    weight: Optional[float] = None,
    max_memory: Optional[int] = None,
    convention: str = "blank",
    batch_size: Optional[int] = None,
    optimal: Optional[bool] = None,
) -> Optional[Solution]:
    """Solves one board (see :class:`Solver`, which keeps its tables between calls, and
    :meth:`Solver.solve` for the parameters; ``heuristic`` may be a function of a batch of
    boards)."""
    p = _puzzle_of(state, puzzle)
    _warn_if_other_goal(state, p, puzzle, "solve")
    return Solver(p, heuristic, partition, dir).solve(
        state, algorithm, weight, max_nodes, max_memory, threads, convention, batch_size, optimal
    )


def solve_batch(
    states: BoardLike,
    puzzle: Optional[Puzzle] = None,
    heuristic: Union[str, PatternDB, HeuristicFn] = "auto",
    algorithm: str = "auto",
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    dir: Union[str, os.PathLike] = ".",
    partition: Optional[str] = None,
    weight: Optional[float] = None,
    max_memory: Optional[int] = None,
    convention: str = "blank",
    batch_size: Optional[int] = None,
    optimal: Optional[bool] = None,
) -> BatchResult:
    """Solves many boards with the tables loaded once; see :meth:`Solver.solve_batch`."""
    p = _puzzle_of(states, puzzle)
    _warn_if_other_goal(states, p, puzzle, "solve_batch")
    s = Solver(p, heuristic, partition, dir)
    return s.solve_batch(states, algorithm, weight, max_nodes, max_memory, threads, convention, batch_size, optimal)


# -- the laboratory ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Instances:
    """A published benchmark set: boards with their optimal solution lengths."""

    name: str
    puzzle: Puzzle
    ids: np.ndarray
    boards: np.ndarray
    optimal: np.ndarray
    published_nodes: np.ndarray
    """Nodes generated by the published solver (-1 where the source gives none)."""

    def __len__(self) -> int:
        return int(self.ids.shape[0])


def instances(name: str) -> Instances:
    """``korf100``: Korf's 100 random 15-puzzles (1985); ``korf24``: Korf & Felner's 50 random
    24-puzzles (2002). Both have the goal ``0 1 2 ...`` (blank first)."""
    goal, ids, optimal, nodes, boards = _core.instances(name)
    side = int(round(boards.shape[1] ** 0.5))
    return Instances(name, Puzzle(side, side, goal), ids, boards, optimal, nodes)


@dataclasses.dataclass(frozen=True)
class Experiment:
    """Russell & Norvig's table: for each depth and column (an algorithm with a guide), the mean
    nodes generated and expanded and the effective branching factor b*."""

    depths: np.ndarray
    problems: np.ndarray
    columns: list
    generated: np.ndarray
    """(depths, columns) mean nodes generated (NaN where a column was skipped)."""
    expanded: np.ndarray
    b_star: np.ndarray
    published: np.ndarray
    """(depths, columns) the book's figure where it prints one, else NaN."""


def experiment(
    table: Optional[Table] = None,
    depths: Iterable[int] = range(2, 25, 2),
    count: int = 100,
    seed: int = 0x5EED,
    heuristics: Sequence[str] = ("misplaced", "manhattan"),
    algorithm: str = "astar",
    ids: bool = False,
    preset: Optional[str] = None,
    ids_max_depth: int = 14,
    progress: Optional[Callable[[int], Any]] = None,
) -> Experiment:
    """Runs the experiment on problems drawn uniformly at each depth of ``table`` (default: the
    3x3 table with the blank first, or with ``preset='rn'`` Russell & Norvig's setup on the
    centre-blank goal). ``ids`` adds uninformed iterative deepening (up to ``ids_max_depth``)."""
    if table is None:
        goal = "center" if preset in ("rn", "russell-norvig") else "blank-first"
        table = Table.build(Puzzle(3, 3, goal))
    count = _int(count, "count", 1)
    ids_max_depth = _int(ids_max_depth, "ids_max_depth")
    if ids_max_depth > 255:
        raise ValueError("ids_max_depth must be at most 255")
    columns = ([("idastar", "none")] if ids else []) + [(algorithm, h) for h in heuristics]
    ds = [_int(d, "a depth") for d in depths]
    if any(d < 0 or d > 255 for d in ds):
        raise ValueError("depths must be 0 to 255")
    labels, rows = _core.experiment(table._t, ds, int(count), _seed(seed), columns, preset, ids_max_depth, progress)
    shape = (len(rows), len(labels))
    gen, exp, bs, pub = (np.full(shape, np.nan) for _ in range(4))
    for i, row in enumerate(rows):
        for j, label in enumerate(labels):
            c = row["columns"][label]
            if not c.get("skipped"):
                gen[i, j], exp[i, j] = c["mean_generated"], c["mean_expanded"]
                bs[i, j] = np.nan if c["b_star"] is None else c["b_star"]
            if c["published"] is not None:
                pub[i, j] = c["published"]
    return Experiment(
        depths=np.array([r["depth"] for r in rows], dtype=np.int64),
        problems=np.array([r["problems"] for r in rows], dtype=np.int64),
        columns=list(labels),
        generated=gen,
        expanded=exp,
        b_star=bs,
        published=pub,
    )


# data sets for learned heuristics (their own module; imported last, as it uses the names above)
from .datasets import Dataset, balanced_sample, labelled_walks  # noqa: E402
