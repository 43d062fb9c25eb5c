"""Labelled data sets in one call: boards with their exact distances (and optimal moves), for
training and testing learned heuristics.

* ``balanced_sample``: from a perfect table (boards up to 12 cells), the same number of
  boards at every depth (capped at what a depth holds, or drawn with replacement).
* ``labelled_walks``: past a table (the 15-puzzle), boards from random walks of chosen
  lengths, each labelled by an optimal solver in parallel, resumable from a results directory.

Both return a ``Dataset``, which saves with ``np.savez`` (or Parquet, with pyarrow).

Example
-------
>>> import slidetable as st
>>> table = st.Table.build(st.Puzzle(3, 3))
>>> data = st.balanced_sample(table, per_depth=100, seed=1)
>>> data.boards.shape, int(data.distances.max())
((2454, 9), 31)
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._common import Boards, Convention, _int, _seed
from .conventions import _TILE_TO_BLANK, MOVES, _convention
from .puzzle import Puzzle
from .search import Solver
from .table import Table, _memory_table

__all__ = ["Dataset", "balanced_sample", "labelled_walks"]


def _npz(path: str) -> str:
    """The file ``np.savez`` writes for ``path``: ``.npz`` added unless it ends in ``.npz`` (a
    ``.parquet`` path is left alone)."""
    return path if path.endswith((".npz", ".parquet")) else path + ".npz"


@dataclasses.dataclass(frozen=True, eq=False)
class Dataset:
    """Boards with their exact distances to the goal of ``puzzle``.

    Made by ``balanced_sample`` and ``labelled_walks``; saved by ``save`` and read
    back by ``load``. ``len(dataset)`` is its number of boards, ``N``; row ``i`` of every
    array is board ``i``.

    Examples
    --------
    >>> import slidetable as st
    >>> d = st.balanced_sample(st.Table.build(st.Puzzle(3, 3)), 2, depths=[0, 1, 2], seed=3)
    >>> d
    Dataset(Puzzle(3, 3, goal='blank-last'), 5 boards, distances 0-2)
    >>> d.boards[1], d.distances.tolist(), d.first_moves.tolist()
    (array([1, 2, 3, 4, 5, 6, 7, 0, 8], dtype=uint8), [0, 1, 1, 2, 2], [-1, 3, 1, 1, 1])
    >>> d.optimal_moves[1]  # the blank moves right (R)
    array([False, False, False,  True])
    """

    puzzle: Puzzle
    """The puzzle (shape and goal) the distances are measured on."""
    boards: Boards
    """``(N, cells)`` uint8: the boards, row-major, 0 the blank."""
    distances: npt.NDArray[np.int16]
    """``(N,)`` int16: each board's exact distance (the optimal solution length)."""
    optimal_moves: Optional[npt.NDArray[np.bool_]]
    """``(N, 4)`` bool, from a table: which of the moves ``U D L R`` (in ``convention``)
    lead one move closer (all False at the goal); None where only one optimal move is known."""
    first_moves: npt.NDArray[np.int8]
    """``(N,)`` int8: the first move of one optimal solution, as an action ``0..3`` = ``U D L
    R`` in ``convention`` (-1 at the goal)."""
    walk_lengths: Optional[npt.NDArray[np.int16]] = None
    """``(N,)`` int16 for ``labelled_walks``: the random walk that made each board (its
    distance is at most that); None for a table's sample."""
    convention: Convention = "blank"
    """The convention of the move labels: ``"blank"`` (the blank's direction, as made) or
    ``"tile"`` (the tile's, as the Gymnasium environments use by default): see
    ``in_convention``."""

    def __len__(self) -> int:
        return int(self.boards.shape[0])

    def __repr__(self) -> str:
        d = self.distances
        span = f"distances {int(d.min())}-{int(d.max())}" if len(d) else "empty"
        return f"Dataset({self.puzzle!r}, {len(self)} boards, {span})"

    def _frame_columns(self) -> dict:
        cols: dict = {f"c{i}": np.ascontiguousarray(self.boards[:, i]) for i in range(self.boards.shape[1])}
        cols["distance"] = np.asarray(self.distances)
        cols["first_move"] = np.asarray(self.first_moves)
        if self.optimal_moves is not None:
            for k, letter in enumerate("UDLR"):
                cols[f"optimal_{letter}"] = np.ascontiguousarray(self.optimal_moves[:, k])
        if self.walk_lengths is not None:
            cols["walk_length"] = np.asarray(self.walk_lengths)
        return cols

    def to_pandas(self) -> Any:
        """The data set as a pandas DataFrame: a row per board, its cells as columns ``c0`` to
        ``c{cells-1}`` (the boards' dtype), then ``distance``, ``first_move`` (an action number,
        -1 at the goal), ``optimal_U`` ... ``optimal_R`` (bool, where known) and ``walk_length``
        (walks only), all in ``convention``.

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
        >>> df = st.balanced_sample(st.Table.build(st.Puzzle(2, 2)), 1, seed=1).to_pandas()
        >>> list(df.columns)[:6], df["distance"].tolist()
        (['c0', 'c1', 'c2', 'c3', 'distance', 'first_move'], [0, 1, 2, 3, 4, 5, 6])
        """
        from ._frames import pandas_frame

        return pandas_frame(self._frame_columns(), "Dataset")

    def to_polars(self) -> Any:
        """The data set as a polars DataFrame: the columns of ``to_pandas``.

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
        >>> st.balanced_sample(st.Table.build(st.Puzzle(2, 2)), 1, seed=1).to_polars()["distance"].to_list()
        [0, 1, 2, 3, 4, 5, 6]
        """
        from ._frames import polars_frame

        return polars_frame(self._frame_columns(), "Dataset")

    def _repr_html_(self) -> str:
        from .pictures import table_html

        d = self.distances
        rows = [
            ("puzzle", f"{self.puzzle.rows}x{self.puzzle.cols}, goal {self.puzzle.goal_name}"),
            ("boards", f"{len(self):,}"),
            ("distances", f"{int(d.min())} to {int(d.max())}, mean {float(d.mean()):.2f}" if len(d) else "none"),
            ("move labels", f"{self.convention} convention"),
        ]
        return table_html(rows, "Dataset")

    def in_convention(self, convention: Convention) -> "Dataset":
        """The same data set with its move labels in ``convention``.

        Parameters
        ----------
        convention : {"blank", "tile"}
            ``"tile"`` to train a policy for an environment whose actions move tiles (the
            Gymnasium environments' default), ``"blank"`` for the blank's moves.

        Returns
        -------
        Dataset
            A new data set (the boards and distances shared, the labels relabelled): action
            ``U`` of the blank is ``D`` of the tile, and so on.

        Raises
        ------
        ValueError
            An unknown convention.

        Examples
        --------
        >>> import slidetable as st
        >>> d = st.balanced_sample(st.Table.build(st.Puzzle(3, 3)), 1, depths=[1], seed=3)
        >>> d.first_moves.tolist(), d.in_convention("tile").first_moves.tolist()  # D of the blank is U of the tile
        ([1], [0])
        """
        _convention(convention)
        if convention == self.convention:
            return self
        # the swap U<->D, L<->R is its own inverse: the same map both ways
        first = np.where(self.first_moves >= 0, _TILE_TO_BLANK[np.maximum(self.first_moves, 0)], -1).astype(np.int8)
        opt = None if self.optimal_moves is None else self.optimal_moves[:, _TILE_TO_BLANK]
        return dataclasses.replace(self, first_moves=first, optimal_moves=opt, convention=convention)

    def save(self, path: Union[str, os.PathLike[str]]) -> str:
        """Writes the data set to a file: ``.npz``, or Parquet.

        Parameters
        ----------
        path : str or os.PathLike
            A ``.parquet`` file (needs pyarrow; one row per board, the board as a list column,
            the puzzle in the file's metadata) or else ``np.savez`` (``.npz``, added to a name
            without it, as numpy does): arrays ``boards``, ``distances``, ``first_moves``,
            ``shape``, ``goal``, and ``optimal_moves`` and ``walk_lengths`` where there are.
            ``load`` reads either.

        Returns
        -------
        str
            The path written (with ``.npz`` added where numpy adds it).

        Raises
        ------
        ImportError
            A ``.parquet`` file without pyarrow.
        OSError
            The file cannot be written.

        Examples
        --------
        >>> import os, tempfile, slidetable as st
        >>> d = st.balanced_sample(st.Table.build(st.Puzzle(3, 3)), 10, seed=1)
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     written = d.save(os.path.join(folder, "eight"))
        ...     back = st.Dataset.load(os.path.join(folder, "eight"))  # .npz added, as save did
        >>> os.path.basename(written)
        'eight.npz'

        >>> back, bool((back.boards == d.boards).all())
        (Dataset(Puzzle(3, 3, goal='blank-last'), 287 boards, distances 0-31), True)
        """
        path = _npz(os.fspath(path))
        columns = self._columns()
        if path.endswith(".parquet"):
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError as e:
                raise ImportError("writing Parquet needs pyarrow (pip install pyarrow); or save to a .npz file") from e
            p = self.puzzle
            rows = {k: list(v) if v.ndim == 2 else v for k, v in columns.items() if k not in ("shape", "goal", "convention")}
            # the puzzle goes in the file's metadata: a column holds one value a board
            meta = {
                b"slidetable.shape": f"{p.rows},{p.cols}".encode(),
                b"slidetable.goal": ",".join(str(int(t)) for t in p.goal.reshape(-1)).encode(),
                b"slidetable.convention": self.convention.encode(),
            }
            pq.write_table(pa.table(rows).replace_schema_metadata(meta), path)
        else:
            np.savez(path, **columns)
        return path

    def _columns(self) -> dict[str, Any]:
        p = self.puzzle
        cols = {
            "boards": self.boards,
            "distances": self.distances,
            "first_moves": self.first_moves,
            "shape": np.array([p.rows, p.cols], dtype=np.int64),
            "goal": p.goal.reshape(-1).astype(np.int64),
            "convention": np.array(self.convention),
        }
        if self.optimal_moves is not None:
            cols["optimal_moves"] = self.optimal_moves
        if self.walk_lengths is not None:
            cols["walk_lengths"] = self.walk_lengths
        return cols

    @classmethod
    def load(cls, path: Union[str, os.PathLike[str]]) -> "Dataset":
        """Reads what ``save`` wrote (``.npz``, or ``.parquet`` with pyarrow).

        Parameters
        ----------
        path : str or os.PathLike
            The file: Parquet if its name ends in ``.parquet``, else ``.npz`` (added to a name
            without it, as ``save`` adds it).

        Returns
        -------
        Dataset
            The puzzle and arrays saved, in their dtypes (boards uint8, distances int16, ...).

        Raises
        ------
        ImportError
            A ``.parquet`` file without pyarrow.
        OSError
            The file cannot be read (``FileNotFoundError``, ...).
        ValueError
            A Parquet file not written by ``save`` (no slidetable metadata); a file that is
            not ``.npz`` (numpy's message).
        KeyError
            An ``.npz`` file without the arrays ``save`` writes.

        Examples
        --------
        >>> import os, tempfile, slidetable as st
        >>> d = st.labelled_walks(st.Puzzle(3, 3), 5, 12, seed=1)
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     _ = d.save(os.path.join(folder, "walks.npz"))
        ...     st.Dataset.load(os.path.join(folder, "walks.npz")).walk_lengths
        array([12, 12, 12, 12, 12], dtype=int16)
        """
        path = _npz(os.fspath(path))
        if path.endswith(".parquet"):
            import pyarrow.parquet as pq

            t = pq.read_table(path)
            meta = t.schema.metadata or {}
            if b"slidetable.shape" not in meta:
                raise ValueError(f"{path} was not written by Dataset.save (no slidetable metadata)")
            shape = [int(x) for x in meta[b"slidetable.shape"].split(b",")]
            goal = [int(x) for x in meta[b"slidetable.goal"].split(b",")]
            convention = meta.get(b"slidetable.convention", b"blank").decode()
            cols = {k: np.array(v) for k, v in t.to_pydict().items()}
        else:
            with np.load(path) as f:
                cols = {k: f[k] for k in f.files}
            shape, goal = [int(x) for x in cols["shape"]], [int(x) for x in cols["goal"]]
            convention = str(cols["convention"]) if "convention" in cols else "blank"
        puzzle = Puzzle(int(shape[0]), int(shape[1]), [int(x) for x in goal])
        return cls(
            puzzle=puzzle,
            boards=cols["boards"].astype(np.uint8),
            distances=cols["distances"].astype(np.int16),
            optimal_moves=cols["optimal_moves"].astype(bool) if "optimal_moves" in cols else None,
            first_moves=cols["first_moves"].astype(np.int8),
            walk_lengths=cols["walk_lengths"].astype(np.int16) if "walk_lengths" in cols else None,
            convention=_convention(convention),  # type: ignore[arg-type]
        )


