"""Puzzles and boards: a board shape with its goal, and the calls on boards that need no table."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union, cast, overload

import numpy as np
import numpy.typing as npt

from . import _core
from ._common import (
    Board,
    BoardLike,
    Boards,
    Convention,
    GoalLike,
    GoalName,
    HeuristicName,
    ManyBoards,
    MovesLike,
    OneBoard,
    _int,
    _seed,
)
from .conventions import _TILE_TO_BLANK, _blank_moves, _convention

if TYPE_CHECKING:  # pragma: no cover
    from .pictures import BoardPicture

__all__ = ["HEURISTICS", "Puzzle", "parse", "is_solvable", "apply", "expand", "random_walk", "heuristic"]

#: The classic estimates every board has, by their canonical names (``hamming`` is another name
#: of ``misplaced``): the names ``Puzzle.heuristic`` and ``heuristic`` take.
HEURISTICS: tuple[HeuristicName, ...] = ("misplaced", "manhattan", "linear-conflict", "nilsson")

# the children of one board and which of its moves are legal; of a batch
_OneExpansion = tuple[Boards, np.ndarray[tuple[int], np.dtype[np.bool_]]]
_ManyExpansions = tuple[np.ndarray[tuple[int, int, int], np.dtype[Any]], np.ndarray[tuple[int, int], np.dtype[np.bool_]]]


class Puzzle:
    """A board shape and its goal.

    ``Puzzle(3, 3)`` is the 8-puzzle with the blank last; ``Puzzle(4, 4, goal="blank-first")`` the
    15-puzzle of Korf's instances. Puzzles are immutable, compare equal when their shape and
    goal are, hash, and pickle.

    Parameters
    ----------
    rows : int
        Rows of the board, 2 to 127 (default 3).
    cols : int, optional
        Columns of the board, 2 to 127 (default: ``rows``, a square board).
    goal : str or array_like of int, shape (cells,) or (rows, cols)
        A name of the CLI (``blank-last``, the default; ``blank-first``; ``snail``: the tiles
        along a clockwise spiral, which ends in the centre on 3x3, hence its other name
        ``center``) or an arrangement of the tiles, ``0`` the blank (an integer array, or text
        such as ``"1 2 3 / 4 _ 5"``). Type checkers see the names and arrays; text arrangements
        and the CLI's other spellings (``first``, ``spiral``) are read too at run time. An
        arrangement equal to a named goal is that goal.

    Raises
    ------
    TypeError
        ``rows`` or ``cols`` not an integer; a goal array of a non-integer dtype.
    ValueError
        Fewer than 2 or more than 127 rows or columns; a goal that is neither a name nor a board
        of this shape (a near miss of a name, ``blank_last``, is named as such).

    Examples
    --------
    >>> import slidetable as st
    >>> st.Puzzle(3, 3)
    Puzzle(3, 3, goal='blank-last')
    >>> p = st.Puzzle(3, 3, goal="center")
    >>> p.goal
    array([1, 2, 3, 8, 0, 4, 7, 6, 5], dtype=uint8)
    >>> st.Puzzle(2, 3, goal=[1, 2, 3, 4, 0, 5])
    Puzzle(2, 3, goal='1 2 3 / 4 _ 5')
    >>> st.Puzzle(4, goal="blank-first") == st.Puzzle(4, 4, "blank-first")
    True
    """

    __slots__ = ("_p",)

    def __init__(self, rows: int = 3, cols: Optional[int] = None, goal: GoalLike = "blank-last"):
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
        """The number of rows of the board (int)."""
        return int(self._p.rows)

    @property
    def cols(self) -> int:
        """The number of columns of the board (int)."""
        return int(self._p.cols)

    @property
    def cells(self) -> int:
        """The number of cells of the board, ``rows * cols`` (int): the length of a board."""
        return int(self._p.cells)

    @property
    def shape(self) -> tuple[int, int]:
        """The board's shape, ``(rows, cols)`` (tuple of two ints)."""
        return (self.rows, self.cols)

    @property
    def goal(self) -> Board:
        """The goal's cells, row-major, ``0`` the blank: a read-only ndarray, shape (cells,), of
        ``dtype``."""
        g = np.array(self._p.goal_cells, dtype=self.dtype)
        g.flags.writeable = False
        return g

    @property
    def goal_name(self) -> str:
        """The goal's name (str): ``blank-last``, ``blank-first``, ``snail``, or the goal's tiles
        (``1 2 3 / 4 _ 5``)."""
        return str(self._p.goal_name)

    @property
    def dtype(self) -> np.dtype[Any]:
        """The dtype of the boards this package returns (numpy dtype): uint8 up to 256 cells,
        else uint16."""
        return np.dtype(np.uint8) if self.cells <= 256 else np.dtype(np.uint16)

    def __repr__(self) -> str:
        return f"Puzzle({self.rows}, {self.cols}, goal={self.goal_name!r})"

    def _repr_html_(self) -> str:
        from .pictures import board_svg

        goal = [int(v) for v in self._p.goal_cells]
        svg = board_svg(goal, self.rows, self.cols, goal, 32, f"the goal, {self.goal_name}")
        return (
            f"<div class='slidetable'><b>Puzzle {self.rows}x{self.cols}</b>, goal {self.goal_name}"
            f"<div style='margin-top:0.3em'>{svg}</div></div>"
        )

    def picture(self, board: BoardLike, size: Optional[int] = None) -> "BoardPicture":
        """A picture of one board of this puzzle, shown by Jupyter as SVG (``to_svg()``,
        ``save(path)`` for a paper): tiles already where the goal has them light blue.

        Parameters
        ----------
        board : array_like of int
            One board, ``(cells,)`` or ``(rows, cols)``: any integer dtype, ``0`` the blank.
        size : int, optional
            Pixels a cell (at least 8; 48 by default up to 5 columns, smaller past it).

        Returns
        -------
        BoardPicture
            Drawn by Jupyter; ``to_svg()`` and ``save(path)``.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A batch, a wrong shape, a tile out of range or repeated.

        Examples
        --------
        >>> import slidetable as st
        >>> st.Puzzle(2, 3).picture([1, 2, 3, 4, 0, 5])
        BoardPicture(2x3: 1 2 3 / 4 _ 5)
        """
        from .pictures import BoardPicture

        return BoardPicture(board, self, size)

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
            elif a.dtype.kind in "US":
                raise TypeError(
                    f"boards must be integer arrays (0 the blank), not text ({a.dtype}): read text with puzzle.parse(\"8 6 7 / 2 5 4 / 3 _ 1\")"
                )
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
            if a.ndim == 2 and not single and a.size < 2 * n and min(a.shape) >= 2:
                # (2, 3) for a 3x3: a board of another shape, not two boards of 3 tiles
                raise ValueError(
                    f"a {a.shape[0]}x{a.shape[1]} board given ({a.size} tiles), but this puzzle is "
                    f"{self.rows}x{self.cols} ({n} cells): give st.Puzzle({a.shape[0]}, {a.shape[1]}) for it"
                )
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

    def parse(self, text: str) -> Board:
        """A board of this puzzle read from text.

        Parameters
        ----------
        text : str
            A board in any syntax the CLI accepts (``8 6 7 2 5 4 3 0 1``, ``8,6,7/2,5,4/3,_,1``,
            ``867254301``; ``0``, ``_`` or ``.`` the blank), or the text of a COS 226 puzzle
            file (its size on the first line, then the rows).

        Returns
        -------
        ndarray, shape (cells,), dtype ``dtype``
            The board's cells, row-major, ``0`` the blank.

        Raises
        ------
        ValueError
            Too few or too many tiles, a tile out of range or repeated, something that is not a
            tile; a COS 226 file of another size.

        Examples
        --------
        >>> import slidetable as st
        >>> p = st.Puzzle(3, 3)
        >>> p.parse("8,6,7/2,5,4/3,_,1")
        array([8, 6, 7, 2, 5, 4, 3, 0, 1], dtype=uint8)
        >>> p.parse("3\\n8 6 7\\n2 5 4\\n3 0 1\\n")
        array([8, 6, 7, 2, 5, 4, 3, 0, 1], dtype=uint8)
        """
        return self._out(self._p.parse(text))

    @overload
    def is_solvable(self, states: OneBoard) -> bool: ...
    @overload
    def is_solvable(self, states: ManyBoards) -> npt.NDArray[np.bool_]: ...
    @overload
    def is_solvable(self, states: BoardLike) -> Any: ...
    def is_solvable(self, states: BoardLike) -> Union[bool, npt.NDArray[np.bool_]]:
        """Whether each board can reach the goal (the parity rule).

        Parameters
        ----------
        states : array_like of int
            One board, ``(cells,)`` or ``(rows, cols)``, or a batch, ``(N, cells)`` or
            ``(N, rows, cols)``: any integer dtype, ``0`` the blank.

        Returns
        -------
        bool, or ndarray of bool, shape (N,)
            For one board a bool; for a batch one entry per board.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A wrong shape, a tile out of range or repeated (naming the board).

        Examples
        --------
        >>> import slidetable as st
        >>> p = st.Puzzle(3, 3)
        >>> p.is_solvable([8, 6, 7, 2, 5, 4, 3, 0, 1])
        True
        >>> p.is_solvable([[1, 2, 3, 4, 5, 6, 7, 8, 0], [2, 1, 3, 4, 5, 6, 7, 8, 0]])
        array([ True, False])
        """
        a, single = self._boards(states, np.uint16)
        r = self._p.solvable(a)
        return bool(r[0]) if single else r

    def unsolvable_reason(self, state: BoardLike) -> Optional[str]:
        """Why a board cannot reach the goal, in words; None if it can.

        Parameters
        ----------
        state : array_like of int, shape (cells,) or (rows, cols)
            One board, any integer dtype, ``0`` the blank.

        Returns
        -------
        str or None
            The parity argument that rules the board out, or None when it can reach the goal.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A wrong shape, a tile out of range or repeated, or a batch instead of one board.

        Examples
        --------
        >>> import slidetable as st
        >>> p = st.Puzzle(3, 3)
        >>> p.unsolvable_reason([8, 6, 7, 2, 5, 4, 3, 0, 1]) is None
        True
        >>> print(p.unsolvable_reason([2, 1, 3, 4, 5, 6, 7, 8, 0]))
        read row by row without the blank, its tiles are an odd permutation of the goal's; on a board with an odd number of columns every move keeps that parity, so no sequence of moves reaches the goal
        """
        r = self._p.unsolvable_reason(self._one(state))
        return None if r is None else str(r)

    def apply(self, state: BoardLike, moves: MovesLike, convention: Convention = "blank") -> Board:
        """The board after ``moves``.

        Parameters
        ----------
        state : array_like of int, shape (cells,) or (rows, cols)
            One board, any integer dtype, ``0`` the blank.
        moves : str or array_like of int
            Letters ``U D L R`` (spaces, commas and dashes between them ignored) or action
            numbers ``0 1 2 3``.
        convention : {"blank", "tile"}
            Whether the moves name the direction the blank moves (default) or the tile's.

        Returns
        -------
        ndarray, shape (cells,), dtype ``dtype``
            The board after the moves (a new array; ``state`` is not changed).

        Raises
        ------
        TypeError
            A non-integer dtype; actions of a non-integer dtype.
        ValueError
            A move that would leave the board (naming the move), a character that is not a move,
            an action outside ``0`` to ``3``, an unknown convention; a wrong shape, a tile out of
            range or repeated, or a batch instead of one board.

        Examples
        --------
        >>> import slidetable as st
        >>> p = st.Puzzle(3, 3)
        >>> p.apply([1, 2, 3, 4, 5, 6, 7, 8, 0], "UL")
        array([1, 2, 3, 4, 0, 5, 7, 8, 6], dtype=uint8)
        >>> p.apply([1, 2, 3, 4, 5, 6, 7, 8, 0], "DR", convention="tile")
        array([1, 2, 3, 4, 0, 5, 7, 8, 6], dtype=uint8)
        >>> p.apply([1, 2, 3, 4, 5, 6, 7, 8, 0], [0, 2])
        array([1, 2, 3, 4, 0, 5, 7, 8, 6], dtype=uint8)
        """
        return self._out(self._p.apply(self._one(state), _blank_moves(moves, convention)))

    @overload
    def expand(self, states: OneBoard, convention: Convention = "blank") -> _OneExpansion: ...
    @overload
    def expand(self, states: ManyBoards, convention: Convention = "blank") -> _ManyExpansions: ...
    @overload
    def expand(self, states: BoardLike, convention: Convention = "blank") -> Any: ...
    def expand(self, states: BoardLike, convention: Convention = "blank") -> tuple[np.ndarray, np.ndarray]:
        """The children of each board, one per action, and which actions are legal.

        Parameters
        ----------
        states : array_like of int
            One board, ``(cells,)`` or ``(rows, cols)``, or a batch, ``(N, cells)`` or
            ``(N, rows, cols)``: any integer dtype, ``0`` the blank.
        convention : {"blank", "tile"}
            The order of the actions: ``U D L R`` of the blank (default) or of the tile.

        Returns
        -------
        children : ndarray, shape (N, 4, cells), dtype ``dtype``
            The board after each action (``(4, cells)`` for one board). An illegal action's
            child is the board itself.
        legal : ndarray of bool, shape (N, 4)
            Whether each action is legal (``(4,)`` for one board).

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A wrong shape, a tile out of range or repeated (naming the board); an unknown
            convention.

        Examples
        --------
        >>> import slidetable as st
        >>> p = st.Puzzle(3, 3)
        >>> children, legal = p.expand([1, 2, 3, 4, 5, 6, 7, 8, 0])
        >>> children
        array([[1, 2, 3, 4, 5, 0, 7, 8, 6],
               [1, 2, 3, 4, 5, 6, 7, 8, 0],
               [1, 2, 3, 4, 5, 6, 7, 0, 8],
               [1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype=uint8)
        >>> legal
        array([ True, False,  True, False])
        >>> p.expand([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 0, 5, 6, 7, 8]], convention="tile")[1]
        array([[False,  True, False,  True],
               [ True,  True,  True,  True]])
        """
        _convention(convention)
        a, single = self._boards(states, np.uint16)
        kids, valid = self._p.expand(a)
        if convention == "tile":
            kids, valid = kids[:, _TILE_TO_BLANK], valid[:, _TILE_TO_BLANK]
        out = kids.astype(self.dtype, copy=False)
        return (out[0], valid[0]) if single else (out, valid)

    def random_walk(self, n: int, steps: int, seed: int = 0) -> Boards:
        """``n`` boards reached from the goal by ``steps`` random moves each.

        A walk never steps straight back, and is reproducible from ``seed``. The end of a walk
        can be nearer than ``steps``: for boards at an exact distance use ``Table.sample``.

        Parameters
        ----------
        n : int
            The number of boards (0 or more).
        steps : int
            The moves of each walk (0 or more; 0 gives the goal).
        seed : int
            The seed, 0 to 2**64 - 1: the same seed gives the same boards.

        Returns
        -------
        ndarray, shape (n, cells), dtype ``dtype``
            One board per walk.

        Raises
        ------
        TypeError
            ``n``, ``steps`` or ``seed`` not an integer.
        ValueError
            A negative ``n`` or ``steps``, a seed out of range.
        MemoryError
            ``n`` boards do not fit in memory.

        Examples
        --------
        >>> import slidetable as st
        >>> st.Puzzle(2, 3).random_walk(3, 5, seed=7)
        array([[4, 1, 2, 5, 0, 3],
               [2, 4, 3, 1, 0, 5],
               [4, 1, 3, 2, 0, 5]], dtype=uint8)
        """
        n, steps = _int(n, "n"), _int(steps, "steps")
        return self._p.random_walks(n, steps, _seed(seed)).astype(self.dtype, copy=False)

    def random_boards(self, n: int, seed: int = 0) -> Boards:
        """``n`` boards drawn uniformly at random from every board that can reach the goal.

        What "random boards" usually means: each of the puzzle's reachable states (half of the
        arrangements of its tiles, 181,440 on the 3x3) is equally likely, so their distances
        follow the whole state space's distribution (the 3x3's mean is 21.97 moves). No table
        is needed, on any board. A random walk (``random_walk``) is not uniform: its ends
        cluster near the goal. For boards at one exact distance use ``Table.sample``; for as
        many at each distance, ``balanced_sample``.

        The draws are independent (a small board repeats its states: the 2x2 has 12) and
        reproducible from ``seed``.

        Parameters
        ----------
        n : int
            The number of boards (0 or more).
        seed : int
            The seed, 0 to 2**64 - 1: the same seed gives the same boards (the same as
            ``table sample --uniform --seed``'s).

        Returns
        -------
        ndarray, shape (n, cells), dtype ``dtype``
            One board per row.

        Raises
        ------
        TypeError
            ``n`` or ``seed`` not an integer.
        ValueError
            A negative ``n``, a seed out of range.
        MemoryError
            ``n`` boards do not fit in memory.

        Examples
        --------
        >>> import slidetable as st
        >>> p = st.Puzzle(3, 3)
        >>> boards = p.random_boards(10_000, seed=1)
        >>> bool(p.is_solvable(boards).all())
        True
        >>> bool(21.5 < st.Table.build(p).distance(boards).mean() < 22.5)
        True
        """
        n = _int(n, "n")
        return self._p.random_boards(n, _seed(seed)).astype(self.dtype, copy=False)

    @overload
    def heuristic(self, states: OneBoard, name: HeuristicName = "manhattan") -> int: ...
    @overload
    def heuristic(self, states: ManyBoards, name: HeuristicName = "manhattan") -> npt.NDArray[np.int32]: ...
    @overload
    def heuristic(self, states: BoardLike, name: HeuristicName = "manhattan") -> Any: ...
    def heuristic(self, states: BoardLike, name: HeuristicName = "manhattan") -> Union[int, npt.NDArray[np.int32]]:
        """The estimate ``name`` of each board's distance to the goal.

        Parameters
        ----------
        states : array_like of int
            One board, ``(cells,)`` or ``(rows, cols)``, or a batch, ``(N, cells)`` or
            ``(N, rows, cols)``: any integer dtype, ``0`` the blank.
        name : {"misplaced", "hamming", "manhattan", "linear-conflict", "nilsson"}
            ``misplaced`` (h1; ``hamming`` is the same), ``manhattan`` (h2, the default),
            ``linear-conflict``, or ``nilsson`` (Nilsson's P + 3S: not admissible). The CLI's
            other spellings (``h1``, ``h2``, ``lc``) are read too at run time.

        Returns
        -------
        int, or ndarray of int32, shape (N,)
            For one board its estimate; for a batch one per board.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            An unknown heuristic; a wrong shape, a tile out of range or repeated (naming the
            board).

        Examples
        --------
        >>> import slidetable as st
        >>> p = st.Puzzle(3, 3)
        >>> p.heuristic([8, 6, 7, 2, 5, 4, 3, 0, 1])
        21
        >>> p.heuristic([[8, 6, 7, 2, 5, 4, 3, 0, 1], [1, 2, 3, 4, 5, 6, 7, 0, 8]], "linear-conflict")
        array([23,  1], dtype=int32)
        """
        a, single = self._boards(states, np.uint16)
        h = self._p.estimates(a, name).astype(np.int32)
        return int(h[0]) if single else h

    def grid(self, state: BoardLike) -> str:
        """The board drawn as a grid of rows.

        Parameters
        ----------
        state : array_like of int, shape (cells,) or (rows, cols)
            One board, any integer dtype, ``0`` the blank.

        Returns
        -------
        str
            One line per row (each ending in a newline), ``_`` the blank.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A wrong shape, a tile out of range or repeated, or a batch instead of one board.

        Examples
        --------
        >>> import slidetable as st
        >>> print(st.Puzzle(3, 3).grid([8, 6, 7, 2, 5, 4, 3, 0, 1]), end="")
        8 6 7
        2 5 4
        3 _ 1
        """
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


