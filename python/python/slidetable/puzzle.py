"""Puzzles and boards: a board shape with its goal, and the calls on boards that need no table."""

from __future__ import annotations

import warnings
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _core
from ._common import BoardLike, MovesLike, _int, _seed
from .conventions import _TILE_TO_BLANK, _blank_moves, _convention

HEURISTICS = ("misplaced", "manhattan", "linear-conflict", "nilsson")


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