def _first_of(moves: np.ndarray) -> np.ndarray:
    """The first True column of each row (-1 where none)."""
    first = np.argmax(moves, axis=1).astype(np.int8)
    first[~moves.any(axis=1)] = -1
    return first


def balanced_sample(
    table: Table,
    per_depth: int,
    depths: Optional[Sequence[int]] = None,
    replace: bool = False,
    seed: int = 1,
    progress: Union[bool, Callable[[int, int], Any], None] = None,
) -> Dataset:
    """``per_depth`` boards from each depth of ``table``, with their distances and optimal moves.

    Parameters
    ----------
    table : Table
        A perfect table (``Table.build``, ``Table.open``).
    per_depth : int
        Boards wanted at each depth. Without ``replace`` a depth gives distinct boards, as many
        as it holds when that is fewer (3x3: depth 1 holds 2, depth 31 holds 2), so the total
        may be less than ``per_depth`` times the depths.
    depths : sequence of int, optional
        The depths to draw from (default: every depth, the goal's 0 included). A depth past
        the table's ``Table.max_depth`` gives no boards.
    replace : bool
        ``False`` (default): distinct boards. ``True``: every depth that has boards gives
        exactly ``per_depth``, each drawn uniformly and independently (a small depth repeats).
    seed : int
        The same seed gives the same boards, in the same order: depth by depth, each depth's
        boards in random order. 0 to 2**64 - 1.
    progress : bool or callable, optional
        The sample is one scan of the table (about a second on 3x4, 239.5 million states),
        then each board's optimal moves: by default a ``tqdm`` bar of both (the states
        scanned, then the boards labelled: ``len(table)`` plus the boards in all) shows once
        the call has run a second; ``True`` shows it at once, ``False`` shows nothing, and a
        function is called as ``progress(done, total)`` in those steps. Ctrl-C stops the scan
        within a few million states, and the labelling within a million boards.

    Returns
    -------
    Dataset
        ``boards`` uint8 ``(N, cells)`` and ``distances`` int16 ``(N,)``, with
        ``optimal_moves`` ``(N, 4)`` from the table and ``first_moves`` their first;
        ``walk_lengths`` None.

    Raises
    ------
    ValueError
        A negative ``per_depth``, a depth past 255, a seed past 2**64 - 1.
    TypeError
        ``table`` not a ``Table``; ``per_depth``, a depth or ``seed`` not an integer;
        ``replace`` not True or False; ``progress`` none of the above.
    KeyboardInterrupt
        Ctrl-C (the kernel's interrupt) during the scan.

    Examples
    --------
    >>> import slidetable as st
    >>> t = st.Table.build(st.Puzzle(3, 3))
    >>> d = st.balanced_sample(t, 5, depths=range(28, 32), replace=True, seed=2)
    >>> d.distances.tolist()
    [28, 28, 28, 28, 28, 29, 29, 29, 29, 29, 30, 30, 30, 30, 30, 31, 31, 31, 31, 31]
    """
    if not isinstance(table, Table):
        raise TypeError(f"table must be a slidetable.Table, not {type(table).__name__}")
    per = _int(per_depth, "per_depth")
    if not isinstance(replace, bool):
        raise TypeError(f"replace must be True or False, not {type(replace).__name__}")
    ds = None if depths is None else [_int(d, "a depth") for d in depths]
    if ds is not None and len(set(ds)) != len(ds):
        raise ValueError(f"depths {ds} name a depth twice: give each depth once (per_depth boards are drawn at each)")
    from ._progress import Count

    # the bar: the table's states scanned, then the boards drawn labelled with their optimal
    # moves (a piece at a time, so Ctrl-C stops that part too)
    hist = table.histogram()
    chosen = range(len(hist)) if ds is None else [d for d in set(ds) if d < len(hist)]
    planned = sum(per if replace else min(per, int(hist[d])) for d in chosen if hist[d] > 0)
    n = len(table)
    total = n + planned
    with Count(progress, f"{table.puzzle.rows}x{table.puzzle.cols} balanced sample", " steps") as bar:
        boards, found = table._t.sample_balanced(per, ds, replace, _seed(seed), lambda done, _: bar(done, total))
        moves = np.zeros((len(boards), 4), dtype=bool)
        piece = 1 << 20
        for start in range(0, len(boards), piece):
            stop = min(len(boards), start + piece)
            moves[start:stop] = table.optimal_moves(boards[start:stop])
            bar(n + stop, total)
    return Dataset(
        puzzle=table.puzzle,
        boards=boards,
        distances=found.astype(np.int16),
        optimal_moves=moves,
        first_moves=_first_of(moves),
    )