def parse(text: str, puzzle: Optional[Puzzle] = None) -> Board:
    """A board parsed from text; without ``puzzle``, the square board with that many tiles.

    Parameters
    ----------
    text : str
        A board in any syntax the CLI accepts (``8 6 7 2 5 4 3 0 1``, ``8,6,7/2,5,4/3,_,1``,
        ``867254301``), or the text of a COS 226 puzzle file (whose first line gives the size).
    puzzle : Puzzle, optional
        The board's puzzle (default: the square one with that many tiles, or the size a COS 226
        file gives).

    Returns
    -------
    ndarray, shape (cells,), uint8 (uint16 past 256 cells)
        The board's cells, row-major, ``0`` the blank.

    Raises
    ------
    TypeError
        ``text`` is not a string.
    ValueError
        Without ``puzzle``, a number of tiles that is not a square; a tile out of range or
        repeated, something that is not a tile; a COS 226 file of another size than ``puzzle``.

    Examples
    --------
    >>> import slidetable as st
    >>> st.parse("8 6 7 2 5 4 3 0 1")
    array([8, 6, 7, 2, 5, 4, 3, 0, 1], dtype=uint8)
    >>> st.parse("1 2 3 4 0 5", puzzle=st.Puzzle(2, 3))
    array([1, 2, 3, 4, 0, 5], dtype=uint8)
    """
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
    if given is None:
        _warn_unreachable(states, p, what, assumed=True, stacklevel=4)


