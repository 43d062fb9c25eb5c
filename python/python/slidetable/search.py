"""Pattern tables and search: additive pattern databases, and the Solver that searches with them or with any heuristic."""

from __future__ import annotations

import math
import os
import time
from typing import Any, Callable, Optional, Union, overload

import numpy as np
import numpy.typing as npt

from . import _core
from ._common import (
    FAILED,
    UNSOLVABLE,
    Algorithm,
    BoardLike,
    Convention,
    ManyBoards,
    OneBoard,
    SearchHeuristic,
    _estimates_of,
    _int,
    _opt_int,
)
from ._core import SearchLimitError
from .conventions import _convention, to_tile_moves
from .puzzle import Puzzle, _puzzle_of, _warn_unreachable
from .solution import BatchResult, Solution
from .table import _memory_table


class PatternDB:
    """Additive pattern databases for a puzzle: for each group of a partition of the tiles, the
    fewest moves that bring the group home; their sum (and, on square boards, the sum for the
    board reflected about the diagonal) is an admissible estimate.

    ``PatternDB.load(Puzzle(4, 4), "7-8", dir="tables")`` loads the 7-8 tables from ``tables/``;
    small missing tables (``auto``, ``6-6-3``, ``5-5-5``) are built there on the spot.
    ``PatternDB.build(Puzzle(4, 4, "blank-first"), "7-8", dir="tables")`` builds any partition or
    catalogue the ``table build --pattern`` command builds, into the same files. Made by
    ``load`` or ``build``, not by calling the class; a ``Solver`` takes one as its
    ``heuristic``. It pickles as the arguments it was loaded with (a Dask worker or a subprocess
    loads the files again).

    Examples
    --------
    >>> import tempfile, slidetable as st
    >>> p = st.Puzzle(3, 3)
    >>> with tempfile.TemporaryDirectory() as d:
    ...     db = st.PatternDB.load(p, "1,2,3,4/5,6,7,8", dir=d)  # small tables: built on the spot
    >>> db.groups, int(db.h([8, 6, 7, 2, 5, 4, 3, 0, 1]))
    ([[1, 2, 3, 4], [5, 6, 7, 8]], 29)
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
        """Loads the pattern tables of ``partition`` from ``dir``, building small missing ones.

        Parameters
        ----------
        puzzle : Puzzle
            The board shape and goal the tables are for.
        partition : str
            A name (``auto``; 4x4 ``5-5-5``, ``6-6-3``, ``7-8``; 5x5 ``6-6-6-6``; see
            ``partitions``) or groups of tiles, ``"1,2,3/4,5,6,7"``.
        dir : str or os.PathLike
            The existing directory the table files are in (and small missing ones written to).
        build_missing : bool
            Build a missing table on the spot when it is small (up to about a minute: ``auto``,
            ``6-6-3``, ``5-5-5``); a large missing one (``7-8``) is an error naming the
            ``build`` call that makes it.
        reflect : bool
            Allow the reflected lookup (square boards whose goal has the blank on the
            diagonal): the larger of the board's sum and its mirror image's.
        notice : callable, optional
            Called with each line the CLI would print on stderr (a table being built, a hint).
        share : bool
            Keep the tables as the files' memory mappings instead of private copies: processes
            on one machine then share one copy (lookups are somewhat slower).

        Returns
        -------
        PatternDB

        Raises
        ------
        TypeError
            ``puzzle`` is not a ``Puzzle``.
        ValueError
            A partition that does not parse, or is not a partition of this board's tiles; a
            missing table too large to build here (the message names the ``build`` call).
        FileNotFoundError, NotADirectoryError
            ``dir`` is not a directory.
        TableError
            A table file that is damaged, or is another group's or goal's table.

        Examples
        --------
        >>> import tempfile, slidetable as st
        >>> p = st.Puzzle(3, 3)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     db = st.PatternDB.load(p, "1,2,3,4/5,6,7,8", dir=d)
        ...     again = st.PatternDB.load(p, "1,2,3,4/5,6,7,8", dir=d, build_missing=False)
        >>> again.partition, int(again.h(p.goal))
        ('1,2,3,4/5,6,7,8', 0)
        """
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
        progress: Union[bool, Callable[[dict], Any], None] = None,
        reflect: bool = True,
        share: bool = False,
    ) -> "PatternDB":
        """Builds the pattern tables of ``partition`` into ``dir`` and loads them.

        The same build and the same files as ``table build --pattern``: one file per group of
        tiles (a group that a mirror or rotation of the board maps onto an earlier group is
        looked up in that group's table and gets none of its own), named as ``load`` and
        ``Solver`` look for them, each written to a temporary file and renamed into place,
        so an interrupted build never leaves a partial table under a table's name. Existing
        tables of the same names are replaced.

        Parameters
        ----------
        puzzle : Puzzle
            The board shape and goal.
        partition : str
            A named partition or catalogue (``partitions`` lists them: 4x4 ``5-5-5``,
            ``6-6-3``, ``7-8``; 5x5 ``6-6-6-6``, ``small-t``...), ``auto``, groups of tiles
            (``"1,2,3/4,5,6,7"``), or partitions joined by ``+`` (a catalogue: the estimate is
            the largest of their sums, a group shared by several is built once).
        dir : str or os.PathLike
            The existing directory the tables are written to.
        zero : bool or {"bits", "bytes"}
            Zero-aware tables (an entry per placement and region of the blank; never below the
            classic entry, often above): ``True`` or ``"bits"`` one bit an entry, ``"bytes"``
            the distance itself. ``load`` prefers them when both kinds are present.
        progress : bool or callable, optional
            A bar per table of the states reached (``tqdm.auto``) once the build has run a
            second (the default, None); ``True`` from the start; ``False`` none; or a function
            called after each depth of each table with a dict: ``table`` (from 1) of
            ``tables``, ``tiles``, ``depth``, ``level_states``, ``reached``, ``total`` (an
            upper bound on the states), ``seconds`` (of this table). An exception it raises
            stops the build and is raised here.
        reflect
            As ``load``.
        share
            As ``load``.

        Returns
        -------
        PatternDB
            The tables built, loaded.

        Raises
        ------
        TypeError
            ``puzzle`` is not a ``Puzzle``, ``partition`` not a string, ``progress`` not callable.
        ValueError
            A partition that does not parse or whose largest table would not fit in memory; a
            ``zero`` that is not one of the values above.
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
        from ._progress import Levels

        levels = Levels(progress, f"{puzzle.rows}x{puzzle.cols} pattern tables {partition}")
        if zero is False or zero is None:
            bits: Optional[bool] = None
        elif zero is True or zero == "bits":
            bits = True
        elif zero == "bytes":
            bits = False
        else:
            raise ValueError(f"zero={zero!r}: give False, True (one bit an entry), 'bits' or 'bytes'")
        path = _dir(dir)
        with levels:
            _core.build_patterns(puzzle._p, partition, path, bits, levels)
        return cls.load(puzzle, partition, dir, build_missing=False, reflect=reflect, share=share)

    @staticmethod
    def build_pruner(
        puzzle: Puzzle,
        length: int,
        dir: Union[str, os.PathLike] = ".",
        progress: Union[bool, Callable[[int, int], Any], None] = None,
    ) -> str:
        """Makes the move-pruning machine of ``puzzle``'s board shape for strings of up to
        ``length`` moves (every string with a shorter or equal-but-earlier equivalent is never
        searched), as ``table build --prune``, and writes it into ``dir``, where a
        ``Solver`` given ``prune=length`` and that ``dir`` finds it. Machines of up to 12
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
        progress : bool or callable, optional
            By default a ``tqdm`` bar of the board's cells done (each cell's strings are found
            in turn, two at a time on two cores) shows once the call has run a second;
            ``True`` shows it at once, ``False`` shows nothing, and a function is called as
            ``progress(cells_done, cells)`` at most ten times a second. Ctrl-C stops the
            call soon after, and nothing is written.

        Returns
        -------
        str
            The path written (``RxC-moves-L.fsm`` in ``dir``).

        Raises
        ------
        TypeError
            ``puzzle`` is not a ``Puzzle``, ``length`` not an integer, ``progress`` none of the
            above.
        ValueError
            ``length`` outside 2 to 24.
        KeyboardInterrupt
            Ctrl-C (the kernel's interrupt) while the machine is made.
        FileNotFoundError, NotADirectoryError
            ``dir`` is not a directory.
        OSError
            The machine cannot be written.

        Examples
        --------
        >>> import os, tempfile, slidetable as st
        >>> with tempfile.TemporaryDirectory() as d:
        ...     os.path.basename(st.PatternDB.build_pruner(st.Puzzle(3, 3), 8, dir=d))
        '3x3-moves-8.fsm'
        """
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        from ._progress import Count

        length = _int(length, "length")
        where = _dir(dir)
        with Count(progress, f"{puzzle.rows}x{puzzle.cols} move-pruning machine, {length} moves", " cells") as bar:
            path, _, _ = _core.build_pruner(puzzle._p, length, where, bar)
        return str(path)

    @staticmethod
    def partitions(puzzle: Puzzle) -> dict[str, str]:
        """The named partitions and catalogues of ``puzzle``'s board shape, and ``auto``.

        Parameters
        ----------
        puzzle : Puzzle
            The board shape (the goal does not matter).

        Returns
        -------
        dict of str to str
            Name -> what it is, in words (``table build --pattern list`` lists every shape's).

        Raises
        ------
        TypeError
            ``puzzle`` is not a ``Puzzle``.

        Examples
        --------
        >>> import slidetable as st
        >>> names = st.PatternDB.partitions(st.Puzzle(4, 4))
        >>> "7-8" in names, "auto" in names
        (True, True)
        """
        if not isinstance(puzzle, Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        return dict(_core.partitions(puzzle._p))

    @property
    def partition(self) -> str:
        """The partition loaded, as given (``"7-8"``, ``"1,2,3/4,5,6"``), or the name ``auto`` chose."""
        return str(self._db.partition)

    @property
    def groups(self) -> list[list[int]]:
        """The groups of tiles, one list per table (a group looked up in a mirror group's table included)."""
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

    @overload
    def h(self, states: OneBoard, reflect: bool = True) -> int: ...
    @overload
    def h(self, states: ManyBoards, reflect: bool = True) -> npt.NDArray[np.int32]: ...
    @overload
    def h(self, states: BoardLike, reflect: bool = True) -> Any: ...
    def h(self, states: BoardLike, reflect: bool = True) -> Union[int, npt.NDArray[np.int32]]:
        """The estimate of each board: the sum over the groups of each group's table entry.

        Parameters
        ----------
        states : array_like of int
            One board, ``(cells,)``, or a batch, ``(N, cells)`` or ``(N, rows, cols)``; any
            integer dtype, ``0`` the blank.
        reflect : bool
            Where the tables allow it (``reflects``), the larger of the sum and the sum for
            the board reflected about the diagonal (still admissible).

        Returns
        -------
        int, or ndarray of int32, shape (N,)
            An admissible estimate of each board's distance to the goal.

        Raises
        ------
        TypeError
            A non-integer dtype.
        ValueError
            A wrong shape, a tile out of range or repeated (naming the board).

        Examples
        --------
        >>> import tempfile, slidetable as st
        >>> p = st.Puzzle(3, 3)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     db = st.PatternDB.load(p, "1,2,3,4/5,6,7,8", dir=d)
        >>> db.h([[8, 6, 7, 2, 5, 4, 3, 0, 1], [1, 2, 3, 4, 5, 6, 7, 0, 8]])
        array([29,  1], dtype=int32)
        """
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


_ALGORITHMS = ("auto", "astar", "a*", "idastar", "ida*", "astar-ida", "a*+ida*", "bfs", "greedy", "weighted", "bwas", "reduce", "beam")
#: The algorithms that search with a heuristic function (and ``bwas`` with any heuristic).
BATCH_ALGORITHMS = ("astar", "weighted", "greedy", "bwas")
#: ``bwas``'s default number of nodes expanded per step.
DEFAULT_BATCH_SIZE = 100

#: A heuristic function: a batch of boards, ``(N, cells)`` uint8, in; ``N`` numbers out (any
#: array-like: a numpy array of any numeric dtype, a list, a CPU tensor; ``(N, 1)`` is accepted).
HeuristicFn = Callable[[np.ndarray], npt.ArrayLike]


def _heuristic_fn(h: HeuristicFn) -> Callable[[np.ndarray], np.ndarray]:
    """``h`` as the search calls it: boards ``(N, cells)`` uint8 in, ``(N,)`` float64 out,
    whatever array-like of numbers ``h`` returns (a list, a numpy array of any numeric dtype, a
    CPU tensor)."""

    def call(boards: np.ndarray) -> np.ndarray:
        return _estimates_of(h(boards), len(boards))

    return call


class Solver:
    """Searches on one puzzle with the tables loaded once: the heuristic is chosen as the CLI
    chooses it (``auto``: linear conflict up to 12 cells; past that, pattern tables found in
    ``dir``), the tables found, loaded or built on the spot, and kept for every call.

    ``heuristic`` may also be a function of a batch of boards, such as a trained network:
    called with a ``(N, cells)`` uint8 array, it returns ``N`` numbers (any array-like: a numpy
    array, a list, a CPU tensor). It then searches with ``A*`` (``algorithm="astar"``), weighted ``A*``,
    greedy best-first, or DeepCubeA's batch-weighted ``A*`` (``algorithm="bwas"``: the
    ``batch_size`` best nodes expanded per step and all their new children estimated in one
    call), asking the function once per step and never twice for a board. ``bwas`` takes the
    built-in heuristics too, to compare with.

    Parameters
    ----------
    puzzle : Puzzle
        The board shape and goal.
    heuristic : str, PatternDB or callable
        ``auto`` (the CLI's choice: linear conflict up to 12 cells; past that, pattern tables
        found in ``dir``, else linear conflict with a notice), a name (``misplaced``,
        ``manhattan``, ``linear-conflict``, ``nilsson``, ``table``: a perfect table's exact
        distance, ``pdb``: pattern tables), a loaded ``PatternDB``, or a function of a
        batch of boards (``HeuristicFn``).
    partition : str, optional
        With ``pdb`` (or alone, meaning ``pdb``): the partition, as ``PatternDB.load``.
    dir : str or os.PathLike
        Where pattern tables (and move-pruning machines) are looked for and small ones built.
    reflect : bool
        Pattern tables' reflected lookup, as ``PatternDB.h``.
    build_missing : bool, optional
        Build small missing pattern tables on the spot (default: yes, except for a heuristic
        function's solver, which builds nothing unless asked).
    table : str or os.PathLike, optional
        With ``heuristic="table"``: the table file (default: the one ``table build`` writes for
        this board, in ``dir``).
    notice : callable, optional
        Called with each line the CLI would print on stderr (a table being built, a hint).
    share_tables : bool
        Keep pattern tables as the files' memory mappings, shared by processes on one machine.
    prune : int, optional
        Move pruning: never search a move string with a shorter or equal-but-earlier equivalent
        of up to ``prune`` moves (``PatternDB.build_pruner``). Default, as the CLI's
        ``--prune``: 12 moves on boards of up to 36 cells (the machine made in about a second
        at first use and saved in ``dir``), else 2 (only the move straight back).

    Raises
    ------
    TypeError
        ``puzzle`` is not a ``Puzzle``; ``heuristic`` neither a name, a PatternDB nor callable.
    ValueError
        An unknown heuristic or partition; a PatternDB for another puzzle; ``table`` for a board
        past 12 cells.
    FileNotFoundError, NotADirectoryError
        ``dir`` is not a directory, or ``table`` names no file.
    TableError
        A damaged table file.

    Examples
    --------
    >>> import slidetable as st
    >>> p = st.Puzzle(3, 3)
    >>> manhattan = lambda boards: p.heuristic(boards, "manhattan")  # any function of a batch
    >>> sol = st.Solver(p, heuristic=manhattan).solve([8, 6, 7, 2, 5, 4, 3, 0, 1], algorithm="bwas", batch_size=50)
    >>> sol.optimal_length, sol.length >= 31, sol.heuristic_calls < sol.evaluated
    (31, True, True)
    """

    __slots__ = ("_s", "puzzle", "load_seconds", "_args", "_h", "_assumed")

    def __init__(
        self,
        puzzle: Puzzle,
        heuristic: Union[SearchHeuristic, PatternDB, HeuristicFn] = "auto",
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
        # the module functions' default puzzle (no puzzle= given): their warnings say so
        self._assumed = False
        prune = _opt_int(prune, "prune")
        self._args = (puzzle, heuristic, partition, dir, reflect, build_missing, table, None, share_tables, prune)
        self._h: Optional[Callable[[np.ndarray], np.ndarray]] = None
        name: Optional[str] = None
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
            if build_missing is None:
                build_missing = False
        elif heuristic not in (None, "auto"):
            name = str(heuristic)
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
        if weight is not None:
            # refused here, once, rather than as every board's error in a batch
            if isinstance(weight, bool) or not isinstance(weight, (int, float, np.integer, np.floating)):
                raise TypeError(f"weight must be a number, not {type(weight).__name__}")
            w = float(weight)
            if not (math.isfinite(w) and 0 <= w <= 1000):
                raise ValueError(f"weight {w:g} is out of range: give a number from 0 to 1000")
            if a == "weighted" and self._h is None and round(w * 1000) / 1000 != w:
                # the library's weighted A* keys its open list in thousandths (a function's
                # batch search takes any weight)
                raise ValueError(
                    f"weight {w:g} has more than three decimals: weighted A* counts weights in thousandths; give a multiple of 0.001"
                )
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

    def _bounded(self, a: str, w: Optional[float], batch_size: Any, within: Any, time_limit: Any, anytime: Any) -> None:
        """Checks ``within``, ``time_limit`` and ``anytime`` against the rest of a call."""
        if not isinstance(anytime, (bool, np.bool_)):
            raise TypeError(f"anytime must be True or False, not {type(anytime).__name__}")
        for name, v in (("within", within), ("time_limit", time_limit)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating))):
                raise TypeError(f"{name} must be a number, not {type(v).__name__}")
        if time_limit is not None and not (math.isfinite(float(time_limit)) and float(time_limit) > 0):
            raise ValueError(f"time_limit={time_limit}: give a number of seconds above 0")
        if time_limit is not None and self._batched(a, batch_size):
            raise ValueError(
                "time_limit= is for the library's own searches; the batch search (a heuristic function, bwas, a "
                "batch_size) stops at max_nodes= instead"
            )
        if within is None and not anytime:
            return
        if a != "auto" or w is not None:
            raise ValueError(f"within= (and anytime=) choose the search themselves: leave algorithm= and weight= out, not {a!r}")
        if self._h is not None or batch_size is not None:
            raise ValueError("within= needs an admissible heuristic to prove its bound, and a heuristic function's is not known")
        if within is not None:
            x = float(within)
            if not (math.isfinite(x) and 1 <= x <= 1000):
                raise ValueError(f"within={x:g}: give a factor from 1 (optimal) to 1000, like 1.1 for at most 10% longer")
            if round(x * 1000) / 1000 != x:
                raise ValueError(f"within={x:g} has more than three decimals; give a multiple of 0.001")

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
        if a in ("astar", "a*", "weighted", "reduce", "beam") and batch_size not in (None, 1):
            raise ValueError(f"batch_size goes with algorithm='bwas' (or 'greedy'), not {a!r}")
        if a in ("reduce", "beam"):
            raise ValueError(f"algorithm={a!r} is the library's own search: it takes no heuristic function")
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
        """The optimum of ``board`` where the truth can be had (see ``solve``)."""
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
        algorithm: Algorithm = "auto",
        weight: Optional[float] = None,
        max_nodes: Optional[int] = None,
        max_memory: Optional[int] = None,
        threads: Optional[int] = None,
        convention: Convention = "blank",
        batch_size: Optional[int] = None,
        optimal: Optional[bool] = None,
        checkpoint: Union[str, os.PathLike, None] = None,
        within: Optional[float] = None,
        time_limit: Optional[float] = None,
        anytime: bool = False,
    ) -> Optional[Solution]:
        """Solves one board; None if it cannot reach the goal.

        Parameters
        ----------
        state : array_like of int, shape (cells,) or (rows, cols)
            The board, ``0`` the blank; any integer dtype.
        algorithm : str
            ``auto`` (as ``table solve`` chooses: up to 25 cells, ``IDA*`` with pattern tables or
            past 12 cells, else ``A*``, but past 16 cells without pattern tables ``within=1``
            with a 10 s ``time_limit``; 26 to 64 cells, ``within=1.5`` with a 10 s ``time_limit``;
            past 64 cells, ``reduce``; with a heuristic function, ``A*``, or ``bwas`` when
            ``batch_size`` is given), ``reduce`` (constructive: rows and columns placed in turn,
            seconds on a 100x100, not optimal, its ``lower_bound`` the heuristic's estimate),
            ``beam`` (breadth-first keeping the 10,000 boards at each depth the heuristic puts
            nearest: a second or two on a 35-puzzle with pattern tables, not optimal, its
            ``lower_bound`` the heuristic's estimate),
            ``astar``, ``idastar``, ``bfs``, ``greedy``,
            ``weighted`` (with ``weight``, default 2), or ``bwas``: batch-weighted ``A*`` on
            ``g + weight*h`` (default weight 1; DeepCubeA's ``λ·g + h`` is ``weight = 1/λ``),
            expanding ``batch_size`` nodes per step (default 100); or ``astar-ida`` (pattern
            tables only; Bu & Korf's ``A*+IDA*``): ``A*`` until ``max_memory`` (its budget here,
            default 1 GiB), then ``IDA*`` below the boards left on its open list, optimal.
        weight : float, optional
            ``weighted``: the weight of ``h`` in ``g + weight*h`` (default 2); ``bwas``: as above
            (default 1). 0 to 1000.
        max_nodes : int, optional
            Raise ``SearchLimitError`` past this many generated nodes or bytes
            (``astar-ida``: ``max_memory`` is its ``A*`` part's budget, not a limit).
        max_memory : int, optional
            Raise ``SearchLimitError`` past this many generated nodes or bytes
            (``astar-ida``: ``max_memory`` is its ``A*`` part's budget, not a limit).
        threads : int, optional
            Threads of one ``IDA*`` search with pattern tables (default: all cores). The
            counts and the solution are the one-thread search's, whatever ``threads``.
        convention : {"blank", "tile"}
            The convention of the solution's moves: the direction the blank moves (the CLI's)
            or the tile's (DeepCubeA's, most environments').
        batch_size : int, optional
            Nodes expanded per step of ``bwas`` (or ``greedy``) with their new children
            estimated in one call.
        optimal : bool, optional
            Whether to find ``optimal_length`` (batch searches): ``None`` (default) where it is
            cheap (a table; 10 cells or fewer; pattern tables found in ``dir`` up to 4x4),
            ``True`` always (an optimal search beside, maybe slow), ``False`` never.
        checkpoint : str or os.PathLike, optional
            ``astar-ida`` only: a file its progress is kept in (rewritten whole at each new
            bound and about once a minute) and resumed from when it exists, as ``table solve
            --checkpoint``: after a stop (Ctrl-C, ``max_nodes``, a crash), the same call goes on
            from the last save. The file is removed when the solution is found; one of another
            search (board, goal, tables, ``prune``, ``max_memory``) is refused, and so is one
            another search is using at the time (``FILE.lock`` beside it holds the lock).
        within : float, optional
            A solution proven at most ``within`` times the optimum (1 to 1000, at most three
            decimals; 1.1 is at most 10% longer), with its proof in ``Solution.lower_bound``
            and ``Solution.within``: optimistic search (weighted ``A*`` at ``2*within - 1``,
            then the open list's smallest ``g + h`` expanded until the bound holds), as
            ``table solve --within``. Needs an admissible heuristic; not with ``algorithm``.
        time_limit : float, optional
            Seconds: a search still running then raises ``SearchLimitError``, except a bounded
            or anytime one that has a solution, which returns it with the bound it had proven
            (``Solution.stopped`` says why), and ``beam``, which returns ``reduce``'s solution.
            What a search finds by a time limit depends on the machine's speed and load, and the
            bounded search past 16 cells tries wider beams only while the limit leaves room: for
            results another run reproduces, give ``max_nodes`` instead (without a time limit the
            answer is the same on every run and any number of threads). Not for the batch
            search (a heuristic function, ``bwas``), which stops at ``max_nodes``.
        anytime : bool
            The bounded search (``within``, default 2) goes on once its bound holds, improving
            the solution and the bound until the optimum is proven or a limit is reached.

        Returns
        -------
        Solution or None
            The moves and what finding them took (nodes, seconds, whether proven optimal, and
            for batch searches the heuristic's share); None for a board that cannot reach the goal.

        Raises
        ------
        TypeError
            A non-integer board or option.
        ValueError
            A bad board, algorithm or option (naming it); a heuristic function's answer of the
            wrong shape, or NaN.
        SearchLimitError
            At ``max_nodes`` (generated) or ``max_memory`` (bytes).
        KeyboardInterrupt
            On Ctrl-C, within a fraction of a second; the solver answers the next call.

        Examples
        --------
        >>> import slidetable as st
        >>> s = st.Solver(st.Puzzle(3, 3))
        >>> sol = s.solve([8, 6, 7, 2, 5, 4, 3, 0, 1])
        >>> sol.length, sol.optimal, sol.algorithm, sol.heuristic
        (31, True, 'astar', 'linear-conflict')
        >>> s.solve([8, 6, 7, 2, 5, 4, 3, 0, 1], algorithm="weighted", weight=3).length >= 31
        True
        """
        _convention(convention)
        a, w = self._options(algorithm, weight, max_nodes, max_memory, threads)
        self._bounded(a, w, batch_size, within, time_limit, anytime)
        if checkpoint is not None and a not in ("astar-ida", "a*+ida*"):
            raise ValueError(f"checkpoint= goes with algorithm='astar-ida' (the search of hours), not {algorithm!r}")
        if self._batched(a, batch_size):
            plan = self._batch_plan(a, w, batch_size)
            r = self._batch_one(self.puzzle._one(state), plan, max_nodes, max_memory, optimal)
        else:
            path = None if checkpoint is None else os.fspath(checkpoint)
            r = self._s.solve(self.puzzle._one(state), a, w, max_nodes, max_memory, threads, path, within, time_limit, anytime)
            if r is not None and r.get("optimal") and r.get("optimal_length") is None:
                r["optimal_length"] = len(r["moves"])  # proven optimal: its length is the optimum
        if r is None:
            _warn_unreachable(state, self.puzzle, "solve", self._assumed, stacklevel=4 if self._assumed else 3)
            return None
        return _solution(r, convention, self.puzzle.goal_name, self.puzzle._out(self.puzzle._one(state)), self.puzzle)

    def solve_batch(
        self,
        states: BoardLike,
        algorithm: Algorithm = "auto",
        weight: Optional[float] = None,
        max_nodes: Optional[int] = None,
        max_memory: Optional[int] = None,
        threads: Optional[int] = None,
        convention: Convention = "blank",
        batch_size: Optional[int] = None,
        optimal: Optional[bool] = None,
        progress: Union[bool, Callable[[int, int], Any], None] = None,
        within: Optional[float] = None,
        time_limit: Optional[float] = None,
    ) -> BatchResult:
        """Solves many boards in parallel (one board per thread at a time, ``threads`` threads,
        default all cores); results in input order. A board whose search fails (a limit) is
        marked ``FAILED`` with its reason and the others go on; Ctrl-C stops the batch.

        Batch searches (a heuristic function, ``bwas``, a ``batch_size``) take the boards one
        after the other, each with its steps' boards in one call to the heuristic, and fill the
        result's ``optimal_lengths``, ``heuristic_calls``, ``evaluated``, ``heuristic_seconds``
        and ``search_seconds``.

        Parameters
        ----------
        states : array_like of int, shape (N, cells) or (N, rows, cols)
            The boards (one board is a batch of one).
        algorithm
            As ``solve``; ``max_nodes`` and ``max_memory`` are per board.
        weight
            As ``solve``; ``max_nodes`` and ``max_memory`` are per board.
        max_nodes
            As ``solve``; ``max_nodes`` and ``max_memory`` are per board.
        max_memory
            As ``solve``; ``max_nodes`` and ``max_memory`` are per board.
        convention
            As ``solve``; ``max_nodes`` and ``max_memory`` are per board.
        batch_size
            As ``solve``; ``max_nodes`` and ``max_memory`` are per board.
        optimal
            As ``solve``; ``max_nodes`` and ``max_memory`` are per board.
        threads : int, optional
            Boards searched at once (default: all cores); batch searches take one board at a time.
        progress : bool or callable, optional
            A bar of the boards solved (``tqdm.auto``: a widget in Jupyter, text in a terminal)
            once the batch has run a second (the default, None); ``True`` from the start;
            ``False`` none; or a function called with ``(boards done, boards)`` as they finish
            (at most ten times a second, and at the end).
        within : float, optional
            As ``solve``: each solution proven within this factor, its bound in
            ``BatchResult.lower_bounds``.
        time_limit : float, optional
            As ``solve``, per board.

        Returns
        -------
        BatchResult
            One entry per board in input order: ``lengths`` (int32; ``UNSOLVABLE`` -1,
            ``FAILED`` -2), ``moves``, node counts, seconds, ``optimal``, ``errors``.

        Raises
        ------
        TypeError, ValueError
            A bad board (naming its row), algorithm or option, as ``solve``.
        KeyboardInterrupt
            On Ctrl-C.

        Examples
        --------
        >>> import slidetable as st
        >>> p = st.Puzzle(3, 3)
        >>> boards = st.Table.build(p).sample(20, 4, seed=1)
        >>> r = st.Solver(p).solve_batch(boards)
        >>> r.lengths, bool(r.optimal.all()), len(r)
        (array([20, 20, 20, 20], dtype=int32), True, 4)
        """
        _convention(convention)
        a, w = self._options(algorithm, weight, max_nodes, max_memory, threads)
        self._bounded(a, w, batch_size, within, time_limit, False)
        boards, _ = self.puzzle._boards(states, np.uint16)
        from ._progress import Count

        with Count(progress, f"{self.puzzle.rows}x{self.puzzle.cols} boards solved", " boards") as bar:
            if self._batched(a, batch_size):
                result = self._solve_batch_batched(boards, a, w, batch_size, max_nodes, max_memory, convention, optimal, bar)
            else:
                result = self._solve_batch_plain(
                    boards, a, w, max_nodes, max_memory, threads, convention, bar, within, time_limit
                )
        unsolvable = result.lengths == UNSOLVABLE
        if unsolvable.any():
            _warn_unreachable(boards, self.puzzle, "solve_batch", self._assumed, stacklevel=4 if self._assumed else 3)
        return result

    def _solve_batch_plain(
        self, boards: np.ndarray, a: str, w: Optional[float], max_nodes: Any, max_memory: Any, threads: Any, convention: Convention,
        bar: Any = None, within: Optional[float] = None, time_limit: Optional[float] = None,
    ) -> BatchResult:
        r = self._s.solve_batch(boards, a, w, max_nodes, max_memory, threads, bar, within, time_limit)
        moves = [None if m is None else (to_tile_moves(m) if convention == "tile" else m) for m in r["moves"]]
        return BatchResult(
            lengths=r["lengths"].astype(np.int32),
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
            lower_bounds=r["lower_bounds"].astype(np.int32),
            stopped=list(r["stopped"]),
        )

    def _solve_batch_batched(
        self,
        boards: np.ndarray,
        a: str,
        w: Optional[float],
        batch_size: Any,
        max_nodes: Any,
        max_memory: Any,
        convention: Convention,
        optimal: Optional[bool],
        bar: Any = None,
    ) -> BatchResult:
        plan = self._batch_plan(a, w, batch_size)
        n = len(boards)
        lengths = np.full(n, UNSOLVABLE, dtype=np.int32)
        best = np.full(n, np.nan)
        generated, expanded, calls, evaluated = (np.zeros(n, dtype=np.uint64) for _ in range(4))
        seconds, in_h, own = (np.zeros(n) for _ in range(3))
        proven = np.zeros(n, dtype=bool)
        moves: list = [None] * n
        errors: list = [None] * n
        started = time.perf_counter()
        for i, board in enumerate(boards):
            if bar is not None and i:
                bar(i, n)
            cells = [int(c) for c in board]
            try:
                r = self._batch_one(cells, plan, max_nodes, max_memory, optimal)
            except SearchLimitError as e:
                lengths[i], errors[i] = FAILED, str(e)
                generated[i] = getattr(e, "generated", 0)
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
        if bar is not None:
            bar(n, n)
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


