"""Grading a heuristic against exact distances: every state of a table, or given boards."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _core
from ._common import UNSOLVABLE, BoardLike, Boards, HeuristicName, _estimates_of, _int
from .puzzle import Puzzle, _puzzle_of

__all__ = ["Grade", "grade"]

if TYPE_CHECKING:
    from .search import Solver
    from .table import Table


@dataclasses.dataclass(frozen=True, repr=False)
class Grade:
    """A heuristic ``h`` graded against the exact distances ``h*``: over every state and edge of
    a table (``Table.grade``), or over given boards and their moves (``grade``).

    The error is ``h* - h``, the true distance minus the estimate: positive where ``h``
    underestimates (as an admissible heuristic does), negative where it overestimates. Estimates
    are used as given (a learned heuristic's fractions are not rounded); ``h = h*`` means equal.

    Arrays are per depth, indexed by the true distance ``h*`` (a depth without boards has count
    0 and zeros); the ``total_*`` numbers are over every board graded. ``summary`` prints
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
    states: npt.NDArray[np.uint64]
    """Boards at each depth: uint64, shape ``(depths,)`` (``max_depth + 1`` over a table, the
    deepest board's depth + 1 over given boards), like every per-depth array here."""
    mean_h: npt.NDArray[np.float64]
    """Mean estimate ``h`` per depth (float64)."""
    mean_exact: npt.NDArray[np.float64]
    """Mean true distance ``h*`` per depth (float64; the depth itself where there are boards)."""
    mean_error: npt.NDArray[np.float64]
    """Signed mean error ``mean(h* - h)`` per depth (float64): positive where ``h`` underestimates
    on average, negative where it overestimates. Errors of both signs cancel: read it with ``mae``."""
    exact_share: npt.NDArray[np.float64]
    """Share (0 to 1) of boards with ``h = h*``, per depth (float64)."""
    overestimates: npt.NDArray[np.uint64]
    """Boards with ``h > h*`` (admissibility violations), per depth (uint64)."""
    max_overestimate: npt.NDArray[np.uint32]
    """The largest ``h - h*`` per depth, rounded up (uint32; ``worst_overestimate`` unrounded)."""
    edges: npt.NDArray[np.uint64]
    """Edges counted per depth (uint64; see the class doc)."""
    inconsistent_edges: npt.NDArray[np.uint64]
    """Edges whose estimates differ by more than one move, ``|h(a) - h(b)| > 1`` (consistency
    violations), per depth (uint64)."""
    total_exact_share: float
    """Share of all boards with ``h = h*``."""
    total_mean_error: float
    """Signed mean error ``mean(h* - h)`` over all boards: positive = underestimate. Errors of
    both signs cancel in it: quote ``total_mae`` beside it."""
    total_overestimates: int
    """Boards with ``h > h*`` (admissibility violations)."""
    total_inconsistent_edges: int
    """Edges with ``|h(a) - h(b)| > 1`` (consistency violations)."""
    at_goal: float
    """The estimate at the goal, as given (a consistent heuristic has 0; a learned one's
    fraction is kept, not rounded)."""
    mae: npt.NDArray[np.float64] = dataclasses.field(default_factory=lambda: np.zeros(0))
    """Mean absolute error ``mean |h* - h|`` per depth (float64)."""
    rmse: npt.NDArray[np.float64] = dataclasses.field(default_factory=lambda: np.zeros(0))
    """Root mean square error ``sqrt(mean (h* - h)^2)`` per depth (float64)."""
    under_share: npt.NDArray[np.float64] = dataclasses.field(default_factory=lambda: np.zeros(0))
    """Share (0 to 1) of boards with ``h < h*``, per depth (float64)."""
    over_share: npt.NDArray[np.float64] = dataclasses.field(default_factory=lambda: np.zeros(0))
    """Share (0 to 1) of boards with ``h > h*``, per depth (float64)."""
    worst_overestimate: npt.NDArray[np.float64] = dataclasses.field(default_factory=lambda: np.zeros(0))
    """The largest ``h - h*`` per depth (float64; 0 where none overestimates)."""
    max_edge_difference: npt.NDArray[np.float64] = dataclasses.field(default_factory=lambda: np.zeros(0))
    """The largest ``|h(a) - h(b)|`` over the edges counted per depth (float64; above 1: the
    worst consistency violation)."""
    policy_accuracy: npt.NDArray[np.float64] = dataclasses.field(default_factory=lambda: np.zeros(0))
    """Policy accuracy per depth (float64; NaN at depth 0, and where no board is graded)."""
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
        """Whether it never overestimates, on the boards graded (bool: ``total_overestimates == 0``)."""
        return self.total_overestimates == 0

    @property
    def consistent(self) -> bool:
        """Whether it is consistent on the edges graded (bool): admissible, 0 at the goal, no
        edge changes by more than one."""
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
            f"h*-h {self.total_mean_error:+.3f}, under/over/exact {_share(self.total_under_share)}/"
            f"{_share(self.total_over_share)}/{_share(self.total_exact_share)}, "
            f"policy {100 * self.total_policy_accuracy:.1f}%, {verdict})"
        )

    def _columns(self) -> dict:
        """The per-depth arrays, a row per depth that holds states (a held-out set's empty
        depths, zeros throughout, are left out)."""
        n = len(self.states)
        held = np.asarray(self.states) > 0
        cols: dict = {"depth": np.arange(n, dtype=np.int16)[held]}
        for name in ["states", "mean_h", "mean_exact", "mean_error", "mae", "rmse", "exact_share", "under_share", "over_share",
                     "overestimates", "max_overestimate", "worst_overestimate", "edges", "inconsistent_edges",
                     "max_edge_difference", "policy_accuracy"]:
            v = getattr(self, name)
            if len(v) == n:
                cols[name] = np.asarray(v)[held]
        return cols

    def to_pandas(self) -> Any:
        """The per-depth measures as a pandas DataFrame: a row per exact distance that holds
        states (``depth``, int16; a held-out set's empty depths are left out), a column per
        measure (``states``, ``mean_h``, ``mae``, ``rmse``, ``exact_share``, ``under_share``,
        ``over_share``, ``overestimates``, ``policy_accuracy``, ...), their dtypes those of the
        arrays, the counts as int64.

        Returns
        -------
        pandas.DataFrame
            One row per depth graded.

        Raises
        ------
        ImportError
            pandas is not installed (``pip install pandas``); it is not a dependency of slidetable.

        Examples
        --------
        >>> import slidetable as st
        >>> df = st.Table.build(st.Puzzle(3, 3)).grade("manhattan").to_pandas()
        >>> int(df.loc[31, "states"]), float(df.loc[31, "mean_h"]), str(df["states"].dtype)
        (2, 21.0, 'int64')
        """
        from ._frames import pandas_frame

        return pandas_frame(self._columns(), "Grade")

    def to_polars(self) -> Any:
        """The per-depth measures as a polars DataFrame: the columns of ``to_pandas``.

        Returns
        -------
        polars.DataFrame
            One row per depth graded.

        Raises
        ------
        ImportError
            polars is not installed (``pip install polars``); it is not a dependency of slidetable.

        Examples
        --------
        >>> import slidetable as st
        >>> st.Table.build(st.Puzzle(2, 2)).grade("misplaced").to_polars().height
        7
        """
        from ._frames import polars_frame

        return polars_frame(self._columns(), "Grade")

    def plot(self, ax: Any = None) -> Any:
        """The mean estimate at each true distance against ``h = h*``, with the band of its
        error, with matplotlib (``slidetable.plots.grade``).

        Parameters
        ----------
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
        >>> st.Table.build(st.Puzzle(3, 3)).grade("misplaced").plot().get_ylabel()
        'h, the estimate'
        """
        from .plots import grade

        return grade(self, ax)

    def _repr_html_(self) -> str:
        from .pictures import table_html

        verdict = ("admissible" if self.admissible else "not admissible") + (", consistent" if self.consistent else ", not consistent")
        rows = [
            ("graded on", self._where()),
            ("MAE / RMSE", f"{self.total_mae:.3f} / {self.total_rmse:.3f}"),
            ("mean h* - h", f"{self.total_mean_error:+.3f}"),
            ("under / over / exact", f"{_share(self.total_under_share)} / {_share(self.total_over_share)} / {_share(self.total_exact_share)}"),
            ("policy accuracy", f"{100 * self.total_policy_accuracy:.1f}%"),
            ("verdict", verdict),
        ]
        return table_html(rows, f"Grade of {self.name}")

    def summary(self) -> str:
        """The headline measures, then one row per depth, as plain text (monospace).

        Returns
        -------
        str
            Lines: the heuristic and what was graded, the measures in total, then a table of
            depth, boards, mean h, MAE, RMSE, ``h* - h`` and the shares, ending with ``all``
            (depths without boards left out). ``print`` it.

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
            f"|h(a) - h(b)| > 1 (largest {self.total_max_edge_difference:g}), h(goal) = {self.at_goal:g}",
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


def _share(x: float) -> str:
    """A share as a percentage to one decimal, a share that is not nothing never shown as 0.0%
    (nor one short of everything as 100.0%): one overestimate in millions reads <0.1%."""
    if 0 < x < 0.0005:
        return "<0.1%"
    if 0.9995 <= x < 1:
        return ">99.9%"
    return f"{100 * x:.1f}%"


def _grade(name: str, d: dict, at_goal: float, scope: str = "table") -> Grade:
    """A ``Grade`` from the library's per-depth sums (``d``: columns by depth and a ``total``)."""
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
        at_goal=float(at_goal),
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