def _warn_unreachable(states: BoardLike, p: Puzzle, what: str, assumed: bool, stacklevel: int = 3) -> None:
    """Warns when a board cannot reach ``p``'s goal but can reach another named one (the goal
    taken by default when ``assumed``, else the one given, as the CLI's hint does). With a goal
    given, only when no board can reach it: a batch that mixes in unsolvable boards on purpose
    is not warned about, a batch (or a board) that is all on the other side of the parity is."""
    a, _ = p._boards(states)
    unsolvable = ~np.atleast_1d(p.is_solvable(a))
    if not unsolvable.any() or (not assumed and not unsolvable.all()):
        return
    first = int(np.argmax(unsolvable))
    instead = p._p.reachable_instead([int(c) for c in a[first]])
    if not instead:
        return
    other = Puzzle(p.rows, p.cols, cast(GoalName, instead[0]))
    n, m = int(unsolvable.sum()), int(np.count_nonzero(other.is_solvable(a[unsolvable])))
    if len(a) == 1:
        boards = "the board cannot reach it but can reach"
    else:
        boards = f"{n} of the {len(a)} boards cannot reach it (the first: row {first}); {m} of those can reach"
    if assumed:
        head = f"{what}: no puzzle= was given, so the goal was taken to be {p.goal_name}"
        fix = f"pass puzzle=slidetable.Puzzle({p.rows}, {p.cols}, {instead[0]!r})"
    else:
        head = f"{what}: the goal is {p.goal_name}"
        fix = f"use slidetable.Puzzle({p.rows}, {p.cols}, {instead[0]!r})"
    warnings.warn(f"{head}; {boards} the {instead[0]} goal: {fix} if that is the one meant", UserWarning, stacklevel=stacklevel)


