"""Plots of tables, grades and searches with matplotlib (the extra ``slidetable[plot]``): each
call draws into ``ax`` (or a new figure's) and returns the ``Axes``, as pandas' ``.plot`` does.

* ``distribution(table)``: the states at each distance (figure 3 of the 1987 report), linear or
  log scale; also ``Table.plot()``.
* ``grade(g)``: a graded heuristic's mean estimate against the true distance, with the band of
  one standard deviation of its error and the line ``h = h*``; also ``Grade.plot()``.
* ``nodes(results)``: nodes generated against solution depth for searches compared, log scale.
* ``heatmap(table, heuristic)``: the states at each (h*, h), log colour scale (the 3x3 and other
  small tables: every state is estimated).

matplotlib is imported when a plot is drawn: ``import slidetable`` never needs it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Mapping, Optional, Union, cast

import numpy as np

from ._common import _estimates_of

if TYPE_CHECKING:  # pragma: no cover
    from .grading import Grade
    from .solution import BatchResult
    from .table import Table

__all__ = ["distribution", "grade", "nodes", "heatmap"]

BLUE = "#1864ab"
#: The colours of the grades drawn into one Axes, in turn (blue first, then colour-blind-safe
#: contrasts).
GRADE_COLOURS = [BLUE, "#e8590c", "#2b8a3e", "#862e9c", "#c2255c", "#495057"]


def _check(value: Any, kind: str, name: str) -> None:
    """Refuses ``value`` unless it is the package's ``kind`` (Table, Grade), in a word."""
    if type(value).__name__ != kind or not type(value).__module__.startswith("slidetable"):
        raise TypeError(f"{name} must be a slidetable.{kind}, not {type(value).__name__}")


def _axes(ax: Any) -> Any:
    """``ax``, or a new figure's Axes; matplotlib imported here, with a clear word if missing."""
    if ax is not None:
        return ax
    try:
        plt = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise ImportError("plots need matplotlib: pip install matplotlib (or slidetable[plot])") from None
    return plt.subplots()[1]


def distribution(table: "Table", log: bool = False, ax: Any = None) -> Any:
    """The states at each distance from the goal, as bars (figure 3 of the 1987 report).

    Parameters
    ----------
    table : Table
        A perfect table.
    log : bool
        A log scale for the counts (the few states near the goal and at the far end show).
    ax : matplotlib Axes, optional
        Where to draw; default a new figure's.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into.

    Raises
    ------
    ImportError
        matplotlib is not installed.

    Examples
    --------
    >>> import slidetable as st, matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = st.plots.distribution(st.Table.build(st.Puzzle(3, 3)), log=True)
    >>> len(ax.patches), ax.get_yscale()
    (32, 'log')
    """
    _check(table, "Table", "table")
    if not isinstance(log, bool):
        raise TypeError(f"log must be True or False, not {log!r}")
    h = table.histogram()
    ax = _axes(ax)
    ax.bar(np.arange(len(h)), h, color=BLUE, width=0.85)
    if log:
        ax.set_yscale("log")
    p = table.puzzle
    ax.set_xlabel("distance from the goal (moves)")
    ax.set_ylabel("states" + (" (log scale)" if log else ""))
    ax.set_title(f"{p.rows}x{p.cols}, goal {p.goal_name}: {int(h.sum()):,} states")
    return ax