def _name_of(h: Any) -> str:
    return h if isinstance(h, str) else getattr(h, "__name__", type(h).__name__)


def _bytes_hold(v: np.ndarray) -> bool:
    """Whether estimates are whole numbers from 0 to 254 (stored exactly in a byte)."""
    return bool(np.isfinite(v).all() and (v == np.round(v)).all() and (v.size == 0 or (v.min() >= 0 and v.max() <= 254)))


def _evaluate(
    h: Union[HeuristicName, Callable[[Boards], npt.ArrayLike]],
    puzzle: Puzzle,
    boards: np.ndarray,
    batch_size: int,
    done: Optional[Callable[[int], None]] = None,
) -> np.ndarray:
    """``h`` on ``boards`` ((N, cells) uint8) as float64, a function called ``batch_size`` boards
    at a time; ``done(k)`` after each ``k`` boards."""
    if isinstance(h, str):
        out = np.asarray(puzzle.heuristic(boards, h), dtype=np.float64).reshape(len(boards))
        if done is not None:
            done(len(boards))
        return out
    if not callable(h):
        raise TypeError(f"h must be a heuristic name or a function of a batch of boards, not {type(h).__name__}")
    out = np.empty(len(boards), dtype=np.float64)
    for start in range(0, len(boards), batch_size):
        stop = min(len(boards), start + batch_size)
        # a copy for each call: a function that writes into its input (an in-place tensor
        # operation) changes neither the caller's boards nor the ones graded
        out[start:stop] = _estimates_of(h(np.array(boards[start:stop])), stop - start)
        if done is not None:
            done(stop - start)
    return out