@overload
def is_solvable(states: OneBoard, puzzle: Optional[Puzzle] = None) -> bool: ...
@overload
def is_solvable(states: ManyBoards, puzzle: Optional[Puzzle] = None) -> npt.NDArray[np.bool_]: ...
@overload
def is_solvable(states: BoardLike, puzzle: Optional[Puzzle] = None) -> Any: ...
def is_solvable(states: BoardLike, puzzle: Optional[Puzzle] = None) -> Union[bool, npt.NDArray[np.bool_]]:
    """Whether each board can reach the goal of ``puzzle`` (the parity rule).

    Parameters
    ----------
    states : array_like of int
        One board, ``(cells,)`` or ``(rows, cols)``, or a batch, ``(N, cells)`` or
        ``(N, rows, cols)``: any integer dtype, ``0`` the blank.
    puzzle : Puzzle, optional
        The puzzle whose goal is meant (default: the square blank-last one with the boards'
        cells; a warning says so when a board cannot reach that goal but can reach another
        named one, as Korf's instances, written toward blank-first, do).

    Returns
    -------
    bool, or ndarray of bool, shape (N,)
        For one board a bool; for a batch one entry per board.

    Raises
    ------
    TypeError
        A non-integer dtype; ``puzzle`` not a ``Puzzle``.
    ValueError
        Without ``puzzle``, boards whose cells are not a square number; a wrong shape, a tile
        out of range or repeated (naming the board).

    Warns
    -----
    UserWarning
        No ``puzzle`` given, and a board that cannot reach the blank-last goal can reach another
        named goal.

    Examples
    --------
    >>> import slidetable as st
    >>> st.is_solvable([8, 6, 7, 2, 5, 4, 3, 0, 1])
    True
    >>> korf = st.instances("korf100")
    >>> st.is_solvable(korf.boards[:3], puzzle=korf.puzzle)
    array([ True,  True,  True])
    """
    p = _puzzle_of(states, puzzle)
    _warn_if_other_goal(states, p, puzzle, "is_solvable")
    return p.is_solvable(states)