def grade(g: "Grade", ax: Any = None) -> Any:
    """A graded heuristic's mean estimate at each true distance, against ``h = h*``.

    The band is one standard deviation of the error either side of the mean; where the band
    crosses above the diagonal the heuristic overestimates some boards (``g.over_share`` per
    depth says how many). Grades drawn into the same ``ax`` are compared: each in its own
    colour, named in the legend and the title.

    Parameters
    ----------
    g : Grade
        A grade (``Table.grade``, ``st.grade``).
    ax : matplotlib Axes, optional
        Where to draw; default a new figure's.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    TypeError
        ``g`` is not a ``Grade``.

    Examples
    --------
    >>> import slidetable as st, matplotlib
    >>> matplotlib.use("Agg")
    >>> t = st.Table.build(st.Puzzle(3, 3))
    >>> ax = st.plots.grade(t.grade("manhattan"))
    >>> ax = st.plots.grade(t.grade("misplaced"), ax=ax)
    >>> [line.get_label() for line in ax.get_lines()]
    ['h = h*', 'mean h (manhattan)', 'mean h (misplaced)']
    """
    _check(g, "Grade", "g")
    ax = _axes(ax)
    drawn = [line for line in ax.get_lines() if str(line.get_label()).startswith("mean h (")]
    colour = GRADE_COLOURS[len(drawn) % len(GRADE_COLOURS)]
    seen = np.asarray(g.states) > 0
    depth = np.arange(len(g.states))[seen]
    mean = np.asarray(g.mean_h)[seen]
    top = float(max(depth.max(initial=0), mean.max(initial=0)))
    if not drawn:
        ax.plot([0, top], [0, top], color="black", linewidth=1, linestyle="--", label="h = h*")
    if len(g.rmse) == len(g.states):
        err = np.asarray(g.mean_error)[seen]
        spread = np.sqrt(np.maximum(0.0, np.asarray(g.rmse)[seen] ** 2 - err**2))
        band = f"± one standard deviation ({g.name})"
        ax.fill_between(depth, mean - spread, mean + spread, color=colour, alpha=0.2, linewidth=0, label=band)
    ax.plot(depth, mean, color=colour, marker="o", markersize=3, label=f"mean h ({g.name})")
    ax.set_xlabel("h*, the exact distance")
    ax.set_ylabel("h, the estimate")
    verdict = f"{g.name}: MAE {g.total_mae:.2f}, {'admissible' if g.admissible else 'not admissible'}"
    ax.set_title(verdict if not drawn else f"{ax.get_title()}\n{verdict}")
    ax.legend(loc="upper left")
    return ax


def nodes(results: Mapping[str, "BatchResult"], depths: Any, ax: Any = None) -> Any:
    """Nodes generated against solution depth, for searches compared on the same boards: the
    mean at each depth, a line per search, log scale.

    Parameters
    ----------
    results : mapping of str to BatchResult
        Each search's results on the same boards (``solve_batch`` with one algorithm or
        heuristic each), by the name to show.
    depths : array_like of int
        Each board's depth (the optimal length), in the boards' order.
    ax : matplotlib Axes, optional
        Where to draw; default a new figure's.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    ValueError
        A result of another number of boards than ``depths``.
    TypeError
        ``results`` not a dict of ``BatchResult``.

    Examples
    --------
    >>> import slidetable as st, matplotlib
    >>> matplotlib.use("Agg")
    >>> t = st.Table.build(st.Puzzle(3, 3))
    >>> boards = [t.sample(d, 5, seed=1) for d in (4, 8, 12)]
    >>> import numpy as np
    >>> boards, depths = np.concatenate(boards), np.repeat([4, 8, 12], 5)
    >>> runs = {h: st.solve_batch(boards, t.puzzle, heuristic=h, algorithm="astar") for h in ("misplaced", "manhattan")}
    >>> len(st.plots.nodes(runs, depths).get_lines())
    2
    """
    if not isinstance(results, Mapping) or not results:
        raise TypeError(f"results must be a dict of names to BatchResults (at least one), not {type(results).__name__}")
    for r in results.values():
        _check(r, "BatchResult", "each result")
    d = np.asarray(depths)
    ax = _axes(ax)
    for name, r in results.items():
        if len(r) != len(d):
            raise ValueError(f"{name}: {len(r)} boards, but {len(d)} depths")
        ok = r.lengths >= 0
        xs = np.unique(d[ok])
        ys = [float(np.asarray(r.generated, dtype=np.float64)[ok & (d == x)].mean()) for x in xs]
        ax.plot(xs, ys, marker="o", label=name)
    ax.set_yscale("log")
    ax.set_xlabel("solution depth (moves)")
    ax.set_ylabel("nodes generated (mean, log scale)")
    ax.legend()
    return ax


