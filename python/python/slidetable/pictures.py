"""Pictures of the puzzle's objects, for notebooks and papers: boards as SVG, a solution played
as an animation, and the small HTML summaries Jupyter shows for the package's objects.

Jupyter renders these without a call: a ``BoardPicture`` (``st.picture(board)`` or
``Puzzle.picture(board)``) shows as SVG, a ``Solution`` found for a known board as its start and
an animation that plays it, and ``Puzzle``, ``Table``, ``Grade``, ``Dataset`` and ``BatchResult``
as compact HTML. Everything is plain SVG and HTML (the animation is SVG's own ``animateTransform``):
no JavaScript, nothing to install. ``repr()`` in a terminal is unchanged. ``to_svg()`` gives the
SVG as a string and ``save(path)`` writes it to a file, for a paper or a slide.

The colours are the teaching page's (``table serve``): tiles light grey, a tile already where the
goal has it light blue, the blank and the frame dark.

Examples
--------
>>> import slidetable as st
>>> pic = st.picture([8, 6, 7, 2, 5, 4, 3, 0, 1])
>>> pic
BoardPicture(3x3: 8 6 7 / 2 5 4 / 3 _ 1)
>>> svg = pic.to_svg()
>>> svg.startswith("<svg") and svg.count('class="tile') == 8
True
"""

from __future__ import annotations

import html
import math
import os
from typing import TYPE_CHECKING, Optional, Sequence

import numpy as np

from ._common import BoardLike

if TYPE_CHECKING:  # pragma: no cover
    from .puzzle import Puzzle

__all__ = ["BoardPicture", "picture"]

TILE = "#e9ecef"
HOME = "#d0ebff"
FRAME = "#343a40"
INK = "#111111"
GAP = 4
PAD = 4
FONT = 'font-family="DejaVu Sans, Verdana, sans-serif" font-weight="bold"'


def _cell_size(rows: int, cols: int, size: Optional[int]) -> int:
    """Pixels a cell: ``size`` if given, else 48 up to 5 columns and smaller past it."""
    if size is not None:
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
            raise TypeError(f"size must be a whole number of pixels, not {type(size).__name__}")
        if not 8 <= size <= 1000:
            raise ValueError(f"a cell is 8 to 1000 pixels, not {size}")
        return int(size)
    return 48 if max(rows, cols) <= 5 else max(16, 240 // max(rows, cols))


def _tile(n: int, x: float, y: float, s: int, home: bool, recolour: str = "") -> str:
    """Tile ``n`` at ``(x, y)``, light blue when ``home``; ``recolour`` an ``<animate>`` of its
    colour, if it changes."""
    font = max(8, round(s * 0.45))
    fill = HOME if home else TILE
    rect = f'<rect width="{s}" height="{s}" rx="{max(2, s // 12)}" fill="{fill}"'
    rect += f">{recolour}</rect>" if recolour else "/>"
    return (
        f'<g class="tile{" home" if home else ""}" data-tile="{n}" transform="translate({x:g},{y:g})">'
        f"{rect}"
        f'<text x="{s / 2:g}" y="{s / 2:g}" dy="0.35em" text-anchor="middle" font-size="{font}" fill="{INK}" {FONT}>{n}</text>'
        "</g>"
    )


def _frame(rows: int, cols: int, s: int) -> tuple[int, int, str]:
    w = PAD * 2 + cols * s + (cols - 1) * GAP
    h = PAD * 2 + rows * s + (rows - 1) * GAP
    rect = f'<rect class="frame" width="{w}" height="{h}" rx="6" fill="{FRAME}"/>'
    return w, h, rect


def _at(cell: int, cols: int, s: int) -> tuple[int, int]:
    r, c = divmod(cell, cols)
    return PAD + c * (s + GAP), PAD + r * (s + GAP)


def board_svg(cells: Sequence[int], rows: int, cols: int, goal: Optional[Sequence[int]] = None, size: Optional[int] = None, title: str = "") -> str:
    """One board as an SVG document (a string): each tile a ``<g class="tile">`` with its
    number (``data-tile``), the blank a ``<rect class="blank">``; tiles where ``goal`` has them
    drawn light blue."""
    s = _cell_size(rows, cols, size)
    w, h, frame = _frame(rows, cols, s)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img">',
        f"<title>{html.escape(title)}</title>" if title else "",
        frame,
    ]
    for i, n in enumerate(cells):
        x, y = _at(i, cols, s)
        if n == 0:
            parts.append(f'<rect class="blank" data-cell="{i}" x="{x}" y="{y}" width="{s}" height="{s}" fill="{FRAME}"/>')
        else:
            parts.append(_tile(int(n), x, y, s, goal is not None and int(goal[i]) == int(n)))
    parts.append("</svg>")
    return "".join(parts)