def apply(state: BoardLike, moves: MovesLike, convention: Convention = "blank", puzzle: Optional[Puzzle] = None) -> Board:
    """The board after ``moves``; see ``Puzzle.apply``.

    Parameters
    ----------
    state : array_like of int, shape (cells,) or (rows, cols)
        One board, any integer dtype, ``0`` the blank.
    moves : str or array_like of int
        Letters ``U D L R`` or action numbers ``0 1 2 3``.
    convention : {"blank", "tile"}
        Whether the moves name the direction the blank moves (default) or the tile's.
    puzzle : Puzzle, optional
        The board's puzzle (default: the square blank-last one with the board's cells).

    Returns
    -------
    ndarray, shape (cells,), uint8 (uint16 past 256 cells)
        The board after the moves.

    Raises
    ------
    TypeError
        A non-integer dtype; ``puzzle`` not a ``Puzzle``.
    ValueError
        A move that would leave the board (naming the move), a character that is not a move, an
        action outside ``0`` to ``3``, an unknown convention; a board that is not square
        without ``puzzle``, a wrong shape, a tile out of range or repeated.

    Examples
    --------
    >>> import slidetable as st
    >>> st.apply([1, 2, 3, 4, 5, 6, 7, 8, 0], "UL")
    array([1, 2, 3, 4, 0, 5, 7, 8, 6], dtype=uint8)
    >>> st.apply([1, 2, 3, 4, 5, 0], "L", puzzle=st.Puzzle(2, 3))
    array([1, 2, 3, 4, 0, 5], dtype=uint8)
    """
    return _puzzle_of(state, puzzle).apply(state, moves, convention)