def _solution(r: dict, convention: Convention, goal: str = "", start: Optional[np.ndarray] = None, puzzle: Optional[Puzzle] = None) -> Solution:
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
        lower_bound=r.get("lower_bound"),
        within=r.get("within"),
        stopped=r.get("stopped"),
        start=start,
        puzzle=puzzle,
    )


def solve(
    state: BoardLike,
    puzzle: Optional[Puzzle] = None,
    heuristic: Union[SearchHeuristic, PatternDB, HeuristicFn] = "auto",
    algorithm: Algorithm = "auto",
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    dir: Union[str, os.PathLike] = ".",
    partition: Optional[str] = None,
    weight: Optional[float] = None,
    max_memory: Optional[int] = None,
    convention: Convention = "blank",
    batch_size: Optional[int] = None,
    optimal: Optional[bool] = None,
    checkpoint: Union[str, os.PathLike, None] = None,
    within: Optional[float] = None,
    time_limit: Optional[float] = None,
    anytime: bool = False,
) -> Optional[Solution]:
    """Solves one board: a ``Solver`` made for this call (make one yourself to keep its
    tables between calls).

    Parameters
    ----------
    state : array_like of int, shape (cells,) or (rows, cols)
        The board, ``0`` the blank.
    puzzle : Puzzle, optional
        Its puzzle. Default: the square board with that many cells and the blank-last goal; a
        warning says so when the board cannot reach that goal but can reach another named one
        (Korf's instances are written toward blank-first).
    heuristic
        As ``Solver`` (a name, a ``PatternDB``, or a function of a batch of boards).
    partition
        As ``Solver`` (a name, a ``PatternDB``, or a function of a batch of boards).
    dir
        As ``Solver`` (a name, a ``PatternDB``, or a function of a batch of boards).
    algorithm
        As ``Solver.solve``.
    max_nodes
        As ``Solver.solve``.
    threads
        As ``Solver.solve``.
    weight
        As ``Solver.solve``.
    max_memory
        As ``Solver.solve``.
    convention
        As ``Solver.solve``.
    batch_size
        As ``Solver.solve``.
    optimal
        As ``Solver.solve``.
    checkpoint
        As ``Solver.solve``.
    within
        As ``Solver.solve``.
    time_limit
        As ``Solver.solve``.
    anytime
        As ``Solver.solve``.

    Returns
    -------
    Solution or None
        None for a board that cannot reach the goal; ``Solution.goal`` names the goal searched for.

    Raises
    ------
    TypeError, ValueError, SearchLimitError, KeyboardInterrupt
        As ``Solver`` and ``Solver.solve``; ValueError also when no puzzle is given and
        the board is not square.

    Examples
    --------
    >>> import slidetable as st
    >>> sol = st.solve([8, 6, 7, 2, 5, 4, 3, 0, 1])
    >>> sol.length, sol.moves[:8], sol.goal
    (31, 'RULURDLD', 'blank-last')
    """
    s = Solver(_puzzle_of(state, puzzle), heuristic, partition, dir)
    s._assumed = puzzle is None
    return s.solve(
        state, algorithm, weight, max_nodes, max_memory, threads, convention, batch_size, optimal, checkpoint,
        within, time_limit, anytime,
    )


