"""Perfect tables: one entry per state, built in memory or opened from a file."""

from __future__ import annotations

import dataclasses
import functools
import os
from typing import Any, Callable, Optional, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

from . import _core
from ._common import Board, BoardLike, Boards, Convention, HeuristicName, ManyBoards, OneBoard, _estimates_of, _int, _seed
from .conventions import _TILE_TO_BLANK, _convention, to_tile_moves
from .grading import Grade, _bytes_hold, _grade, _name_of, grade
from .puzzle import Puzzle
from .solution import Solution

__all__ = ["PartialBuild", "Table"]


@dataclasses.dataclass(frozen=True)
class PartialBuild:
    """A build stopped at its last depth (``Table.build(..., max_depth=)``, ``table build
    --max-depth``): the distribution so far, and the work directory that holds it.

    Calling the same build again (with a larger ``max_depth``, or none) goes on from it, on this
    machine or any that sees ``work_dir``; no table file is written until the search ends.

    Examples
    --------
    >>> import os, tempfile, slidetable as st
    >>> d = tempfile.mkdtemp()
    >>> part = st.Table.build(st.Puzzle(2, 4), os.path.join(d, "2x4.table"), max_depth=12, progress=False)
    >>> part.depth, part.reached, part.states, part.resumed_after
    (12, 551, 20160, None)
    >>> part.histogram()[-3:]
    array([ 85, 119, 161], dtype=uint64)
    """

    puzzle: Puzzle
    """The board and goal."""
    depth: int
    """The last depth searched."""
    reached: int
    """The states found at depths ``0..depth``."""
    states: int
    """Every state of the board (``cells! / 2``): ``reached / states`` is the part found."""
    work_dir: str
    """The work directory that holds the build."""
    resumed_after: Optional[int]
    """The depth this call went on from, when the work directory held a build of the same table."""
    disk_read: Optional[int]
    """Bytes of work files this call read (None from ``slidetable.dask.build_table``, whose
    workers' traffic is not gathered)."""
    disk_written: Optional[int]
    """Bytes of work files this call wrote (None as ``disk_read``)."""
    _histogram: tuple[int, ...] = dataclasses.field(repr=False)
    """The states at each depth (``histogram()``)."""

    def _repr_html_(self) -> str:
        from .pictures import table_html

        p = self.puzzle
        resumed = "" if self.resumed_after is None else f" (this call from depth {self.resumed_after + 1})"
        rows = [
            ("board", f"{p.rows}x{p.cols}, goal {p.goal_name}"),
            ("searched", f"depths 0 to {self.depth}{resumed}"),
            ("states found", f"{self.reached:,} of {self.states:,} ({100 * self.reached / self.states:.3g}%)"),
            ("work directory", self.work_dir),
            ("go on", "the same call with a larger max_depth, or none to finish the table"),
        ]
        return table_html(rows, "PartialBuild: a build stopped at a depth")

    def histogram(self) -> np.ndarray[tuple[int], np.dtype[np.uint64]]:
        """The states at each depth searched: the first ``depth + 1`` entries of the whole table's
        ``histogram()``.

        Returns
        -------
        ndarray of uint64, shape (depth + 1,)
            Entry ``d``: the states exactly ``d`` moves from the goal.

        Examples
        --------
        >>> import os, tempfile, slidetable as st
        >>> d = tempfile.mkdtemp()
        >>> st.Table.build(st.Puzzle(3, 3), os.path.join(d, "8.table"), max_depth=5, progress=False).histogram()
        array([ 1,  2,  4,  8, 16, 20], dtype=uint64)
        """
        return np.array(self._histogram, dtype=np.uint64)


