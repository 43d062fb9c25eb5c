"""What a search returns: one board's solution, or a batch's results."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Any, Optional

import numpy as np
import numpy.typing as npt

from ._common import UNSOLVABLE, Convention
from .conventions import moves_to_actions, to_blank_moves

if TYPE_CHECKING:  # pragma: no cover
    from .puzzle import Puzzle

__all__ = ["Solution", "BatchResult"]


@dataclasses.dataclass(frozen=True)
class Solution:
    """A solution and what finding it took.

    Returned by ``solve``, ``Solver.solve`` and ``Table.solve`` (None instead
    when the board cannot reach the goal). Frozen: a record, compared and pickled by value.
    The fields below after ``goal`` are filled by some searches only, and are None otherwise.

    Examples
    --------
    >>> import slidetable as st
    >>> sol = st.solve([8, 6, 7, 2, 5, 4, 3, 0, 1], heuristic="manhattan", algorithm="astar")
    >>> sol.moves, sol.length, sol.optimal
    ('LURURDDLULURRDDLLUURRDLDLUURDRD', 31, True)
    >>> sol.generated, sol.expanded, sol.algorithm, sol.heuristic, sol.goal
    (10982, 6728, 'astar', 'manhattan', 'blank-last')
    >>> sol.actions[:4]
    array([2, 0, 3, 0], dtype=int8)
    """

    moves: str
    """The moves in the convention asked for (letters ``U D L R``)."""
    convention: Convention
    """The convention of ``moves``: ``blank`` (the direction the blank moves) or ``tile``."""
    length: int
    """The number of moves, ``len(moves)``."""
    optimal: Optional[bool]
    """True when proven optimal (a table, or ``A*``/``IDA*`` with an admissible heuristic), None when not known."""
    generated: int
    """Nodes generated (a successor made; the start counts; the move straight back is never made)."""
    expanded: int
    """Nodes expanded (their successors made); 0 for a table's walk down the distances."""
    seconds: float
    """The search's time in seconds (wall clock; the tables' loading apart)."""
    algorithm: str
    """The search that ran: ``astar``, ``idastar``, ``bfs``, ``greedy``, ``weighted``, ``bwas``, ``within``, ``reduce``, ``beam``,
    ``astar-ida``, or ``table`` (a perfect table's walk); ``auto`` is reported as its choice."""
    heuristic: str
    """The guide of the search: ``misplaced``, ``manhattan``, ``linear-conflict``, ``nilsson``,
    ``table``, ``pdb``, or ``callable`` for a function."""
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
    lower_bound: Optional[int] = None
    """A proven lower bound on the optimum: the length itself for an optimal search; for
    ``within=``, weighted and greedy searches the largest of the start's estimate and the
    smallest ``g + h`` left on the open list (raised to the solutions' parity). None when
    nothing is proven (an inadmissible or learned heuristic)."""
    within: Optional[float] = None
    """``length / lower_bound``: the solution is proven at most this many times the optimum
    (1.0 when proven optimal); None without a bound."""
    stopped: Optional[str] = None
    """The limit (``time_limit``, ``max_memory``, ``max_nodes``) that stopped a bounded or
    anytime search before its proof: the solution is the best it had. None when it finished."""
    start: Optional[npt.NDArray[np.integer]] = dataclasses.field(default=None, compare=False, repr=False)
    """The board solved (ndarray of its cells), where the call that made this solution had it:
    what a picture of the solution starts from. Not part of the comparison."""
    puzzle: Optional["Puzzle"] = dataclasses.field(default=None, compare=False, repr=False)
    """The puzzle (shape and goal) of ``start``."""

    def to_svg(self, size: Optional[int] = None, seconds_per_move: float = 0.5) -> str:
        """An SVG (str) that plays the solution from its start: each move slides a tile, a move
        every ``seconds_per_move``, the start and the goal held a moment, then again. SVG's own
        animation, no JavaScript; a browser or Jupyter plays it. Needs ``start`` (solutions from
        ``solve``, ``Solver.solve`` and ``Table.solve`` have it).

        Parameters
        ----------
        size : int, optional
            Pixels a cell (at least 8; 48 by default up to 5 columns, smaller past it).
        seconds_per_move : float
            The time a move takes (0.5 s by default).

        Returns
        -------
        str
            An SVG document; Jupyter shows it (with the start) as the solution's HTML.

        Raises
        ------
        ValueError
            The solution does not know its start board (one made by hand), or a cell under 8 pixels.

        Examples
        --------
        >>> import slidetable as st
        >>> sol = st.Table.build(st.Puzzle(2, 2)).solve([0, 3, 2, 1])
        >>> sol.to_svg().count("animateTransform")
        3
        """
        from .pictures import solution_svg

        if self.start is None or self.puzzle is None:
            raise ValueError("this solution does not know its start board: solve the board with st.solve, Solver.solve or Table.solve")
        blank_moves = self.moves if self.convention == "blank" else to_blank_moves(self.moves)
        p = self.puzzle
        return solution_svg([int(v) for v in self.start], p.rows, p.cols, blank_moves, [int(v) for v in p.goal], size, seconds_per_move)

    def _repr_html_(self) -> Optional[str]:
        if self.start is None or self.puzzle is None:
            return None
        import html

        from .pictures import board_svg

        p = self.puzzle
        start = board_svg([int(v) for v in self.start], p.rows, p.cols, [int(v) for v in p.goal], 32, "the start")
        proven = {True: "optimal", False: "not proven optimal", None: "optimality not known"}[self.optimal]
        if self.optimal is not True and self.within is not None and self.lower_bound is not None:
            proven = f"within {math.ceil(self.within * 100 - 1e-9) / 100:.2f} of optimal: at least {self.lower_bound} moves are needed"
        if self.algorithm == "table":
            found = "read down the perfect table"
        else:
            found = f"{self.algorithm}" + (f" with {self.heuristic}" if self.heuristic != self.algorithm else "")
            found += f"; {self.generated:,} nodes generated, {self.expanded:,} expanded; {self.seconds:.3g} s"
        head = f"<b>Solution: {self.length} moves ({proven})</b>, {html.escape(found)}"
        moves = html.escape(self.moves) or "(the start is the goal)"
        return (
            "<div class='slidetable'>" + head
            + "<div style='display:flex;gap:1em;align-items:flex-start;margin-top:0.4em'>"
            + f"<figure style='margin:0'>{start}<figcaption>start</figcaption></figure>"
            + f"<figure style='margin:0'>{self.to_svg()}<figcaption>played ({self.convention} moves: <code>{moves}</code>)</figcaption></figure>"
            + "</div></div>"
        )

    @property
    def actions(self) -> npt.NDArray[np.int8]:
        """The moves as action numbers 0-3 (``U D L R``) in the same convention: ndarray of
        int8, shape (length,)."""
        return moves_to_actions(self.moves, self.convention)