def grade(
    h: Union[HeuristicName, Callable[[Boards], npt.ArrayLike]],
    states: BoardLike,
    puzzle: Optional[Puzzle] = None,
    table: Optional["Table"] = None,
    solver: Optional["Solver"] = None,
    batch_size: int = 65536,
    progress: Union[bool, Callable[[int, int], Any], None] = None,
    name: Optional[str] = None,
) -> Grade:
    """Grades a heuristic on given boards (a held-out set) against their exact distances.

    Each board counts once, at its true depth; ``h`` is also evaluated on every board's children
    (the boards one move away), which gives the edges for consistency (each board's moves) and
    the greedy policy's choice. The measures are ``Grade``'s, defined there; on every state
    of a table they equal ``Table.grade``'s, except that each edge is seen from both ends.

    Parameters
    ----------
    h : str or callable
        A built-in heuristic's name (``misplaced``, ``hamming`` the same, ``manhattan``,
        ``linear-conflict``, ``nilsson``) or a function of a batch of boards: ``(B, cells)`` uint8 in, ``B`` numbers
        out (any array-like; ``(B, 1)`` is accepted). Fractions are graded as given.
    states : array_like of int
        The boards, ``(N, cells)`` or ``(N, rows, cols)`` (or one board, ``(cells,)``): any
        integer dtype, ``0`` the blank. Each must reach the goal.
    puzzle : Puzzle, optional
        Their puzzle; by default the table's or the solver's, else the square blank-last one.
    table : Table, optional
        Where the exact distances come from. Without ``table`` or ``solver``, boards of up to
        10 cells get a table built in memory (milliseconds); larger ones need one of the two.
    solver : Solver, optional
        Exact distances by optimal searches (a ``Solver`` with pattern tables, or an
        admissible heuristic): each board and each of its children is solved, up to five
        searches a board, so this is slow past 3x4 (on 4x4, seconds a board with the 7-8
        tables). Its searches must be optimal.
    batch_size : int
        Boards per call of a function ``h`` (at least 1).
    progress : bool or callable, optional
        By default a ``tqdm`` bar shows once the call has run a second, counting the boards
        ``h`` has estimated (the boards and their children), then the boards whose distances
        are looked up in the table (or, with ``solver``, the boards solved); ``True`` shows it
        at once, ``False`` shows nothing, and a function is called as ``progress(done,
        total)`` in those units.
    name : str, optional
        The grade's name (in its summary, plots and frames): by default the heuristic's name, or
        a function's ``__name__`` (every lambda's is ``<lambda>``).

    Returns
    -------
    Grade
        With ``scope == "boards"``; per-depth arrays run from 0 to the deepest board.

    Raises
    ------
    ValueError
        A board of the wrong shape or puzzle, malformed or unable to reach the goal; ``h``
        returning the wrong shape, NaN or infinity (naming the board); an unknown name; a table
        or solver for another puzzle, or both given; no way to find the distances (past 10
        cells without ``table`` or ``solver``); a solver whose searches are not optimal, or
        that searches with a function; boards not square without ``puzzle``; ``batch_size``
        below 1.
    TypeError
        A non-integer dtype; ``h`` neither a name nor callable, or returning something that is
        not numbers; ``puzzle``, ``table`` or ``solver`` of the wrong type; ``batch_size`` not
        an integer; ``progress`` none of the above.
    KeyboardInterrupt
        Ctrl-C (the kernel's interrupt): between two calls of a function ``h``, or within a
        second while the solver searches.
    Exception
        Whatever a function ``h`` (or ``progress``) raises.

    Examples
    --------
    >>> import slidetable as st
    >>> p = st.Puzzle(3, 3)
    >>> held_out = st.Table.build(p).sample(20, 100, seed=7)
    >>> g = st.grade(lambda b: p.heuristic(b, "manhattan"), held_out)
    >>> g.total_states, g.admissible, int(g.states[20]), g.total_mae > 0
    (100, True, 100, True)
    """
    from .search import Solver
    from .table import Table, _memory_table

    if name is not None:
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be a non-empty string, not {name!r}")
        return dataclasses.replace(grade(h, states, puzzle, table, solver, batch_size, progress), name=name)
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
    from ._progress import Count, check

    check(progress)
    boards, _ = puzzle._boards(states, np.uint8)
    n = len(boards)
    if n == 0:
        raise ValueError("no boards to grade: a grade of none has no verdict; give one board or more")
    kids, valid = puzzle.expand(boards) if n else (np.zeros((0, 4, puzzle.cells)), np.zeros((0, 4), dtype=bool))
    kids = kids.astype(np.uint8)
    name = _name_of(h)
    if solver is None and table is None and puzzle.cells > 10:
        raise ValueError(
            f"no exact distances for {puzzle.rows}x{puzzle.cols} boards: pass table= (a table of "
            f"up to 12 cells, Table.open) or solver= (a slidetable.Solver with pattern tables)"
        )
    if solver is not None and solver._h is not None:
        raise ValueError("solver= must search with its own tables, not a heuristic function: make it with heuristic='auto'")
    estimated = n + int(valid.sum())
    uniq = inverse = None
    if solver is not None:
        every = np.concatenate([boards, kids[valid]])
        uniq, inverse = np.unique(every, axis=0, return_inverse=True)
    # the estimates of the boards and their children, then each board's distances looked up
    # in the table (with its children's) or found by the solver
    total = estimated + (n if uniq is None else len(uniq))
    with Count(progress, f"{puzzle.rows}x{puzzle.cols} grading {name} (each board and its children)", " boards") as bar:
        counted = [0]

        def done(k: int) -> None:
            counted[0] += k
            bar(counted[0], total)

        hb = _evaluate(h, puzzle, boards, batch_size, done)
        hc = np.zeros((n, 4), dtype=np.float64)
        hc[valid] = _evaluate(h, puzzle, kids[valid], batch_size, done)
        at_goal = float(_evaluate(h, puzzle, puzzle.goal[None, :].astype(np.uint8), 1)[0])
        if solver is None:
            if table is None:
                table = _memory_table(puzzle)
            d = table._t.grade_boards(boards, hb, hc, lambda k, _: bar(estimated + k, total))
            return _grade(name, d, at_goal, "boards")
        assert uniq is not None and inverse is not None
        r = solver.solve_batch(uniq, progress=lambda k, _: bar(estimated + k, total))
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