class Table:
    """A perfect table: the exact distance of every state of a board of up to 12 cells (14 at two bits).

    ``Table.build(Puzzle(3, 3))`` builds the 8-puzzle's in a few milliseconds; ``Table.open(path)``
    memory-maps a file written by ``Table.build(..., path=...)`` or by ``table build``. Made by
    ``build`` or ``open``, not by calling the class. ``len(table)`` is its number of
    entries (the states that can reach the goal, ``cells! / 2``). A table pickles as its path
    (opened again) or, built in memory, as its puzzle (built again).

    Attributes
    ----------
    puzzle : Puzzle
        The board shape and goal the table is for.

    Examples
    --------
    >>> import slidetable as st
    >>> t = st.Table.build(st.Puzzle(3, 3))
    >>> t
    Table(Puzzle(3, 3, goal='blank-last'), entries=181440, max_depth=31)
    >>> len(t), t.distance([8, 6, 7, 2, 5, 4, 3, 0, 1])
    (181440, 31)
    """

    __slots__ = ("_t", "puzzle")

    def __init__(self, core: Any):
        self._t = core
        self.puzzle = Puzzle._from_core(core.rows, core.cols, core.goal_cells)

    @overload
    @classmethod
    def build(
        cls,
        puzzle: Puzzle,
        path: Union[str, os.PathLike[str], None] = None,
        progress: Union[bool, Callable[[dict[str, Any]], Any], None] = None,
        bits: Optional[int] = None,
        work_dir: Union[str, os.PathLike[str], None] = None,
        max_depth: None = None,
    ) -> "Table": ...

    @overload
    @classmethod
    def build(
        cls,
        puzzle: Puzzle,
        path: Union[str, os.PathLike[str], None] = None,
        progress: Union[bool, Callable[[dict[str, Any]], Any], None] = None,
        bits: Optional[int] = None,
        work_dir: Union[str, os.PathLike[str], None] = None,
        *,
        max_depth: int,
    ) -> Union["Table", PartialBuild]: ...

    @classmethod
    def build(
        cls,
        puzzle: Puzzle,
        path: Union[str, os.PathLike[str], None] = None,
        progress: Union[bool, Callable[[dict[str, Any]], Any], None] = None,
        bits: Optional[int] = None,
        work_dir: Union[str, os.PathLike[str], None] = None,
        max_depth: Optional[int] = None,
    ) -> Union["Table", PartialBuild]:
        """Builds the table by breadth-first search from the goal, in memory or into a file.

        Parameters
        ----------
        puzzle : Puzzle
            The board shape and its goal: up to 12 cells at a byte a state (3x4 has 239,500,800
            states, 12! / 2), up to 15 at two bits (the 2x7, 3x5: with ``path``).
        path : str or os.PathLike, optional
            The file to write (``table build``'s format, read by ``open`` and the CLI),
            written to a temporary file and renamed: an existing file is untouched if the build
            fails. The table returned is then that file, memory-mapped. Default: in memory. A
            two-bit table that does not fit in the memory available is then built out of core,
            in files in ``work_dir``, as ``table build`` does: a build stopped (Ctrl-C) or
            killed goes on from its last complete depth when called again the same way.
        progress : bool or callable, optional
            A bar of the states reached (``tqdm.auto``: a widget in Jupyter, text in a
            terminal) once the build has run a second (the default, None); ``True`` from the
            start; ``False`` none; or a function called after each depth with a dict: ``depth``,
            ``level_states``, ``reached``, ``total``, ``seconds`` (a build resumed from its work
            directory calls it first with ``{"resumed": depth, "reached": states}``, as
            ``slidetable.dask.build_table`` does, and its bar starts at the states found
            before). Without tqdm installed, no bar.
        bits : int, optional
            Bits a state: 8 (the distance itself) or 2 (the distance modulo 3, a quarter of the
            size; ``table build --bits``). Default: 8 up to 12 cells, 2 past them.
        work_dir : str or os.PathLike, optional
            Where an out-of-core build keeps its work files (``table build --work-dir``).
            Default: ``path`` with ``.work`` added.
        max_depth : int, optional
            Stop the search after this depth (``table build --max-depth``; needs ``path``): the
            build runs out of core at two bits a state whatever the memory, keeps its levels in
            ``work_dir`` and returns a ``PartialBuild`` (the distribution so far) instead of a
            table. The same call with a larger ``max_depth``, or none, goes on from there. A
            ``max_depth`` at or past the board's deepest level gives the table.

        Returns
        -------
        Table or PartialBuild
            The table, ``path`` set if it was written to a file; a ``PartialBuild`` when the
            search stopped at ``max_depth``.

        Raises
        ------
        TypeError
            ``puzzle`` not a ``Puzzle``; ``max_depth`` not a whole number.
        ValueError
            A board of more than 15 cells (the message lists the shapes that have tables); a
            table whose memory or disk will not do (the message says what it needs);
            ``max_depth`` negative, without ``path``, with ``bits=8``, or for a board of fewer
            than 5 cells; a work directory that holds a build of another board or goal.
        OSError
            ``path`` cannot be written (``FileNotFoundError`` for a missing directory, ...).
        KeyboardInterrupt
            Ctrl-C: the build stops after the depth in progress (the file is not written; an
            old one stays as it was).
        Exception
            Whatever ``progress`` raises, which stops the build the same way.

        Examples
        --------
        >>> import os, tempfile, slidetable as st
        >>> st.Table.build(st.Puzzle(2, 3))
        Table(Puzzle(2, 3, goal='blank-last'), entries=360, max_depth=21)
        >>> depths = []
        >>> t = st.Table.build(st.Puzzle(2, 3), progress=lambda p: depths.append(p["depth"]))
        >>> depths[-1]
        21
        >>> with tempfile.TemporaryDirectory() as d:
        ...     t = st.Table.build(st.Puzzle(2, 3), os.path.join(d, "2x3.table"))
        ...     print(os.path.basename(t.path), t.distance([4, 1, 2, 5, 0, 3]))
        2x3.table 5

        Stopped at a depth, then gone on with to the end:

        >>> with tempfile.TemporaryDirectory() as d:
        ...     part = st.Table.build(st.Puzzle(3, 3), os.path.join(d, "8.table"), max_depth=10, progress=False)
        ...     print(part.depth, part.reached, part.histogram()[-1])
        ...     t = st.Table.build(st.Puzzle(3, 3), os.path.join(d, "8.table"), progress=False)
        ...     print(t.max_depth, t.histogram()[10])
        10 706 286
        31 286
        """
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        if bits is not None and bits not in (2, 8):
            raise ValueError(f"bits={bits!r}: a table has 8 bits a state or 2")
        if work_dir is not None and path is None:
            raise ValueError("work_dir= is for a build into a file: give path= too")
        if max_depth is not None:
            if isinstance(max_depth, bool) or not isinstance(max_depth, (int, np.integer)):
                raise TypeError(f"max_depth={max_depth!r}: give a depth, a whole number from 0 to 2**32 - 1")
            if not 0 <= max_depth < 2**32:
                raise ValueError(f"max_depth={max_depth!r}: give a depth, a whole number from 0 to 2**32 - 1")
            if path is None:
                raise ValueError("max_depth= stops a build into a file, kept in its work directory: give path= too")
            if bits == 8:
                raise ValueError("max_depth= builds out of core, at two bits a state: leave out bits=8")
            max_depth = int(max_depth)
        from ._progress import Levels

        with Levels(progress, f"{puzzle.rows}x{puzzle.cols} table") as levels:
            made = _core.Table.build(
                puzzle._p,
                None if path is None else os.fspath(path),
                levels,
                bits,
                None if work_dir is None else os.fspath(work_dir),
                max_depth,
            )
        if isinstance(made, dict):
            return PartialBuild(
                puzzle=puzzle,
                depth=made["depth"],
                reached=made["reached"],
                states=made["states"],
                work_dir=made["work_dir"],
                resumed_after=made["resumed_after"],
                disk_read=made["disk_read"],
                disk_written=made["disk_written"],
                _histogram=tuple(made["histogram"]),
            )
        return cls(made)

    @classmethod
    def open(cls, path: Union[str, os.PathLike[str]], mmap: bool = True) -> "Table":
        """Opens a table file with the CLI's checks on open.

        The header is checked, and the checksum of tables up to the size ``table`` checks on
        open; ``verify`` checks every entry.

        Parameters
        ----------
        path : str or os.PathLike
            The table file (``eight.table``, ``3x4.table``, ...), written by ``build`` or by
            ``table build``.
        mmap : bool
            ``True`` (default): memory-mapped, no copy, shared with other processes through the
            page cache. A mapped file must not be truncated by another program while it is
            open: a read past its new end is a bus error (SIGBUS) that ends the interpreter, and
            no Python code can catch it. ``False``: read into memory (one copy per process),
            safe whatever happens to the file afterwards.

        Returns
        -------
        Table
            The table, with ``path`` set.

        Raises
        ------
        FileNotFoundError, PermissionError, IsADirectoryError
            The file cannot be opened (a directory is named as such).
        slidetable.TableError
            The file is not a table, is damaged or truncated (a ``ValueError``).
        TypeError
            ``mmap`` not True or False.

        Examples
        --------
        >>> import os, tempfile, slidetable as st
        >>> with tempfile.TemporaryDirectory() as d:
        ...     path = os.path.join(d, "eight.table")
        ...     _ = st.Table.build(st.Puzzle(3, 3), path)
        ...     st.Table.open(path, mmap=False).distance([8, 6, 7, 2, 5, 4, 3, 0, 1])
        31
        """
        if not isinstance(mmap, bool):
            raise TypeError(f"mmap must be True or False, not {type(mmap).__name__}")
        return cls(_core.Table.open(os.fspath(path), mmap))

    @property
    def path(self) -> Optional[str]:
        """The file the table was opened from or built into (str); None for a table in memory."""
        return self._t.path

    @property
    def max_depth(self) -> int:
        """The largest distance in the table (int): 31 for the 8-puzzle, 21 for 2x3."""
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

    def _repr_html_(self) -> str:
        from .pictures import table_html

        p = self.puzzle
        rows = [
            ("board", f"{p.rows}x{p.cols}, goal {p.goal_name}"),
            ("states", f"{len(self):,}"),
            ("farthest", f"{self.max_depth} moves"),
            ("file", str(self.path) if self.path else "built in memory"),
        ]
        return table_html(rows, "Table: the exact distance of every state")

    def _boards(self, states: BoardLike) -> tuple[np.ndarray, bool]:
        return self.puzzle._boards(states, np.uint8)

    @overload
    def distance(self, states: OneBoard) -> Optional[int]: ...
    @overload
    def distance(self, states: ManyBoards) -> npt.NDArray[np.int16]: ...
    @overload
    def distance(self, states: BoardLike) -> Any: ...
    def distance(self, states: BoardLike) -> Union[int, None, npt.NDArray[np.int16]]:
        """The exact distance of each board: the fewest moves to the goal.

        Parameters
        ----------
        states : array_like of int
            One board, ``(cells,)`` or ``(rows, cols)``, or a batch, ``(N, cells)`` or
            ``(N, rows, cols)``: any integer dtype, ``0`` the blank.

        Returns
        -------
        int or None, or ndarray of int16, shape (N,)
            For one board its distance, or None if it cannot reach the goal; for a batch an
            array with ``UNSOLVABLE`` (-1) for each board that cannot.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A wrong shape, a tile out of range or repeated (naming the board).

        Examples
        --------
        >>> import slidetable as st
        >>> t = st.Table.build(st.Puzzle(3, 3))
        >>> t.distance([8, 6, 7, 2, 5, 4, 3, 0, 1])
        31
        >>> t.distance([[1, 2, 3, 4, 5, 6, 7, 0, 8], [2, 1, 3, 4, 5, 6, 7, 8, 0]])
        array([ 1, -1], dtype=int16)
        """
        a, single = self._boards(states)
        d = self._t.distances(a)
        if single:
            return None if d[0] < 0 else int(d[0])
        return d

    @overload
    def optimal_moves(self, states: OneBoard, convention: Convention = "blank") -> np.ndarray[tuple[int], np.dtype[np.bool_]]: ...
    @overload
    def optimal_moves(
        self, states: ManyBoards, convention: Convention = "blank"
    ) -> np.ndarray[tuple[int, int], np.dtype[np.bool_]]: ...
    @overload
    def optimal_moves(self, states: BoardLike, convention: Convention = "blank") -> npt.NDArray[np.bool_]: ...
    def optimal_moves(self, states: BoardLike, convention: Convention = "blank") -> npt.NDArray[np.bool_]:
        """Which actions lead one step closer to the goal: the labels of an optimal policy.

        Parameters
        ----------
        states : array_like of int
            One board, ``(cells,)`` or ``(rows, cols)``, or a batch, ``(N, cells)`` or
            ``(N, rows, cols)``: any integer dtype, ``0`` the blank.
        convention : {"blank", "tile"}
            The order of the columns, actions ``U D L R`` (``0 1 2 3``): the direction the blank
            moves (default) or the tile's.

        Returns
        -------
        ndarray of bool, shape (4,) or (N, 4)
            True for each action to a board one move nearer the goal (several where there are
            several optimal moves); all False at the goal and for boards that cannot reach it.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A wrong shape, a tile out of range or repeated (naming the board); an unknown
            ``convention``.

        Examples
        --------
        >>> import slidetable as st
        >>> t = st.Table.build(st.Puzzle(3, 3))
        >>> t.optimal_moves([1, 2, 3, 4, 5, 6, 7, 0, 8])  # the blank moves right
        array([False, False, False,  True])
        >>> t.optimal_moves([1, 2, 3, 4, 5, 6, 7, 0, 8], convention="tile")  # the 8 moves left
        array([False, False,  True, False])
        >>> t.optimal_moves([[1, 2, 3, 4, 5, 6, 0, 7, 8], [1, 2, 3, 4, 5, 6, 7, 8, 0]])
        array([[False, False, False,  True],
               [False, False, False, False]])
        """
        _convention(convention)
        a, single = self._boards(states)
        m = self._t.optimal_moves(a)
        if convention == "tile":
            m = m[:, _TILE_TO_BLANK]
        return m[0] if single else m

    def solve(self, state: BoardLike, convention: Convention = "blank") -> Optional[Solution]:
        """An optimal solution by hill-climbing down the table (no search).

        Parameters
        ----------
        state : array_like of int
            One board, ``(cells,)`` or ``(rows, cols)``: any integer dtype, ``0`` the blank.
        convention : {"blank", "tile"}
            The convention of the moves: the direction the blank moves (default) or the tile's.

        Returns
        -------
        Solution or None
            An optimal solution (``optimal`` True, ``algorithm`` and ``heuristic`` ``"table"``,
            no nodes generated); None if the board cannot reach the goal.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A batch, a wrong shape, a tile out of range or repeated; an unknown ``convention``.

        Examples
        --------
        >>> import slidetable as st
        >>> t = st.Table.build(st.Puzzle(3, 3))
        >>> s = t.solve([8, 6, 7, 2, 5, 4, 3, 0, 1])
        >>> s.length, s.optimal, s.moves
        (31, True, 'UULDDRRUULDLDRRUULDLDRRUULLDDRR')
        >>> t.solve([1, 2, 3, 4, 5, 6, 7, 0, 8], convention="tile").moves
        'L'
        >>> t.solve([2, 1, 3, 4, 5, 6, 7, 8, 0]) is None
        True
        """
        _convention(convention)
        cells = self.puzzle._one(state)
        moves = self._t.solve(cells)
        if moves is None:
            return None
        moves = to_tile_moves(moves) if convention == "tile" else moves
        return Solution(
            moves, convention, len(moves), True, 0, 0, 0.0, "table", "table", goal=self.puzzle.goal_name,
            optimal_length=len(moves), start=self.puzzle._out(cells), puzzle=self.puzzle,
        )

    def count_solutions(self, state: BoardLike) -> Optional[int]:
        """The number of distinct optimal solutions of one board.

        Parameters
        ----------
        state : array_like of int
            One board, ``(cells,)`` or ``(rows, cols)``: any integer dtype, ``0`` the blank.

        Returns
        -------
        int or None
            The number of distinct move sequences of the optimal length (an exact Python int,
            however large); 1 at the goal; None if the board cannot reach the goal.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A batch, a wrong shape, a tile out of range or repeated.

        Examples
        --------
        >>> import slidetable as st
        >>> t = st.Table.build(st.Puzzle(3, 3))
        >>> t.count_solutions([8, 6, 7, 2, 5, 4, 3, 0, 1])
        40
        >>> t.count_solutions([2, 1, 3, 4, 5, 6, 7, 8, 0]) is None
        True
        """
        c = self._t.count_solutions(self.puzzle._one(state))
        return None if c is None else int(c[1])

    def sample(self, depth: int, count: int, seed: int = 1) -> Boards:
        """Distinct boards drawn uniformly from those exactly ``depth`` moves from the goal.

        Parameters
        ----------
        depth : int
            The distance of every board drawn (0 to ``max_depth``).
        count : int
            How many: at most the number of states at ``depth`` (``histogram``).
        seed : int
            The same seed gives the same boards (as ``table sample --seed``): 0 to 2**64 - 1.

        Returns
        -------
        ndarray of uint8, shape (count, cells)
            The boards, in random order, no two the same.

        Raises
        ------
        TypeError
            ``depth``, ``count`` or ``seed`` not an integer.
        ValueError
            A negative number, a seed past 2**64 - 1, more boards than ``depth`` holds (the
            message says how many it does).

        Examples
        --------
        >>> import slidetable as st
        >>> t = st.Table.build(st.Puzzle(3, 3))
        >>> t.sample(31, 2, seed=1)
        array([[6, 4, 7, 8, 5, 0, 3, 2, 1],
               [8, 6, 7, 2, 5, 4, 3, 0, 1]], dtype=uint8)
        >>> int(t.distance(t.sample(20, 1000)).min())
        20
        """
        depth, count = _int(depth, "depth"), _int(count, "count")
        if depth > self.max_depth:
            raise ValueError(f"no states at depth {depth}: the deepest are at depth {self.max_depth}")
        return self._t.sample(depth, count, _seed(seed)).astype(self.puzzle.dtype, copy=False)

    def histogram(self) -> np.ndarray[tuple[int], np.dtype[np.uint64]]:
        """The number of states at each distance (figure 3 of the 1987 report for the 8-puzzle).

        Returns
        -------
        ndarray of uint64, shape (max_depth + 1,)
            Entry ``d``: the states exactly ``d`` moves from the goal; they add up to ``len(table)``.

        Examples
        --------
        >>> import slidetable as st
        >>> h = st.Table.build(st.Puzzle(3, 3)).histogram()
        >>> h[:6], h[-3:], int(h.sum())
        (array([ 1,  2,  4,  8, 16, 20], dtype=uint64), array([760, 221,   2], dtype=uint64), 181440)
        """
        return np.array(self._t.histogram(), dtype=np.uint64)

    def verify(self) -> None:
        """Checks every entry against the distance function, as ``table verify`` does.

        The checksum of the entries is checked first; then every state's entry against its
        neighbours' (on every core), and the header's histogram against the entries.

        Raises
        ------
        slidetable.TableError
            The checksum or the histogram does not match, or an entry is wrong (the message
            names the first).

        Examples
        --------
        >>> import slidetable as st
        >>> st.Table.build(st.Puzzle(3, 3)).verify()  # returns None, or raises
        """
        self._t.verify()

    @overload
    def rank(self, states: OneBoard) -> Optional[int]: ...
    @overload
    def rank(self, states: ManyBoards) -> npt.NDArray[np.int64]: ...
    @overload
    def rank(self, states: BoardLike) -> Any: ...
    def rank(self, states: BoardLike) -> Union[int, None, npt.NDArray[np.int64]]:
        """Each board's index in the table: where its entry is (``unrank`` is the inverse).

        Parameters
        ----------
        states : array_like of int
            One board, ``(cells,)`` or ``(rows, cols)``, or a batch, ``(N, cells)`` or
            ``(N, rows, cols)``: any integer dtype, ``0`` the blank.

        Returns
        -------
        int or None, or ndarray of int64, shape (N,)
            For one board its index (0 to ``len(table) - 1``), or None if it cannot reach the
            goal; for a batch an array with ``UNSOLVABLE`` (-1) for each board that cannot.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A wrong shape, a tile out of range or repeated (naming the board).

        Examples
        --------
        >>> import slidetable as st
        >>> t = st.Table.build(st.Puzzle(3, 3))
        >>> t.rank([1, 2, 3, 4, 5, 6, 7, 8, 0])
        161280
        >>> t.rank([[1, 2, 3, 4, 5, 6, 7, 8, 0], [2, 1, 3, 4, 5, 6, 7, 8, 0]])
        array([161280,     -1])
        >>> int(t.as_array()[t.rank([8, 6, 7, 2, 5, 4, 3, 0, 1])])  # a byte table's entry: the distance
        31
        """
        a, single = self._boards(states)
        r = self._t.ranks(a)
        if single:
            return None if r[0] < 0 else int(r[0])
        return r

    @overload
    def unrank(self, indices: Union[int, np.integer[Any]]) -> Board: ...
    @overload
    def unrank(self, indices: Union[Sequence[int], np.ndarray[tuple[int], np.dtype[Any]]]) -> Boards: ...
    @overload
    def unrank(self, indices: npt.ArrayLike) -> Any: ...
    def unrank(self, indices: npt.ArrayLike) -> npt.NDArray[Any]:
        """The boards at the given indices of the table (the inverse of ``rank``).

        Parameters
        ----------
        indices : int or array_like of int, any shape
            Indices from 0 to ``len(table) - 1``, of any integer dtype.

        Returns
        -------
        ndarray of uint8, shape (cells,) or indices.shape + (cells,)
            One board for one index; for an array of indices, a board for each.

        Raises
        ------
        TypeError
            Indices that are not integers.
        ValueError
            An index out of range (the message gives the range).

        Examples
        --------
        >>> import slidetable as st
        >>> t = st.Table.build(st.Puzzle(3, 3))
        >>> t.unrank(161280)
        array([1, 2, 3, 4, 5, 6, 7, 8, 0], dtype=uint8)
        >>> t.unrank([0, 161280])
        array([[0, 1, 2, 3, 4, 5, 6, 7, 8],
               [1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype=uint8)
        >>> t.unrank(np.arange(6).reshape(2, 3)).shape
        (2, 3, 9)
        """
        i = np.asarray(indices)
        if i.size == 0:
            i = i.astype(np.uint64)
        if i.dtype.kind not in "iu":
            raise TypeError(f"indices must be integers, not {i.dtype}")
        if i.size and i.min() < 0:
            raise ValueError(f"index {int(i.min())} is out of range: the table has indices 0 to {len(self) - 1}")
        boards = self._t.unrank(np.require(i.ravel(), dtype=np.uint64, requirements=["C", "A"]))
        return boards[0] if i.ndim == 0 else boards.reshape(i.shape + (self.puzzle.cells,))

    @property
    def bits(self) -> int:
        """Bits a state: 8 (a byte, the distance itself) or 2 (the distance modulo 3, as ``table
        build --bits 2`` writes, the default for 2x7 and 7x2; distances are found by walking
        down to the goal)."""
        return 8 if np.frombuffer(self._t, dtype=np.uint8).size == len(self) else 2

    def plot(self, log: bool = False, ax: Any = None) -> Any:
        """The states at each distance as bars, with matplotlib (``slidetable.plots.distribution``).

        Parameters
        ----------
        log : bool
            A log scale for the counts.
        ax : matplotlib Axes, optional
            Where to draw; default a new figure's.

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn into.

        Raises
        ------
        ImportError
            matplotlib is not installed (``pip install matplotlib``, or ``slidetable[plot]``).

        Examples
        --------
        >>> import slidetable as st, matplotlib
        >>> matplotlib.use("Agg")
        >>> st.Table.build(st.Puzzle(2, 3)).plot().get_xlabel()
        'distance from the goal (moves)'
        """
        from .plots import distribution

        return distribution(self, log, ax)

    def as_array(self) -> np.ndarray[tuple[int], np.dtype[np.uint8]]:
        """The entries as stored: a read-only view of the table's own memory.

        No copy; the table stays open while the view lives. In a byte table (:attr:`bits` 8)
        entry ``table.rank(board)`` is the board's distance. In a two-bit table (``bits`` 2)
        four states share a byte: state ``i``'s code is ``(a[i // 4] >> (2 * (i % 4))) & 3``,
        the distance modulo 3 (3 never occurs in a finished table; the last byte's unused bits
        are 0), as docs/formats.md describes.

        Returns
        -------
        ndarray of uint8, shape (len(table),), or (ceil(len(table) / 4),) for two bits
            Read-only.

        Examples
        --------
        >>> import slidetable as st
        >>> a = st.Table.build(st.Puzzle(3, 3)).as_array()
        >>> a.shape, a.dtype, a.flags.writeable, int(a.max())
        ((181440,), dtype('uint8'), False, 31)
        """
        return np.frombuffer(self._t, dtype=np.uint8)

    def grade(
        self,
        h: Union[HeuristicName, Callable[[Boards], npt.ArrayLike]],
        batch_size: int = 65536,
        states: Optional[BoardLike] = None,
        progress: Union[bool, Callable[[int, int], Any], None] = None,
        name: Optional[str] = None,
    ) -> Grade:
        """Grades a heuristic against this table's exact distances.

        On every state and every edge, as ``table heuristic`` does, or on the given ``states``
        and their moves (see ``Grade`` for the measures).

        Parameters
        ----------
        h : str or callable
            A name (``misplaced``, ``hamming`` the same, ``manhattan``, ``linear-conflict``,
            ``nilsson``) or a function of a batch of boards, ``(B, cells)`` uint8 in, ``B``
            numbers out (a learned heuristic; ``(B, 1)`` is accepted). Fractions are graded as
            given (not rounded).
        batch_size : int
            Boards per call of a function ``h`` (at least 1).
        states : array_like of int, optional
            Boards ``(N, cells)`` or ``(N, rows, cols)`` to grade instead of every state (a
            held-out set); see ``grade``.
        progress : bool or callable, optional
            Grading every state (a name: about 45 s on the 2x6's 239,500,800 on 2 cores; a
            network: minutes): a bar of the states done (``tqdm.auto``) once it has run a
            second (the default, None); ``True`` from the start; ``False`` none; or a function
            called with ``(states done, states)`` (a name's grade goes over every state twice,
            estimating then grading: each pass counts half). With ``states``, as ``grade``'s.
        name : str, optional
            The grade's name (in its summary, plots and frames): by default the heuristic's
            name, or a function's ``__name__`` (every lambda's is ``<lambda>``).

        Returns
        -------
        Grade
            The measures, in total and per depth (``scope`` ``"table"``, or ``"boards"`` with
            ``states``).

        Raises
        ------
        ValueError
            An unknown name; ``h`` returning the wrong shape, or NaN or infinity (naming the
            state or board); a bad or unsolvable board in ``states``; ``batch_size`` below 1;
            no ``states`` on a two-bit table past 12 cells (the 2x7: every distance at once
            would take 43.6 GB; grade a sample).
        TypeError
            ``h`` neither a name nor callable, or returning something that is not numbers;
            ``batch_size`` not an integer.
        Exception
            Whatever a function ``h`` raises.

        Examples
        --------
        >>> import slidetable as st
        >>> t = st.Table.build(st.Puzzle(3, 3))
        >>> g = t.grade("misplaced")
        >>> g.admissible, g.total_mae > 0, g.total_mean_error > 0  # h* - h > 0: it underestimates
        (True, True, True)
        >>> import numpy as np
        >>> def zero(boards):
        ...     return np.zeros(len(boards))
        >>> t = st.Table.build(st.Puzzle(2, 3))
        >>> t.grade(zero)
        Grade('zero' on all 360 states of the table: MAE 12.622, RMSE 13.272, h*-h +12.622, under/over/exact 99.7%/0.0%/0.3%, policy 52.3%, admissible, consistent)
        >>> t.grade(zero, states=t.sample(15, 20)).total_states
        20
        """
        from ._progress import check

        if name is not None:
            if not isinstance(name, str) or not name:
                raise TypeError(f"name must be a non-empty string, not {name!r}")
            return dataclasses.replace(self.grade(h, batch_size, states, progress), name=name)
        check(progress)
        batch_size = _int(batch_size, "batch_size", 1)
        if states is not None:
            return grade(h, states, table=self, batch_size=batch_size, progress=progress)
        cells = self.puzzle.rows * self.puzzle.cols
        if self.bits == 2 and cells > 12:
            raise ValueError(
                f"grading every state of the {self.puzzle.rows}x{self.puzzle.cols} table needs every distance at "
                f"once ({len(self):,} bytes of memory): a two-bit table past 12 cells answers board by board; "
                "grade a sample instead, e.g. states=table.sample(60, 10_000)"
            )
        if isinstance(h, str):
            from ._progress import Count

            with Count(progress, f"{self.puzzle.rows}x{self.puzzle.cols} grading {h}", " states") as bar:
                # two passes over every state (the estimates, then the grade): each counts half
                d = self._t.grade(h, lambda done, total: bar(done // 2, total // 2))
            return _grade(h, d, d["at_goal"])
        if not callable(h):
            raise TypeError("h must be a heuristic name or a function of a batch of boards")
        batch_size = _int(batch_size, "batch_size", 1)
        n = len(self)
        # whole numbers from 0 to 254 (every classic heuristic, a rounded network) take a byte a
        # state; fractions are kept as float64 up to 2^24 states and float32 above (4 bytes a
        # state: 1 GB for 12 cells, where float64 would be 2)
        est: np.ndarray = np.empty(n, dtype=np.uint8)
        from ._progress import Count

        with Count(progress, f"{self.puzzle.rows}x{self.puzzle.cols} grading {_name_of(h)}", " states") as bar:
            for start in range(0, n, batch_size):
                stop = min(n, start + batch_size)
                boards = self.unrank(np.arange(start, stop, dtype=np.uint64))
                v = _estimates_of(h(boards), stop - start)
                if est.dtype == np.uint8 and not _bytes_hold(v):
                    est = est.astype(np.float64 if n <= 1 << 24 else np.float32)
                est[start:stop] = v
                bar(stop, n)
        at_goal = _estimates_of(h(self.puzzle.goal[None, :].astype(np.uint8)), 1)[0]
        return _grade(_name_of(h), self._t.grade_estimates(est), float(at_goal))


@functools.lru_cache(maxsize=8)
def _memory_table(puzzle: "Puzzle") -> "Table":
    """One in-memory perfect table per shape and goal in this process, for the small boards
    (up to 10 cells: milliseconds to build) whose exact distances are had on the spot: optimal
    lengths, grading, labelled walks, the Gymnasium environments."""
    return Table.build(puzzle)
