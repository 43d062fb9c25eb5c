"""Perfect tables: one entry per state, built in memory or opened from a file."""

from __future__ import annotations

import functools
import os
from typing import Any, Callable, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._common import BoardLike, _int, _seed
from .conventions import _TILE_TO_BLANK, _convention, to_tile_moves
from .grading import Grade, _bytes_hold, _estimates, _grade, _name_of, grade
from .puzzle import Puzzle
from .solution import Solution


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


@functools.lru_cache(maxsize=8)
def _memory_table(puzzle: "Puzzle") -> "Table":
    """One in-memory perfect table per shape and goal in this process, for the small boards
    (up to 10 cells: milliseconds to build) whose exact distances are had on the spot: optimal
    lengths, grading, labelled walks, the Gymnasium environments."""
    return Table.build(puzzle)