@overload
def expand(states: OneBoard, puzzle: Optional[Puzzle] = None, convention: Convention = "blank") -> _OneExpansion: ...
@overload
def expand(states: ManyBoards, puzzle: Optional[Puzzle] = None, convention: Convention = "blank") -> _ManyExpansions: ...
@overload
def expand(states: BoardLike, puzzle: Optional[Puzzle] = None, convention: Convention = "blank") -> Any: ...
def expand(
    states: BoardLike, puzzle: Optional[Puzzle] = None, convention: Convention = "blank"
) -> tuple[np.ndarray, np.ndarray]:
    """Children and legal-move mask of each board; see ``Puzzle.expand``.

    Parameters
    ----------
    states : array_like of int
        One board, ``(cells,)`` or ``(rows, cols)``, or a batch, ``(N, cells)`` or
        ``(N, rows, cols)``: any integer dtype, ``0`` the blank.
    puzzle : Puzzle, optional
        The boards' puzzle (default: the square blank-last one with the boards' cells).
    convention : {"blank", "tile"}
        The order of the actions: ``U D L R`` of the blank (default) or of the tile.

    Returns
    -------
    children : ndarray, shape (N, 4, cells), uint8 (uint16 past 256 cells)
        The board after each action (``(4, cells)`` for one board); an illegal action's child
        is the board itself.
    legal : ndarray of bool, shape (N, 4)
        Whether each action is legal (``(4,)`` for one board).

    Raises
    ------
    TypeError
        A non-integer dtype; ``puzzle`` not a ``Puzzle``.
    ValueError
        A board that is not square without ``puzzle``; a wrong shape, a tile out of range or
        repeated (naming the board); an unknown convention.

    Examples
    --------
    >>> import slidetable as st
    >>> children, legal = st.expand([[1, 2, 3, 4, 5, 6, 7, 8, 0]])
    >>> children.shape, legal
    ((1, 4, 9), array([[ True, False,  True, False]]))
    """
    return _puzzle_of(states, puzzle).expand(states, convention)