def heatmap(
    table: "Table",
    heuristic: Union[str, Any] = "manhattan",
    ax: Any = None,
    max_states: int = 2_000_000,
    states: Any = None,
    name: Optional[str] = None,
) -> Any:
    """The states at each (h*, h) of a heuristic, every state of the table estimated (or the
    boards ``states``): darker for more (log scale), the diagonal ``h = h*`` drawn; cells right
    of it are overestimates. A fractional estimate is drawn in the column of its nearest whole
    number; the title's count of overestimates is exact (``h > h*``, as ``Grade`` counts them).

    Parameters
    ----------
    table : Table
        A perfect table of at most ``max_states`` states (the 3x3's 181,440; the 2x5's
        1,814,400).
    heuristic : str or callable
        A heuristic's name (``misplaced``, ``manhattan``, ``linear-conflict``, ``nilsson``) or a
        function of a batch of boards (a learned heuristic), numbers out.
    ax : matplotlib Axes, optional
        Where to draw; default a new figure's.
    max_states : int
        The largest table drawn whole (every state is estimated); past it, give ``states``.
    states : array_like of int, optional
        Boards to draw instead of every state: a sample of a big table, e.g.
        ``table.unrank(np.random.default_rng(0).integers(0, len(table), 100_000))``.
    name : str, optional
        The heuristic's name in the title and on the axis (default: its name, or the function's).

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn into (its image: ``ax.images[0]``).

    Raises
    ------
    ImportError
        matplotlib is not installed.
    ValueError
        A table past ``max_states`` without ``states``; a heuristic giving NaN or infinity;
        a board that cannot reach the goal.
    TypeError
        ``table`` not a ``Table``; ``heuristic`` neither a name nor a function.

    Examples
    --------
    >>> import slidetable as st, matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = st.plots.heatmap(st.Table.build(st.Puzzle(3, 3)), "misplaced")
    >>> ax.images[0].get_array().shape
    (32, 32)
    """
    _check(table, "Table", "table")
    if not (isinstance(heuristic, str) or callable(heuristic)):
        raise TypeError(f"heuristic must be a name or a function of a batch of boards, not {type(heuristic).__name__}")
    if states is None:
        n = len(table)
        if n > max_states:
            raise ValueError(
                f"the table has {n:,} states, past max_states={max_states:,}: a heat map estimates every state; draw a sample, "
                "states=table.unrank(np.random.default_rng(0).integers(0, len(table), 100_000))"
            )
        boards = table.unrank(np.arange(n))
    else:
        boards = table.puzzle._boards(states, np.uint8)[0]
        n = len(boards)
    exact = table.distance(boards).astype(np.int64)
    if (exact < 0).any():
        i = int(np.argmax(exact < 0))
        raise ValueError(f"board {i}, {table.puzzle.grid(boards[i])!r}, cannot reach the goal: map boards that can")
    if callable(heuristic):
        value = _estimates_of(heuristic(np.array(boards)), n)
        name = name or getattr(heuristic, "__name__", "h")
    else:
        value = np.asarray(table.puzzle.heuristic(boards, cast(Any, heuristic)), dtype=np.float64)
        name = name or str(heuristic)
    if not np.isfinite(value).all():
        i = int(np.argmax(~np.isfinite(value)))
        raise ValueError(
            f"the heuristic gave {value[i]} for board {i}, {table.puzzle.grid(boards[i])!r}: a heat map needs finite numbers"
        )
    over = int((value > exact).sum())
    h = np.rint(value).astype(np.int64)
    rows = int(exact.max()) + 1
    cols = max(rows, int(h.max(initial=0)) + 1)
    counts = np.zeros((rows, cols), dtype=np.int64)
    np.add.at(counts, (exact, np.clip(h, 0, cols - 1)), 1)
    ax = _axes(ax)
    colors = importlib.import_module("matplotlib.colors")
    shown = np.ma.masked_equal(counts, 0)
    image = ax.imshow(shown, origin="upper", cmap="viridis_r", norm=colors.LogNorm(vmin=1, vmax=max(1, counts.max())), aspect="auto",
                      interpolation="nearest")
    ax.plot([-0.5, rows - 0.5], [-0.5, rows - 0.5], color="black", linewidth=1)
    ax.figure.colorbar(image, ax=ax, label="states (log scale)")
    whole = bool((value == h).all())
    ax.set_xlabel(f"h, {name}" + ("" if whole else " (to the nearest whole number)"))
    ax.set_ylabel("h*, the exact distance")
    where = f"all {n:,} states" if states is None else f"{n:,} boards"
    ax.set_title(f"{name}: {over:,} overestimates of {where}" if over else f"{name}: admissible on {where}")
    return ax