@dataclasses.dataclass(frozen=True)
class BatchResult:
    """Many boards solved: one entry per board, in input order.

    Returned by ``solve_batch`` and ``Solver.solve_batch``; ``len()`` is the number of
    boards. The fields after ``goal`` but the last are filled by batch searches (``bwas``, or a
    heuristic function) only, and are None otherwise; ``lower_bounds`` by every search of the
    library's own heuristics (with ``within=``, each board's proof).

    Examples
    --------
    >>> import slidetable as st
    >>> r = st.solve_batch([[1, 2, 3, 4, 5, 6, 0, 7, 8], [2, 1, 3, 4, 5, 6, 7, 8, 0]], puzzle=st.Puzzle(3, 3))
    >>> len(r), r.lengths, r.moves
    (2, array([ 2, -1], dtype=int32), ['RR', None])
    >>> r.optimal, r.errors, r.convention
    (array([ True, False]), [None, None], 'blank')
    """

    lengths: npt.NDArray[np.int32]
    """Solution lengths (int32, shape (N,): a greedy or weighted search's path can pass 32,767 moves); ``UNSOLVABLE`` (-1) for a board that cannot reach
    the goal, ``FAILED`` (-2) for one whose search stopped at a limit (its reason in ``errors``)."""
    moves: list[Optional[str]]
    """The solutions as move strings in ``convention`` (None for unsolvable boards)."""
    generated: npt.NDArray[np.uint64]
    """Nodes generated by each board's search (uint64, shape (N,); 0 for an unsolvable board)."""
    expanded: npt.NDArray[np.uint64]
    """Nodes expanded by each board's search (uint64, shape (N,))."""
    seconds: npt.NDArray[np.float64]
    """Each board's search time (float64, shape (N,); the boards run side by side, so these add
    up to more than the wall time)."""
    optimal: npt.NDArray[np.bool_]
    """Whether each solution is proven optimal (bool, shape (N,); False for a board without one)."""
    errors: list[Optional[str]]
    """None, or why the board's search failed."""
    convention: Convention
    """The convention of ``moves``: ``blank`` (the direction the blank moves) or ``tile``."""
    wall_seconds: float
    """The whole batch's time in seconds, start to end (the tables' loading apart)."""
    load_seconds: float
    """Time spent loading (or building) the tables, apart from the searches."""
    goal: str = ""
    """The goal searched for: ``blank-last``, ``blank-first``, ``snail`` or its tiles."""
    optimal_lengths: Optional[npt.NDArray[np.float64]] = None
    """Batch searches: each board's optimum where the truth can be had, NaN where it is not
    known (float64, shape (N,)): ``lengths - optimal_lengths`` is then the optimality gap, NaN
    where it cannot be told (and for boards that cannot reach the goal)."""
    heuristic_calls: Optional[npt.NDArray[np.uint64]] = None
    """Batch searches: calls to the heuristic, per board (uint64)."""
    evaluated: Optional[npt.NDArray[np.uint64]] = None
    """Batch searches: boards estimated, per board (uint64)."""
    heuristic_seconds: Optional[npt.NDArray[np.float64]] = None
    """Batch searches: seconds inside the heuristic, per board (float64)."""
    search_seconds: Optional[npt.NDArray[np.float64]] = None
    """Batch searches: the search's own seconds, per board (float64)."""
    lower_bounds: Optional[npt.NDArray[np.int32]] = None
    """Each board's proven lower bound on the optimum (int32, shape (N,); -1 where none is proven:
    an unsolvable or failed board, an inadmissible heuristic); ``lengths / lower_bounds`` is the
    proven ratio. None for batch searches with a heuristic function."""
    stopped: Optional[list[Optional[str]]] = None
    """Per board, the limit that stopped its search before the bound asked for was proven (a
    bounded search's ``time_limit``, ``max_nodes`` or ``max_memory``: the best solution found is
    returned, its ``lengths / lower_bounds`` above ``within``), or a beam before the goal
    (``reduce``'s solution returned); None where nothing stopped it. None for batch searches with
    a heuristic function."""

    def __len__(self) -> int:
        return int(self.lengths.shape[0])

    def __repr__(self) -> str:
        # a summary, not every board's moves and error (3,000 boards made 97,000 characters)
        n = len(self)
        solved = int((self.lengths >= 0).sum())
        failed = sum(e is not None for e in self.errors)
        unsolvable = int((self.lengths == UNSOLVABLE).sum())
        lengths = np.array2string(self.lengths, threshold=8, edgeitems=3)
        return (
            f"BatchResult({n:,} boards, goal {self.goal!r}: {solved:,} solved, {unsolvable:,} unsolvable, "
            f"{failed:,} failed; lengths {lengths}; {int(self.generated.sum()):,} nodes generated; "
            f"{self.wall_seconds:.3g} s)"
        )

    def _columns(self) -> dict:
        cols: dict = {
            "length": np.asarray(self.lengths), "moves": list(self.moves), "generated": np.asarray(self.generated),
            "expanded": np.asarray(self.expanded), "seconds": np.asarray(self.seconds), "optimal": np.asarray(self.optimal),
            "error": list(self.errors),
        }
        if self.stopped is not None:
            cols["stopped"] = list(self.stopped)
        for name in ["optimal_lengths", "heuristic_calls", "evaluated", "heuristic_seconds", "search_seconds", "lower_bounds"]:
            v = getattr(self, name)
            if v is not None:
                cols[name.removesuffix("s") if name in ("optimal_lengths", "lower_bounds") else name] = np.asarray(v)
        return cols

    def to_pandas(self) -> Any:
        """The results as a pandas DataFrame: a row per board, in input order; ``length``
        (``UNSOLVABLE`` -1, ``FAILED`` -2), ``moves`` and ``error`` (strings, missing where None),
        ``generated``, ``expanded``, ``seconds``, ``optimal``, and the columns of the fields
        filled (``optimal_length``, ``heuristic_calls``, ..., ``lower_bound``: -1 where none is
        proven; ``stopped``, strings, missing where None), their dtypes the arrays' (unsigned
        counts as int64, so that differences of them never wrap round).

        Returns
        -------
        pandas.DataFrame
            One row per board.

        Raises
        ------
        ImportError
            pandas is not installed (``pip install pandas``); it is not a dependency of slidetable.

        Examples
        --------
        >>> import slidetable as st
        >>> r = st.solve_batch([[1, 2, 3, 4, 5, 6, 0, 7, 8], [2, 1, 3, 4, 5, 6, 7, 8, 0]], puzzle=st.Puzzle(3, 3))
        >>> r.to_pandas()[["length", "moves", "optimal"]].values.tolist()
        [[2, 'RR', True], [-1, <NA>, False]]
        """
        from ._frames import pandas_frame

        return pandas_frame(self._columns(), "BatchResult")

    def to_polars(self) -> Any:
        """The results as a polars DataFrame: the columns of ``to_pandas``.

        Returns
        -------
        polars.DataFrame
            One row per board.

        Raises
        ------
        ImportError
            polars is not installed (``pip install polars``); it is not a dependency of slidetable.

        Examples
        --------
        >>> import slidetable as st
        >>> r = st.solve_batch([[1, 2, 3, 4, 5, 6, 0, 7, 8]], puzzle=st.Puzzle(3, 3))
        >>> r.to_polars()["moves"].to_list()
        ['RR']
        """
        from ._frames import polars_frame

        return polars_frame(self._columns(), "BatchResult")

    def _repr_html_(self) -> str:
        from .pictures import table_html

        solved = self.lengths >= 0
        n = len(self)
        rows = [
            ("boards", f"{n:,}: {int(solved.sum()):,} solved, {int((self.lengths == -1).sum()):,} unsolvable, {int((self.lengths == -2).sum()):,} failed"),
            ("proven optimal", f"{int(self.optimal.sum()):,}"),
            ("mean length", f"{float(self.lengths[solved].mean()):.2f} moves" if solved.any() else "none"),
            ("nodes generated", f"{int(self.generated.sum()):,} in all, mean {float(self.generated.mean()):,.0f}" if n else "none"),
            ("time", f"{self.wall_seconds:.3g} s searching" + (f", and {self.load_seconds:.3g} s before it making ready (tables, the heuristic)" if self.load_seconds else "")),
        ]
        return table_html(rows, "BatchResult")