def random_walk(puzzle: Puzzle, n: int, steps: int, seed: int = 0) -> Boards:
    """``n`` random walks of ``steps`` moves from the goal of ``puzzle``; see ``Puzzle.random_walk``.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle whose goal the walks start from.
    n : int
        The number of boards (0 or more).
    steps : int
        The moves of each walk (0 or more; a walk never steps straight back).
    seed : int
        The seed, 0 to 2**64 - 1: the same seed gives the same boards.

    Returns
    -------
    ndarray, shape (n, cells), uint8 (uint16 past 256 cells)
        The board at the end of each walk (which can be nearer the goal than ``steps``).

    Raises
    ------
    TypeError
        ``puzzle`` not a ``Puzzle``; ``n``, ``steps`` or ``seed`` not an integer.
    ValueError
        A negative ``n`` or ``steps``, a seed out of range.
    MemoryError
        ``n`` boards do not fit in memory.

    Examples
    --------
    >>> import slidetable as st
    >>> st.random_walk(st.Puzzle(3, 3), 2, 10, seed=1)
    array([[2, 6, 0, 1, 3, 5, 4, 7, 8],
           [0, 1, 3, 7, 2, 4, 5, 8, 6]], dtype=uint8)
    """
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
    return puzzle.random_walk(n, steps, seed)