def solution_svg(cells: Sequence[int], rows: int, cols: int, moves: str, goal: Optional[Sequence[int]] = None, size: Optional[int] = None, seconds_per_move: float = 0.5) -> str:
    """An SVG that plays ``moves`` (the blank's, ``U D L R``) from ``cells``: each tile that moves
    slides with SVG's own ``animateTransform``, a move every ``seconds_per_move``, the start held
    a moment before the first and the goal after the last, then again; a tile turns light blue
    as it arrives where the goal has it, and back as it leaves. No JavaScript."""
    if isinstance(seconds_per_move, bool) or not isinstance(seconds_per_move, (int, float, np.integer, np.floating)) or not (
        math.isfinite(seconds_per_move) and seconds_per_move > 0
    ):
        raise ValueError(f"seconds_per_move must be a number of seconds above 0, not {seconds_per_move!r}")
    s = _cell_size(rows, cols, size)
    w, h, frame = _frame(rows, cols, s)
    board = [int(n) for n in cells]
    where = {n: i for i, n in enumerate(board)}  # tile -> cell
    # each tile's cell after each move: the tile the blank swaps with moves to the blank's cell
    paths = {n: [i] for n, i in where.items() if n != 0}
    step = {"U": -cols, "D": cols, "L": -1, "R": 1}
    blank = where[0]
    for k, m in enumerate(moves):
        if m not in step:
            raise ValueError(f"move {k + 1} is {m!r}: moves are the blank's, U D L R")
        to = blank + step[m]
        if not (0 <= to < rows * cols) or (m in "LR" and to // cols != blank // cols):
            raise ValueError(f"move {k + 1} ({m}) takes the blank off the board")
        tile = board[to]
        board[blank], board[to] = tile, 0
        for n, p in paths.items():
            p.append(blank if n == tile else p[-1])
        blank = to
    n_moves = len(moves)
    # the timeline: the start held for two moves' time, each move, the goal held for three
    hold0, hold1 = 2, 3
    total = (hold0 + n_moves + hold1) * seconds_per_move
    times = [0.0] + [(hold0 + k) * seconds_per_move / total for k in range(n_moves + 1)] + [1.0]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img">',
        f"<title>{n_moves} move{'' if n_moves == 1 else 's'}: {html.escape(moves) or '(at the goal)'}</title>",
        frame,
    ]
    # the blank's cells are the frame's colour already: only the tiles are drawn
    for i in range(rows * cols):
        x, y = _at(i, cols, s)
        parts.append(f'<rect class="cell" x="{x}" y="{y}" width="{s}" height="{s}" fill="{FRAME}"/>')
    keys = ";".join(f"{t:.4f}" for t in times)
    for n, p in sorted(paths.items()):
        x, y = _at(p[0], cols, s)
        homes = [goal is not None and int(goal[c]) == n for c in p]
        recolour = ""
        if len(set(homes)) > 1:
            # the colour of each cell on its way, switched as the tile arrives (discrete steps
            # on the slide's own times: the held start, each move, the held goal)
            fills = ";".join(HOME if h else TILE for h in [homes[0]] + homes + [homes[-1]])
            recolour = (
                f'<animate attributeName="fill" values="{fills}" keyTimes="{keys}" calcMode="discrete" '
                f'dur="{total:g}s" repeatCount="indefinite"/>'
            )
        g = _tile(n, x, y, s, homes[0], recolour)
        if len(set(p)) > 1 and n_moves:
            xy = [_at(c, cols, s) for c in p]
            values = ";".join(f"{a},{b}" for a, b in [xy[0]] + xy + [xy[-1]])
            anim = (
                f'<animateTransform attributeName="transform" type="translate" values="{values}" '
                f'keyTimes="{keys}" dur="{total:g}s" repeatCount="indefinite"/>'
            )
            g = g[: -len("</g>")] + anim + "</g>"
        parts.append(g)
    parts.append("</svg>")
    return "".join(parts)