def _settings_key(puzzle: Puzzle, count: int, steps: Tuple[int, int], seed: int, chunk: int) -> str:
    text = repr((puzzle.rows, puzzle.cols, puzzle.goal.reshape(-1).tolist(), count, steps, seed, chunk))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _walks(puzzle: Puzzle, n: int, steps: Tuple[int, int], seed: int, chunk_index: int) -> Tuple[np.ndarray, np.ndarray]:
    """Chunk ``chunk_index``'s ``n`` boards: walk lengths drawn in ``steps``, then the walks."""
    rng = np.random.default_rng([seed, chunk_index])
    lengths = rng.integers(steps[0], steps[1] + 1, size=n).astype(np.int16)
    boards = np.zeros((n, puzzle.cells), dtype=np.uint8)
    for length in np.unique(lengths):
        rows = np.nonzero(lengths == length)[0]
        walk_seed = int(rng.integers(0, 2**63))
        boards[rows] = puzzle.random_walk(len(rows), int(length), seed=walk_seed)
    return boards, lengths


def labelled_walks(
    puzzle: Puzzle,
    count: int,
    steps: Union[int, Tuple[int, int]],
    seed: int = 0,
    solver: Optional[Solver] = None,
    dir: Union[str, os.PathLike] = ".",
    results: Union[str, os.PathLike, None] = None,
    chunk: int = 1000,
    progress: Union[bool, Callable[[int, int], Any], None] = None,
) -> Dataset:
    """``count`` boards made by random walks from the goal, labelled with exact distances by an
    optimal solver (on every core), for boards past a perfect table such as the 15-puzzle.

    Parameters
    ----------
    puzzle : Puzzle
        The puzzle: the walks start at its goal.
    count : int
        The number of boards.
    steps : int or (int, int)
        The walks' length, or a ``(lo, hi)`` pair: each walk's length drawn uniformly from
        ``lo`` to ``hi``. A walk never steps straight back, but may come back by a longer way,
        so a board's distance is at most its walk's length.
    seed : int
        The same seed (with the same ``count``, ``steps`` and ``chunk``) gives the same boards.
        0 to 2**64 - 1.
    solver : Solver, optional
        The optimal solver that labels them (default: a table for boards of up to 10 cells,
        else, up to 16 cells, ``Solver(puzzle, partition="auto", dir=dir)``: pattern tables
        found in ``dir``, or built there once (the 15-puzzle's 6-6-3 in seconds; pass a Solver
        with ``partition="7-8"`` for speed), and past 16 cells ``Solver(puzzle, dir=dir)``.
        Its searches must be optimal (``IDA*`` or ``A*`` with pattern tables or an admissible heuristic).
    dir : str or os.PathLike
        Where the default solver's pattern tables are found or built (past 10 cells, without
        ``solver``); default the current directory.
    results : str or os.PathLike, optional
        A directory where each finished chunk of ``chunk`` boards is kept (``chunk-00000.npz``,
        written whole or not at all): a run stopped midway (Ctrl-C, a killed job) and started
        again with the same arguments solves only the chunks not there yet.
    chunk : int
        Boards per chunk: solved together, reported to ``progress`` and kept in ``results``
        (at least 1; the boards depend on it, as on ``seed``).
    progress : bool or callable, optional
        A bar of the boards labelled (``tqdm.auto``: a widget in Jupyter, text in a terminal)
        once the call has run a second (the default, None); ``True`` from the start;
        ``False`` none; or a function called with ``(boards done, count)`` after each chunk.

    Returns
    -------
    Dataset
        ``boards`` uint8 ``(count, cells)``, ``distances`` int16, ``first_moves`` int8 (an
        optimal solution's first move) and ``walk_lengths`` int16; ``optimal_moves`` (all of
        them, ``(count, 4)`` bool) only from a table, else None.

    Raises
    ------
    ValueError
        Bad counts or lengths (negative, ``lo > hi``, not a pair), a seed past 2**64 - 1, a
        solver for another puzzle or whose searches are not optimal (naming the board), a
        results directory holding chunks of other settings.
    TypeError
        ``puzzle`` or ``solver`` of the wrong type; a count, length, seed or chunk not an
        integer.
    OSError
        ``results`` cannot be made or written.

    Examples
    --------
    >>> import os, tempfile, slidetable as st
    >>> p = st.Puzzle(3, 3)
    >>> d = st.labelled_walks(p, 5, (10, 20), seed=1)
    >>> d.walk_lengths.tolist(), d.distances.tolist()
    ([15, 15, 18, 20, 10], [15, 15, 16, 20, 8])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     a = st.labelled_walks(p, 10, 12, seed=2, results=folder, chunk=4)
    ...     print(sorted(os.listdir(folder)))
    ...     b = st.labelled_walks(p, 10, 12, seed=2, results=folder, chunk=4)  # read back, not solved
    ['chunk-00000.npz', 'chunk-00001.npz', 'chunk-00002.npz']
    >>> bool((a.boards == b.boards).all() and (a.distances == b.distances).all())
    True
    """
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
    count = _int(count, "count")
    chunk = _int(chunk, "chunk", 1)
    if isinstance(steps, tuple):
        if len(steps) != 2:
            raise ValueError(f"steps must be a length or a (lo, hi) pair, not {steps!r}")
        lo, hi = _int(steps[0], "steps"), _int(steps[1], "steps")
    else:
        lo = hi = _int(steps, "steps")
    if lo > hi:
        raise ValueError(f"steps ({lo}, {hi}): lo must not exceed hi")
    if hi > np.iinfo(np.int16).max:
        raise ValueError(f"steps {hi} is past 32,767, the longest walk a data set records (walk_lengths are int16)")
    seed = _seed(seed)
    table = None
    if solver is None:
        if puzzle.cells <= 10:
            table = _memory_table(puzzle)
        elif 12 < puzzle.cells <= 16:
            # pattern tables, found in dir or built there once (the 15-puzzle's 6-6-3 in seconds):
            # IDA* with linear conflict alone takes minutes on a long walk's board
            solver = Solver(puzzle, partition="auto", dir=dir)
        else:
            solver = Solver(puzzle, dir=dir)
    elif not isinstance(solver, Solver):
        raise TypeError(f"solver must be a slidetable.Solver, not {type(solver).__name__}")
    elif solver.puzzle != puzzle:
        raise ValueError(f"the solver is for {solver.puzzle!r}, not {puzzle!r}")
    key = _settings_key(puzzle, count, (lo, hi), seed, chunk)
    folder = None if results is None else os.fspath(results)
    if folder is not None:
        os.makedirs(folder, exist_ok=True)
    parts = []
    chunks = (count + chunk - 1) // chunk
    done = 0
    from ._progress import Count

    with Count(progress, f"{puzzle.rows}x{puzzle.cols} boards labelled", " boards") as bar:
        for c in range(chunks):
            n = min(chunk, count - c * chunk)
            path = None if folder is None else os.path.join(folder, f"chunk-{c:05d}.npz")
            if path is not None and os.path.exists(path):
                with np.load(path) as f:
                    if str(f["settings"]) != key:
                        raise ValueError(
                            f"{path} holds boards of other settings (puzzle, count, steps, seed or chunk): "
                            f"give another results directory, or empty this one"
                        )
                    part = {k: f[k] for k in ("boards", "distances", "first_moves", "walk_lengths", "optimal_moves")}
            else:
                boards, lengths = _walks(puzzle, n, (lo, hi), seed, c)
                if table is not None:
                    moves = table.optimal_moves(boards)
                    part = {
                        "boards": boards,
                        "distances": table.distance(boards).astype(np.int16),
                        "first_moves": _first_of(moves),
                        "walk_lengths": lengths,
                        "optimal_moves": moves,
                    }
                else:
                    assert solver is not None
                    r = solver.solve_batch(boards, progress=False)
                    if not r.optimal.all():
                        bad = int(np.argmin(r.optimal))
                        why = r.errors[bad] or "the search does not prove its solutions optimal"
                        raise ValueError(f"board {c * chunk + bad} was not solved optimally ({why}): give an optimal solver")
                    first = np.array([MOVES.index(m[0]) if m else -1 for m in r.moves], dtype=np.int8)
                    part = {
                        "boards": boards,
                        "distances": r.lengths.astype(np.int16),
                        "first_moves": first,
                        "walk_lengths": lengths,
                        "optimal_moves": np.zeros((0, 4), bool),
                    }
                if path is not None:
                    tmp = path + ".tmp.npz"
                    np.savez(tmp, settings=np.array(key), **part)
                    os.replace(tmp, path)
            parts.append(part)
            done += n
            bar(done, count)

    def cat(k: str, dtype: Any, width: Optional[int] = None) -> np.ndarray:
        arrays = [p[k] for p in parts]
        if not arrays:
            return np.zeros((0,) if width is None else (0, width), dtype=dtype)
        return np.concatenate(arrays).astype(dtype)

    return Dataset(
        puzzle=puzzle,
        boards=cat("boards", np.uint8, puzzle.cells),
        distances=cat("distances", np.int16),
        optimal_moves=cat("optimal_moves", bool, 4) if table is not None else None,
        first_moves=cat("first_moves", np.int8),
        walk_lengths=cat("walk_lengths", np.int16),
    )