def solve_batch(
    states: BoardLike,
    puzzle: Optional[Puzzle] = None,
    heuristic: Union[SearchHeuristic, PatternDB, HeuristicFn] = "auto",
    algorithm: Algorithm = "auto",
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    dir: Union[str, os.PathLike] = ".",
    partition: Optional[str] = None,
    weight: Optional[float] = None,
    max_memory: Optional[int] = None,
    convention: Convention = "blank",
    batch_size: Optional[int] = None,
    optimal: Optional[bool] = None,
    progress: Union[bool, Callable[[int, int], Any], None] = None,
    within: Optional[float] = None,
    time_limit: Optional[float] = None,
) -> BatchResult:
    """Solves many boards in parallel with the tables loaded once.

    Parameters
    ----------
    states : array_like of int, shape (N, cells) or (N, rows, cols)
        The boards.
    puzzle : Puzzle, optional
        Their puzzle; default the square blank-last one (with a warning as ``solve``).
    heuristic
        As ``Solver``.
    partition
        As ``Solver``.
    dir
        As ``Solver``.
    algorithm
        As ``Solver.solve_batch``.
    max_nodes
        As ``Solver.solve_batch``.
    threads
        As ``Solver.solve_batch``.
    weight
        As ``Solver.solve_batch``.
    max_memory
        As ``Solver.solve_batch``.
    convention
        As ``Solver.solve_batch``.
    batch_size
        As ``Solver.solve_batch``.
    optimal
        As ``Solver.solve_batch``.
    progress
        As ``Solver.solve_batch``: a bar of the boards solved after a second, ``True``,
        ``False``, or a function of ``(done, total)``.
    within
        As ``Solver.solve_batch``.
    time_limit
        As ``Solver.solve_batch``.

    Returns
    -------
    BatchResult
        One entry per board, in input order.

    Raises
    ------
    TypeError, ValueError, KeyboardInterrupt
        As ``Solver`` and ``Solver.solve_batch``.

    Examples
    --------
    >>> import slidetable as st
    >>> r = st.solve_batch([[1, 2, 3, 4, 5, 6, 0, 7, 8], [2, 1, 3, 4, 5, 6, 7, 8, 0]], puzzle=st.Puzzle(3, 3))
    >>> r.lengths.tolist(), r.moves
    ([2, -1], ['RR', None])
    """
    s = Solver(_puzzle_of(states, puzzle), heuristic, partition, dir)
    s._assumed = puzzle is None
    return s.solve_batch(
        states, algorithm, weight, max_nodes, max_memory, threads, convention, batch_size, optimal, progress,
        within, time_limit,
    )