@overload
def heuristic(states: OneBoard, name: HeuristicName = "manhattan", puzzle: Optional[Puzzle] = None) -> int: ...
@overload
def heuristic(
    states: ManyBoards, name: HeuristicName = "manhattan", puzzle: Optional[Puzzle] = None
) -> npt.NDArray[np.int32]: ...
@overload
def heuristic(states: BoardLike, name: HeuristicName = "manhattan", puzzle: Optional[Puzzle] = None) -> Any: ...
def heuristic(
    states: BoardLike, name: HeuristicName = "manhattan", puzzle: Optional[Puzzle] = None
) -> Union[int, npt.NDArray[np.int32]]:
    """A classic estimate of each board's distance to the goal; see ``Puzzle.heuristic``.

    Parameters
    ----------
    states : array_like of int
        One board, ``(cells,)`` or ``(rows, cols)``, or a batch, ``(N, cells)`` or
        ``(N, rows, cols)``: any integer dtype, ``0`` the blank.
    name : {"misplaced", "hamming", "manhattan", "linear-conflict", "nilsson"}
        The estimate (default ``manhattan``), as ``Puzzle.heuristic``.
    puzzle : Puzzle, optional
        The puzzle whose goal is meant (default: the square blank-last one with the boards'
        cells; a warning says so when a board cannot reach that goal but can reach another
        named one).

    Returns
    -------
    int, or ndarray of int32, shape (N,)
        For one board its estimate; for a batch one per board.

    Raises
    ------
    TypeError
        A non-integer dtype; ``puzzle`` not a ``Puzzle``.
    ValueError
        An unknown heuristic; boards that are not square without ``puzzle``; a wrong shape, a
        tile out of range or repeated (naming the board).

    Warns
    -----
    UserWarning
        No ``puzzle`` given, and a board that cannot reach the blank-last goal can reach another
        named goal.

    Examples
    --------
    >>> import slidetable as st
    >>> st.heuristic([8, 6, 7, 2, 5, 4, 3, 0, 1])
    21
    >>> st.heuristic([[8, 6, 7, 2, 5, 4, 3, 0, 1], [1, 2, 3, 4, 5, 6, 7, 0, 8]], "misplaced")
    array([7, 1], dtype=int32)
    """
    p = _puzzle_of(states, puzzle)
    _warn_if_other_goal(states, p, puzzle, "heuristic")
    return p.heuristic(states, name)