class BoardPicture:
    """A board to look at: Jupyter shows it as SVG; ``to_svg()`` and ``save(path)`` give the SVG
    for a paper. Made by ``st.picture(board)`` or ``Puzzle.picture(board)``.

    Tiles already where the goal has them are light blue; the blank is dark.

    Examples
    --------
    >>> import slidetable as st
    >>> pic = st.Puzzle(2, 2).picture([3, 1, 2, 0])
    >>> pic.board.tolist(), pic.puzzle
    ([3, 1, 2, 0], Puzzle(2, 2, goal='blank-last'))
    """

    def __init__(self, board: BoardLike, puzzle: "Puzzle", size: Optional[int] = None, title: str = ""):
        self.puzzle = puzzle
        """The puzzle (shape and goal) the board is drawn for."""
        cells = puzzle._one(board)
        if sorted(cells) != list(range(puzzle.cells)):
            raise ValueError(f"not a board of the {puzzle.rows}x{puzzle.cols}: {cells} (each tile 0 to {puzzle.cells - 1} once)")
        self.board = puzzle._out(cells)
        """The board's cells, row-major, ``0`` the blank (ndarray)."""
        if size is not None:
            if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
                raise TypeError(f"size must be a whole number of pixels, not {type(size).__name__}")
            _cell_size(puzzle.rows, puzzle.cols, size)  # refused now, not when Jupyter draws it
        self.size = size
        self.title = title

    def to_svg(self) -> str:
        """The board as an SVG document.

        Returns
        -------
        str
            ``<svg ...>``: each tile a ``<g class="tile">`` (``"tile home"`` where the goal has it)
            with ``data-tile``, the blank a ``<rect class="blank">`` with ``data-cell``.

        Examples
        --------
        >>> import slidetable as st
        >>> st.picture([1, 2, 3, 0], st.Puzzle(2, 2)).to_svg().count('class="tile home"')
        3
        """
        p = self.puzzle
        title = self.title or f"{p.rows}x{p.cols} board: {self._text()}"
        return board_svg([int(v) for v in self.board], p.rows, p.cols, [int(v) for v in p.goal], self.size, title)

    def save(self, path: "str | os.PathLike[str]") -> None:
        """Writes the SVG to a file.

        Parameters
        ----------
        path : str or path-like
            The file to write (``.svg``); replaced if it exists.

        Raises
        ------
        OSError
            The file cannot be written.

        Examples
        --------
        >>> import slidetable as st, tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "board.svg")
        >>> st.picture([1, 2, 3, 0], st.Puzzle(2, 2)).save(path)
        >>> open(path).read().startswith("<svg")
        True
        """
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.to_svg())

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def _text(self) -> str:
        c = self.puzzle.cols
        cells = ["_" if v == 0 else str(int(v)) for v in self.board]
        return " / ".join(" ".join(cells[r * c : (r + 1) * c]) for r in range(self.puzzle.rows))

    def __repr__(self) -> str:
        return f"BoardPicture({self.puzzle.rows}x{self.puzzle.cols}: {self._text()})"


def picture(board: BoardLike, puzzle: Optional["Puzzle"] = None, size: Optional[int] = None) -> BoardPicture:
    """A picture of one board, shown by Jupyter as SVG.

    Parameters
    ----------
    board : array_like of int
        One board, ``(cells,)`` or ``(rows, cols)``, ``0`` the blank.
    puzzle : Puzzle, optional
        Its shape and goal; by default the square board of as many cells (``(rows, cols)``
        arrays give their shape), goal ``blank-last``.
    size : int, optional
        Pixels a cell (48 by default up to 5 columns).

    Returns
    -------
    BoardPicture
        ``to_svg()``, ``save(path)``; Jupyter draws it.

    Raises
    ------
    TypeError
        A non-integer dtype.
    ValueError
        A flat board of a number of cells that is not square and no ``puzzle``; a tile out of
        range or repeated.

    Examples
    --------
    >>> import slidetable as st
    >>> st.picture([[1, 2, 3], [4, 5, 6], [7, 8, 0]])
    BoardPicture(3x3: 1 2 3 / 4 5 6 / 7 8 _)
    >>> st.picture([1, 2, 0, 3], st.Puzzle(2, 2)).to_svg().count('class="tile home"')
    2
    """
    from .puzzle import Puzzle

    if puzzle is None:
        a = np.asarray(board)
        if a.ndim == 2:
            puzzle = Puzzle(int(a.shape[0]), int(a.shape[1]))
        else:
            side = int(round(a.size**0.5))
            if side * side != a.size or a.ndim != 1:
                raise ValueError(
                    f"a flat board of {a.size} cells is not square: give its puzzle (st.Puzzle(rows, cols)) or a (rows, cols) array"
                )
            puzzle = Puzzle(side, side)
    return BoardPicture(board, puzzle, size)


def table_html(rows: Sequence[tuple[str, str]], title: str) -> str:
    """A small two-column HTML table under a bold title: what Jupyter shows for a summary."""
    body = "".join(f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(k)}</th><td style='text-align:left'>{html.escape(v)}</td></tr>" for k, v in rows)
    return f"<div class='slidetable'><b>{html.escape(title)}</b><table>{body}</table></div>"
