"""Many boards solved on a Dask cluster: ``solve_batch`` split into tasks, tables opened once per worker.

Needs Dask's ``distributed`` (the ``dask`` extra: ``pip install "./python[dask]"`` from a clone,
or ``pip install distributed``).

Point it at a real cluster::

    import slidetable.dask
    from distributed import Client
    client = Client("tcp://scheduler:8786")
    result = slidetable.dask.solve_batch(boards, puzzle, client=client, dir="/shared/tables")

The tables directory (``dir``) is opened by every worker on its own machine, so it must be
readable there at that path: a shared file system, or a copy at the same path on each machine.
Build the pattern tables once beforehand (``slidetable.PatternDB.load(puzzle, partition,
dir=...)`` or the CLI) rather than letting every worker build the missing ones at once.

How it works
------------
* The boards are cut into chunks of ``chunk_size``; each chunk is one Dask task, which runs
  ``slidetable.Solver.solve_batch`` on it (``threads`` threads, default 1: Dask runs as
  many tasks at once per worker as the worker has threads).
* The solver, with its tables, lives on each worker: a ``SolverPlugin`` (a
  ``distributed.WorkerPlugin``) registered on the client opens it once when the worker starts
  it (and on every worker that joins later, e.g. one restarted after a crash), keyed by the
  solver's parameters so that solvers for different puzzles or heuristics live side by side.
  ``worker_stats`` tells how many times each worker opened each solver.
* Results come back as the tasks finish and are put in input order. A worker that dies
  mid-run loses its running tasks, which Dask runs again elsewhere; each chunk's result is
  kept once (by its index), whatever happens.
* With ``results_file``, every finished chunk is appended there at once as a JSON line, so an
  interrupted run can be resumed: run the same call again and only the chunks missing from
  the file are computed.

Examples
--------
A cluster in this process (threads, no worker processes) is enough to try it:

>>> import slidetable as st
>>> import slidetable.dask
>>> from distributed import Client
>>> client = Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None)
>>> boards = [[8, 6, 7, 2, 5, 4, 3, 0, 1], [1, 2, 3, 4, 5, 6, 0, 7, 8], [1, 2, 3, 4, 5, 6, 7, 0, 8]]
>>> result = slidetable.dask.solve_batch(boards, st.Puzzle(3, 3), client=client, heuristic="manhattan",
...                                      chunk_size=2)
>>> result.lengths, result.moves[1:]
(array([31,  2,  1], dtype=int32), ['RR', 'R'])
>>> client.close()
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import os
import threading
import sys
import time
import uuid
from typing import Any, Callable, Optional, Union

import numpy as np

try:
    import distributed
    from distributed import WorkerPlugin
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "slidetable.dask needs Dask's distributed scheduler: pip install distributed "
        "(or install slidetable with its dask extra)"
    ) from e

import slidetable as st
from slidetable import _core
from slidetable._common import Algorithm, BoardLike, Convention, SearchHeuristic, _int

__all__ = ["solve_batch", "build_table", "SolverPlugin", "worker_stats", "RESULTS_VERSION"]

#: The ``"version"`` of the lines ``solve_batch`` writes to a results file.
RESULTS_VERSION = 1

# In each worker process: how many times each solver (by plugin name) was opened, and the
# solvers opened outside a plugin (a task that ran on a worker without the plugin).
_LOADS: dict[str, int] = {}
_FALLBACK: dict[str, "SolverPlugin"] = {}
_LOCK = threading.Lock()


class SolverPlugin(WorkerPlugin):
    """Opens a ``slidetable.Solver`` once on each worker and keeps it there.

    Registered by ``solve_batch`` under ``name`` (derived from the parameters, so two
    different solvers coexist and a second run with the same parameters reuses the solver
    already open: the plugin is ``idempotent``). The tasks find it with
    ``distributed.get_worker().plugins[name]``. Its ``setup`` loads the tables in a thread, so
    the worker keeps answering the scheduler while a large table is read.

    Counters kept on the worker (see ``worker_stats``): ``load_seconds`` (the time the
    solver took to open), ``chunks`` and ``boards`` (the work done with it).

    Parameters
    ----------
    puzzle : slidetable.Puzzle
        The boards' puzzle.
    heuristic : str, default "auto"
        A heuristic's name, as ``slidetable.Solver`` takes it (``"pdb"`` for pattern
        tables; a ``slidetable.PatternDB`` or a function cannot be sent to the workers).
    partition : str, optional
        The pattern tables' partition, as ``slidetable.Solver`` takes it.
    dir : str or os.PathLike, default "."
        Where each worker finds (or builds) the tables: a path on the workers' machines.
    reflect : bool, default True
        As ``slidetable.Solver``: also look boards up reflected (on square boards).
    build_missing : bool, default True
        Build the tables missing from ``dir`` (on each worker) rather than fail.
    share_tables : bool, default True
        Keep the tables as the files' memory mappings, shared by the workers of a machine
        (see ``solve_batch``).

    Attributes
    ----------
    name : str
        The plugin's name on the workers: ``slidetable-solver-`` and a digest of the parameters.
    solver : slidetable.Solver or None
        The solver, once open (None on the client, and in a pickled copy).
    load_seconds : float
        The time the solver took to open.
    chunks : int
        The chunks solved with it (on this worker).
    boards : int
        The boards solved with it (on this worker).

    Raises
    ------
    TypeError
        A ``puzzle`` that is not a ``slidetable.Puzzle``, a ``heuristic`` that is not a
        name. (The solver's own errors, e.g. an unknown heuristic or partition, come when it is
        opened: from ``load``, on the workers.)

    Examples
    --------
    >>> from slidetable.dask import SolverPlugin
    >>> plugin = SolverPlugin(st.Puzzle(3, 3), heuristic="manhattan")
    >>> plugin
    SolverPlugin(Puzzle(3, 3, goal='blank-last'), heuristic='manhattan', partition=None, dir='.')
    >>> plugin.name
    'slidetable-solver-3ac2c9dde93f477d'
    >>> plugin.name == SolverPlugin(st.Puzzle(3, 3), heuristic="manhattan").name   # the same solver
    True
    """

    idempotent = True

    def __init__(
        self,
        puzzle: st.Puzzle,
        heuristic: SearchHeuristic = "auto",
        partition: Optional[str] = None,
        dir: Union[str, os.PathLike] = ".",
        reflect: bool = True,
        build_missing: bool = True,
        share_tables: bool = True,
    ):
        if not isinstance(puzzle, st.Puzzle):
            raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
        if not isinstance(heuristic, str):
            raise TypeError(
                "heuristic must be a name (a PatternDB cannot be sent to the workers: pass "
                "heuristic='pdb', its partition and the dir each worker loads it from)"
            )
        self.puzzle = puzzle
        self.heuristic = heuristic
        self.partition = partition
        self.dir = os.fspath(dir)
        self.reflect = bool(reflect)
        self.build_missing = bool(build_missing)
        self.share_tables = bool(share_tables)
        key = repr(
            (
                puzzle.shape,
                [int(t) for t in puzzle.goal],
                heuristic,
                partition,
                self.dir,
                self.reflect,
                self.build_missing,
                self.share_tables,
            )
        )
        self.name = "slidetable-solver-" + hashlib.sha256(key.encode()).hexdigest()[:16]
        self.solver: Optional[st.Solver] = None
        self.load_seconds = 0.0
        self.chunks = 0
        self.boards = 0

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["solver"] = None  # the open tables stay where they are; a copy opens its own
        return state

    def __repr__(self) -> str:
        return f"SolverPlugin({self.puzzle!r}, heuristic={self.heuristic!r}, partition={self.partition!r}, dir={self.dir!r})"

    async def setup(self, worker: Any) -> None:
        """Opens the solver on ``worker`` (in a thread, off the worker's event loop).

        Dask calls it when the plugin is registered, and on each worker that joins later.

        Parameters
        ----------
        worker : distributed.Worker
            The worker (unused: the solver is kept on the plugin, which the worker holds).

        Raises
        ------
        ValueError, OSError, slidetable.TableError
            As ``load``: registering the plugin then fails with the error.

        Examples
        --------
        >>> import asyncio
        >>> from slidetable.dask import SolverPlugin
        >>> plugin = SolverPlugin(st.Puzzle(3, 3), heuristic="manhattan")
        >>> asyncio.run(plugin.setup(None))
        >>> plugin.solver
        Solver(Puzzle(3, 3, goal='blank-last'), heuristic='manhattan')
        """
        await asyncio.get_running_loop().run_in_executor(None, self.load)

    def teardown(self, worker: Any) -> None:
        """Lets the solver go (Dask calls it when the plugin is removed or the worker closes).

        Parameters
        ----------
        worker : distributed.Worker
            The worker (unused).

        Raises
        ------
        Nothing.

        Examples
        --------
        >>> from slidetable.dask import SolverPlugin
        >>> plugin = SolverPlugin(st.Puzzle(3, 3), heuristic="manhattan")
        >>> _ = plugin.load()
        >>> plugin.teardown(None)
        >>> plugin.solver is None
        True
        """
        self.solver = None

    def load(self) -> st.Solver:
        """Opens the solver if it is not open yet (once per plugin, whatever the threads).

        Returns
        -------
        slidetable.Solver
            The solver, open (the same object on every call).

        Raises
        ------
        ValueError
            What ``slidetable.Solver`` raises: an unknown heuristic or partition, tables
            missing from ``dir`` with ``build_missing=False``.
        OSError
            A table file that cannot be read (or, building one, written).
        slidetable.TableError
            A damaged table file.

        Examples
        --------
        >>> from slidetable.dask import SolverPlugin
        >>> plugin = SolverPlugin(st.Puzzle(3, 3), heuristic="manhattan")
        >>> plugin.load()
        Solver(Puzzle(3, 3, goal='blank-last'), heuristic='manhattan')
        >>> plugin.load() is plugin.solver
        True
        """
        with _LOCK:
            if self.solver is None:
                start = time.perf_counter()
                solver = st.Solver(
                    self.puzzle,
                    self.heuristic,
                    self.partition,
                    self.dir,
                    reflect=self.reflect,
                    build_missing=self.build_missing,
                    share_tables=self.share_tables,
                )
                self.load_seconds = time.perf_counter() - start
                self.solver = solver
                _LOADS[self.name] = _LOADS.get(self.name, 0) + 1
            return self.solver


def _worker_plugin(plugin: SolverPlugin) -> tuple[SolverPlugin, str]:
    """The copy of ``plugin`` set up on this worker (or, failing that, one kept in this process)
    and the worker's address."""
    try:
        worker = distributed.get_worker()
    except ValueError:  # not on a worker (a test calling the task function directly)
        worker = None
    if worker is not None:
        mine = worker.plugins.get(plugin.name)
        if isinstance(mine, SolverPlugin):
            mine.load()  # a no-op unless its setup failed or has not run
            return mine, str(worker.address)
    with _LOCK:
        mine = _FALLBACK.setdefault(plugin.name, plugin)
    mine.load()
    return mine, "" if worker is None else str(worker.address)


def _current_worker() -> Any:
    """The Dask worker running this task, or None outside one."""
    try:
        return distributed.get_worker()
    except ValueError:
        return None


def _memory_limit(worker: Any) -> Optional[int]:
    """A worker's ``memory_limit`` in bytes, None without one (distributed 2022.5 and later keep
    it on the worker's memory manager; ``Worker.memory_limit`` is gone)."""
    for owner in (getattr(worker, "memory_manager", None), worker):
        limit = getattr(owner, "memory_limit", None)
        if limit:
            return int(limit)
    return None


def _solve_chunk(plugin: SolverPlugin, boards: np.ndarray, options: dict[str, Any]) -> dict[str, Any]:
    """The task: one chunk solved with this worker's solver (moves in the blank convention)."""
    mine, address = _worker_plugin(plugin)
    assert mine.solver is not None
    # an array unpickled from Dask's out-of-band buffers can be misaligned, which the engine
    # refuses (np.ascontiguousarray keeps it so): take an aligned copy
    boards = np.require(boards, np.uint16, ["C_CONTIGUOUS", "ALIGNED"])
    if options.get("max_memory") is None:
        # the worker's memory_limit, which its nanny enforces by killing it: the searches keep to
        # half of it (the tables and Dask's own data take the rest)
        limit = _memory_limit(_current_worker())
        if limit:
            options = {**options, "max_memory": max(1, int(limit) // 2)}
    r = mine.solver.solve_batch(boards, **options)
    with _LOCK:
        mine.chunks += 1
        mine.boards += len(boards)
    return {
        "lengths": r.lengths,
        "moves": list(r.moves),
        "generated": r.generated,
        "expanded": r.expanded,
        "seconds": r.seconds,
        "optimal": r.optimal,
        "lower_bounds": r.lower_bounds,
        "stopped": list(r.stopped) if r.stopped is not None else [None] * len(boards),
        "errors": [None if e is None else str(e) for e in r.errors],
        "worker": address,
        "load_seconds": float(mine.load_seconds),
    }


def _stats(dask_worker: Any = None) -> dict[str, dict[str, Any]]:
    plugins = dict(getattr(dask_worker, "plugins", {}) or {})
    out: dict[str, dict[str, Any]] = {}
    for source, table in (("plugin", plugins), ("fallback", _FALLBACK)):
        for name, p in table.items():
            if isinstance(p, SolverPlugin) and name not in out:
                out[name] = {
                    "loads": _LOADS.get(name, 0),
                    "chunks": p.chunks,
                    "boards": p.boards,
                    "load_seconds": p.load_seconds,
                    "open": p.solver is not None,
                    "source": source,
                    "solver": repr(p),
                }
    return out


def worker_stats(client: Optional[distributed.Client] = None) -> dict[str, dict[str, dict[str, Any]]]:
    """What each worker did, by worker address and then by solver (plugin name).

    Counts belong to the worker process: a worker restarted by its nanny starts again from 0.

    Parameters
    ----------
    client : distributed.Client, optional
        The cluster's client; default: the current one (the last created).

    Returns
    -------
    dict of str to dict of str to dict
        ``{worker address: {plugin name: stats}}``, the stats of a solver being ``loads`` (int:
        how many times this worker process opened the solver, 1 once it has been used),
        ``chunks`` and ``boards`` (int: the work done with it), ``load_seconds`` (float),
        ``open`` (bool), ``source`` (``"plugin"``, or ``"fallback"`` for one opened by a task
        on a worker without the plugin) and ``solver`` (str, the plugin's repr).

    Raises
    ------
    ValueError
        Without ``client`` when there is no current client.

    Examples
    --------
    >>> from distributed import Client
    >>> from slidetable.dask import SolverPlugin, solve_batch, worker_stats
    >>> client = Client(processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None)
    >>> boards = [[8, 6, 7, 2, 5, 4, 3, 0, 1], [1, 2, 3, 4, 5, 6, 0, 7, 8], [1, 2, 3, 4, 5, 6, 7, 0, 8]]
    >>> _ = solve_batch(boards, st.Puzzle(3, 3), client=client, heuristic="misplaced", chunk_size=2)
    >>> (stats,) = worker_stats(client).values()           # one worker
    >>> s = stats[SolverPlugin(st.Puzzle(3, 3), heuristic="misplaced").name]
    >>> s["chunks"], s["boards"], s["open"], s["source"]
    (2, 3, True, 'plugin')
    >>> client.close()
    """
    return _client(client).run(_stats)


def _client(client: Optional[distributed.Client]) -> distributed.Client:
    if client is not None:
        return client
    try:
        return distributed.default_client()
    except ValueError:
        raise ValueError(
            "no Dask client: pass client=distributed.Client(...) (a LocalCluster or a scheduler's address)"
        ) from None


def _chunk_hash(puzzle: st.Puzzle, boards: np.ndarray, settings: str = "") -> str:
    """A digest of a chunk's boards, the puzzle and the search's settings, to recognise them in
    a results file (a rerun with another heuristic or limit must not reuse old answers)."""
    h = hashlib.sha256(f"{puzzle.rows}x{puzzle.cols}:{[int(t) for t in puzzle.goal]}:{settings}:".encode())
    h.update(np.ascontiguousarray(boards, dtype="<u2").tobytes())
    return h.hexdigest()[:32]


_FIELDS = ("lengths", "moves", "generated", "expanded", "seconds", "optimal", "errors")


def _read_results(path: str, hashes: list[str], chunk_size: int, total: int) -> tuple[dict[int, dict[str, Any]], int]:
    """The chunks recorded in ``path`` (checked against this input) and the length of the file
    up to its last complete line: a last line without its newline is a write cut short (a
    killed run) and is dropped."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.rfind(b"\n") + 1
    done: dict[int, dict[str, Any]] = {}
    for number, line in enumerate(data[:end].split(b"\n")[:-1], 1):
        if not line.strip():
            continue
        where = f"results file {path}, line {number}"
        try:
            rec = json.loads(line)
            i, start, count, digest = int(rec["chunk"]), int(rec["start"]), int(rec["count"]), str(rec["hash"])
            if any(len(rec[k]) != count for k in _FIELDS):
                raise ValueError("a field has the wrong number of entries")
        except (ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{where} is not a slidetable.dask result ({e}): pass another results_file") from None
        if not 0 <= i < len(hashes) or start != i * chunk_size or count != min(chunk_size, total - start):
            raise ValueError(
                f"{where}: chunk {i} (boards {start} to {start + count - 1}) does not fit {total} boards "
                f"in chunks of {chunk_size}: the file was written for other boards or another chunk_size"
            )
        if digest != hashes[i]:
            raise ValueError(
                f"{where}: chunk {i} was solved for other boards or settings than these (a different "
                "input, puzzle, heuristic, algorithm or limit): pass another results_file, or remove "
                "this one to start over"
            )
        done.setdefault(i, rec)  # a chunk recorded twice (two runs at once) counts once
    return done, end


def _record(i: int, start: int, digest: str, r: dict[str, Any]) -> dict[str, Any]:
    """A finished chunk as the JSON-ready line of a results file."""
    return {
        "version": RESULTS_VERSION,
        "chunk": i,
        "start": start,
        "count": len(r["lengths"]),
        "hash": digest,
        "lengths": [int(x) for x in r["lengths"]],
        "moves": r["moves"],
        "generated": [int(x) for x in r["generated"]],
        "expanded": [int(x) for x in r["expanded"]],
        "seconds": [float(x) for x in r["seconds"]],
        "optimal": [bool(x) for x in r["optimal"]],
        "lower_bounds": [int(x) for x in r["lower_bounds"]],
        "stopped": r["stopped"],
        "errors": r["errors"],
        "worker": r["worker"],
        "load_seconds": r["load_seconds"],
    }


def solve_batch(
    states: BoardLike,
    puzzle: st.Puzzle,
    client: Optional[distributed.Client] = None,
    heuristic: SearchHeuristic = "auto",
    partition: Optional[str] = None,
    dir: Union[str, os.PathLike] = ".",
    algorithm: Algorithm = "auto",
    chunk_size: int = 64,
    results_file: Union[str, os.PathLike, None] = None,
    max_nodes: Optional[int] = None,
    weight: Optional[float] = None,
    max_memory: Optional[int] = None,
    threads: Optional[int] = 1,
    convention: Convention = "blank",
    reflect: bool = True,
    build_missing: bool = True,
    progress: Union[bool, Callable[[int, int], Any], None] = None,
    timeout: Optional[float] = None,
    share_tables: bool = True,
    within: Optional[float] = None,
    time_limit: Optional[float] = None,
) -> st.BatchResult:
    """Solves many boards on a Dask cluster; the result is ``slidetable.solve_batch``'s.

    Parameters
    ----------
    states : array_like of int, shape (N, cells) or (N, rows, cols)
        The boards (any integer dtype, ``0`` the blank; one board ``(cells,)`` is a batch of
        one), checked here before anything is sent.
    puzzle : slidetable.Puzzle
        Their puzzle.
    client : distributed.Client, optional
        The cluster's client; default: the current one (the last created).
    heuristic : str, default "auto"
        The solver each worker opens, as ``slidetable.Solver`` takes it: a name only
        (``"pdb"`` for pattern tables, with ``partition`` and ``dir``).
    partition : str, optional
        The pattern tables' partition, as ``slidetable.Solver`` takes it.
    dir : str or os.PathLike, default "."
        Where the workers find (or build) the tables. It is read on the workers, so it must
        exist there (see the module's notes).
    algorithm : str, default "auto"
        The search, as ``slidetable.Solver.solve_batch`` takes it.
    chunk_size : int, default 64
        Boards per task. Larger chunks cost less scheduling; smaller ones balance better,
        lose less when a worker dies, and resume finer.
    results_file : str or os.PathLike, optional
        A file of JSON lines, one per finished chunk, appended as each chunk arrives (fields:
        ``chunk``, ``start``, ``count``, ``hash`` of the chunk's boards, ``lengths``, ``moves``
        in the blank convention, ``generated``, ``expanded``, ``seconds``, ``optimal``,
        ``lower_bounds`` (-1 where none is proven), ``stopped``, ``errors``, ``worker``, ``load_seconds``). If it exists, the chunks it records are
        taken from it and not solved again; its chunks must be of these boards with this
        ``chunk_size`` (else ``ValueError``). A last line cut short by a killed run is dropped.
        One run at a time per file.
    max_nodes : int, optional
        As ``slidetable.Solver.solve_batch``: a board whose search generates more nodes is
        marked ``FAILED``, with its reason in ``errors``.
    weight : float, optional
        The weight of the weighted searches, as ``slidetable.Solver.solve_batch``.
    max_memory : int, optional
        Bytes a search may hold, as ``slidetable.Solver.solve_batch`` (a board over it is
        marked ``FAILED``); default: half the worker's ``memory_limit``, where it has one.
    threads : int or None, default 1
        Threads each task's search uses (default 1: the parallelism is Dask's, one task per
        worker thread). ``None`` uses every core of the worker for each task.
    convention : {"blank", "tile"}
        The convention of the moves returned (``"blank"`` by default).
    reflect : bool, default True
        As ``slidetable.Solver``: also look boards up reflected (on square boards).
    build_missing : bool, default True
        Build the tables missing from ``dir`` on the workers (rather than fail). Better: build
        them once beforehand (see the module's notes).
    progress : bool or callable, optional
        A bar of the boards solved (``tqdm.auto``: a widget in Jupyter, text in a terminal)
        once the run has gone a second (the default, None); ``True`` from the start; ``False``
        none; or a function called as ``progress(done_boards, total_boards)``: once before any
        task finishes (with the boards taken from ``results_file``), then after each chunk.
    timeout : float, optional
        Seconds the whole run may take; past them ``TimeoutError`` is raised and the remaining
        tasks are cancelled (the chunks already written to ``results_file`` stay there).
    share_tables : bool, default True
        The workers keep the pattern tables as the files' memory mappings (default), so the
        workers of one machine share one copy in the page cache; False gives each worker a
        private copy (somewhat faster lookups, memory times the workers).
    within : float, optional
        Each solution proven at most ``within`` times the optimum, as
        ``slidetable.Solver.solve_batch``; the result's ``lower_bounds`` hold the proofs.
    time_limit : float, optional
        Seconds each board's search may take, as ``slidetable.Solver.solve_batch`` (a bounded
        search returns its best solution then).

    Returns
    -------
    slidetable.BatchResult
        In input order (``lengths`` int32, shape ``(N,)``, ``FAILED`` for a search that hit a
        limit; ``moves`` in ``convention``); ``wall_seconds`` is the time from the first
        submitted task to the last result, ``load_seconds`` the longest time a worker that
        solved a chunk of this run took to open its solver (as with ``slidetable.Solver``,
        reported again when the solver was already open from an earlier run; 0 if nothing was
        left to solve).

    Raises
    ------
    TypeError
        A ``puzzle`` that is not a ``slidetable.Puzzle``, a ``heuristic`` that is not a
        name, boards of a non-integer dtype, a ``chunk_size`` that is not an integer.
    ValueError
        An unknown ``convention``; ``chunk_size`` below 1; a wrong shape, a tile out of range
        or repeated (naming the board); a ``results_file`` written for other boards, settings
        or ``chunk_size``, or not a results file; no ``client`` and no current client.
    TimeoutError
        Past ``timeout`` seconds.
    OSError
        A ``results_file`` that cannot be read or written.
    Exception
        The error of a failing task, after cancelling the rest: what opening the solver or
        searching raises (e.g. ``ValueError`` for an unknown heuristic, partition or algorithm
        or for missing tables with ``build_missing=False``, ``slidetable.TableError`` for
        a damaged table). Ctrl-C cancels the remaining tasks too.

    Examples
    --------
    >>> import os, tempfile
    >>> from distributed import Client
    >>> from slidetable.dask import solve_batch
    >>> client = Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None)
    >>> boards = st.Table.build(st.Puzzle(3, 3)).sample(20, 10, seed=0)   # 10 boards 20 moves away
    >>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
    >>> r = solve_batch(boards, st.Puzzle(3, 3), client=client, heuristic="manhattan", chunk_size=4,
    ...                 results_file=path, convention="tile")
    >>> r.lengths
    array([20, 20, 20, 20, 20, 20, 20, 20, 20, 20], dtype=int32)
    >>> len(open(path).readlines())                       # one line per chunk: 4 + 4 + 2 boards
    3
    >>> again = solve_batch(boards, st.Puzzle(3, 3), client=client, heuristic="manhattan", chunk_size=4,
    ...                     results_file=path, convention="tile", progress=lambda done, total: print(done, total))
    10 10
    >>> again.moves == r.moves                            # read back from the file, nothing solved
    True
    >>> client.close()
    """
    if convention not in ("blank", "tile"):
        raise ValueError(f"unknown move convention {convention!r}: use 'blank' (the blank's direction) or 'tile'")
    chunk_size = _int(chunk_size, "chunk_size", 1)
    plugin = SolverPlugin(puzzle, heuristic, partition, dir, reflect, build_missing, share_tables)
    boards = _checked_boards(puzzle, states)
    total = len(boards)
    starts = list(range(0, total, chunk_size))
    settings = repr((heuristic, partition, reflect, algorithm, weight, max_nodes, max_memory))
    if within is not None or time_limit is not None:
        # only then, so that the results files of runs without them are still this run's
        settings += repr((within, time_limit))
    hashes = [_chunk_hash(puzzle, boards[s : s + chunk_size], settings) for s in starts]

    done: dict[int, dict[str, Any]] = {}
    path = None if results_file is None else os.fspath(results_file)
    keep = 0
    if path is not None and os.path.exists(path):
        done, keep = _read_results(path, hashes, chunk_size, total)

    options = {"algorithm": algorithm, "weight": weight, "max_nodes": max_nodes, "max_memory": max_memory, "threads": threads}
    if within is not None or time_limit is not None:
        options.update(within=within, time_limit=time_limit)
    todo = [i for i in range(len(starts)) if i not in done]
    boards_done = sum(len(done[i]["lengths"]) for i in done)
    from ._progress import Count

    bar = Count(progress, f"{puzzle.rows}x{puzzle.cols} boards solved on the cluster", " boards")
    bar(boards_done, total)
    load_seconds = 0.0
    wall = 0.0
    if todo:
        out = None
        if path is not None:
            out = open(path, "r+b" if os.path.exists(path) else "wb")
            out.truncate(keep)  # drop a line cut short, so the next one starts on its own line
            out.seek(keep)
        try:
            c = _client(client)
            _register(c, plugin)
            begin = time.perf_counter()
            run = uuid.uuid4().hex[:8]
            futures: dict[distributed.Future, int] = {}
            try:
                for i in todo:
                    s = starts[i]
                    f = c.submit(_solve_chunk, plugin, boards[s : s + chunk_size], options, key=f"slidetable-chunk-{run}-{i}")
                    futures[f] = i
                for f in distributed.as_completed(list(futures), timeout=timeout):
                    i = futures[f]
                    r = f.result()  # raises the task's error
                    f.release()
                    if i in done:  # a duplicate completion: the chunk is already kept
                        continue
                    rec = _record(i, starts[i], hashes[i], r)
                    done[i] = rec
                    if out is not None:
                        out.write((json.dumps(rec, separators=(",", ":")) + "\n").encode())
                        out.flush()
                        os.fsync(out.fileno())
                    load_seconds = max(load_seconds, float(r["load_seconds"]))
                    boards_done += rec["count"]
                    bar(boards_done, total)
            finally:
                bar.close()
                left = [f for f in futures if not f.done()]
                if left:
                    c.cancel(left)
            wall = time.perf_counter() - begin
        finally:
            if out is not None:
                out.close()
    bar.close()
    missing = [i for i in range(len(starts)) if i not in done]
    if missing:  # cannot happen: every future was waited for
        raise RuntimeError(f"chunks {missing[:10]} have no result")
    return _assemble(done, starts, total, convention, wall, load_seconds, puzzle.goal_name)


def _checked_boards(puzzle: st.Puzzle, states: BoardLike) -> np.ndarray:
    """``states`` as an (N, cells) uint16 array, checked as the solver would check it (a
    wrong shape, a tile out of range or repeated raise ``ValueError`` here, not on a worker)."""
    if not isinstance(puzzle, st.Puzzle):
        raise TypeError(f"puzzle must be a slidetable.Puzzle, not {type(puzzle).__name__}")
    a = np.asarray(states)
    if a.size == 0:
        return np.zeros((0, puzzle.cells), dtype=np.uint16)
    puzzle.is_solvable(a)  # checks the dtype, the shape and every tile, naming a bad board
    return np.ascontiguousarray(a.reshape(-1, puzzle.cells), dtype=np.uint16)  # one board is a batch of one


def _register(client: distributed.Client, plugin: SolverPlugin) -> None:
    """Registers ``plugin`` (each worker opens the solver now, and every worker that joins
    later on joining); a failure (e.g. missing tables) unregisters it so a later run retries."""
    try:
        client.register_plugin(plugin, name=plugin.name)
    except Exception:
        try:
            client.unregister_worker_plugin(plugin.name)
        except Exception:
            pass
        raise


def _assemble(
    done: dict[int, dict[str, Any]],
    starts: list[int],
    total: int,
    convention: Convention,
    wall: float,
    load_seconds: float,
    goal: str,
) -> st.BatchResult:
    lengths = np.empty(total, dtype=np.int32)
    generated = np.empty(total, dtype=np.uint64)
    expanded = np.empty(total, dtype=np.uint64)
    seconds = np.empty(total, dtype=np.float64)
    optimal = np.empty(total, dtype=np.bool_)
    lower_bounds = np.full(total, -1, dtype=np.int32)
    moves: list[Optional[str]] = [None] * total
    errors: list[Optional[str]] = [None] * total
    stopped: list[Optional[str]] = [None] * total
    for i, s in enumerate(starts):
        rec = done[i]
        e = s + len(rec["lengths"])
        lengths[s:e] = rec["lengths"]
        generated[s:e] = rec["generated"]
        expanded[s:e] = rec["expanded"]
        seconds[s:e] = rec["seconds"]
        optimal[s:e] = rec["optimal"]
        # a results file of an earlier version has no bounds: -1, unknown
        lower_bounds[s:e] = rec.get("lower_bounds", [-1] * (e - s))
        for k, m in enumerate(rec["moves"]):
            moves[s + k] = None if m is None else (st.to_tile_moves(m) if convention == "tile" else m)
        errors[s:e] = rec["errors"]
        # a results file of an earlier version says nothing of limits: None
        stopped[s:e] = rec.get("stopped", [None] * (e - s))
    return st.BatchResult(
        lengths=lengths,
        moves=moves,
        generated=generated,
        expanded=expanded,
        seconds=seconds,
        optimal=optimal,
        errors=errors,
        convention=convention,
        wall_seconds=wall,
        load_seconds=load_seconds,
        lower_bounds=lower_bounds,
        stopped=stopped,
        goal=goal,
    )


# ---------------------------------------------------------------------------------------------
# Perfect tables bigger than one machine's memory: the out-of-core build, its levels on workers

# In each worker process: the build workers opened, by (work directory, puzzle, the build_table
# call's tag): each keeps its three bitmaps and the source frontiers it decoded, for the next
# target it is given (and gives them up while it merges a block's codes). A new call in the same directory gets a new worker (the files may be new).
_BUILD_WORKERS: dict[tuple[str, str, str], tuple[Any, threading.Lock]] = {}


def _build_worker(puzzle: st.Puzzle, work_dir: str, memory: Optional[int], tag: str) -> tuple[Any, threading.Lock]:
    """This process's worker on the build in ``work_dir``, opened with the memory it may use:
    ``memory`` if given, else four fifths of its Dask worker's ``memory_limit`` (Dask pauses a
    worker at 80%), else what the machine (or its control group) has available; with the lock that its tasks take (a
    Dask worker with several threads runs several at once; one at a time uses every core)."""
    key = (work_dir, repr(puzzle), tag)
    with _LOCK:
        mine = _BUILD_WORKERS.get(key)
        if mine is None:
            for old in [k for k in _BUILD_WORKERS if k[0] == work_dir]:
                del _BUILD_WORKERS[old]
            if memory is None:
                limit = _memory_limit(_current_worker())
                memory = int(limit * 0.8) if limit else 0
            if not memory:
                memory = _core.available_memory() or 4 << 30
            need = _core.build_worker_memory(puzzle._p)
            if memory < need:
                raise _worker_too_small(puzzle, need, f"may use {_size(memory)}: give the workers a larger memory_limit")
            mine = (_core.BuildWorker(puzzle._p, work_dir, memory), threading.Lock())
            _BUILD_WORKERS[key] = mine
    return mine


def _expand_task(puzzle: st.Puzzle, work_dir: str, memory: Optional[int], tag: str, depth: int, target: int) -> int:
    """The task: level ``depth`` expanded into target block ``target`` (its frontier file of
    ``depth + 1`` written in the work directory); the states found there."""
    worker, lock = _build_worker(puzzle, work_dir, memory, tag)
    with lock:
        return int(worker.expand(depth, target))


def _merge_task(
    puzzle: st.Puzzle, work_dir: str, memory: Optional[int], tag: str, block: int, first: int, last: int
) -> int:
    """The task: block ``block``'s frontier files of depths ``first..last`` merged into its codes;
    the checksum of its codes."""
    worker, lock = _build_worker(puzzle, work_dir, memory, tag)
    with lock:
        return int(worker.merge(block, first, last))


def build_table(
    puzzle: st.Puzzle,
    path: Union[str, "os.PathLike[str]"],
    *,
    client: Optional[distributed.Client] = None,
    bits: int = 2,
    work_dir: Union[str, "os.PathLike[str]", None] = None,
    memory: Optional[int] = None,
    progress: Union[bool, Callable[[dict[str, Any]], Any], None] = None,
    max_depth: Optional[int] = None,
) -> Union[st.Table, st.PartialBuild]:
    """Builds the perfect table of ``puzzle`` on a Dask cluster, blank block by blank block, into
    the file ``path``; the same file, byte for byte, as ``table build`` or ``Table.build`` writes.

    The table is the library's out-of-core build (``table build --max-memory``): its ``n`` blank
    blocks live in files in ``work_dir``, which every worker must see at that path (a shared file
    system; on one machine, any directory). Each level of the breadth-first search is one task per
    target block (half the blocks), spread over the workers: a task reads its neighbours'
    frontier files, writes its block's next frontier, and returns its count. A level is a barrier
    and a checkpoint: the client records it in ``work_dir`` before the next starts, so a lost
    worker costs at most its task (Dask runs it again; a task run twice writes the same file), and
    a client stopped or killed resumes from the last complete level when ``build_table`` is
    called again with the same ``work_dir``. Now and then, and at the end, a block's frontier
    files are merged into its codes (a task per block, run beside the next level's tasks). The
    workers write the table file into
    ``work_dir``; the client writes its header and renames it to ``path`` (so ``path`` never
    holds half a table), then removes the work files.

    Frontiers go from worker to worker through the work directory rather than Dask's comms: a
    2x7 block's frontier is up to 390 MB, which the files keep out of the scheduler's memory,
    and the files are what a lost worker's replacement (or a resumed build) starts from. A
    worker also keeps the frontiers it has found or read decoded in memory, as many as its
    ``memory`` holds (the least recently used given up first), and reads a file only for one it
    does not hold: with room for three levels' worth, none is read back.

    Parameters
    ----------
    puzzle : slidetable.Puzzle
        The board and goal; 5 to 15 cells (the 3x5 needs about 16 GiB a worker and 573 GB of shared disk).
    path : str or os.PathLike
        The table file to write (replaced atomically).
    client : distributed.Client, optional
        The cluster; the default client when not given.
    bits : int, default 2
        Only 2: the out-of-core build writes two-bit tables (the distance modulo 3).
    work_dir : str or os.PathLike, optional
        The work directory, seen by every worker at the same path. Default: ``path`` with
        ``.work`` added. Needs up to 3.5 times the table's size free at the peak, as ``table
        build`` asks (see ``docs/scale.md``); with ``max_depth``, only what its levels take.
    memory : int, optional
        Bytes each worker's build may use. Default: four fifths of the worker's
        ``memory_limit``, or the memory available on its machine. A worker needs at least three
        one-bit bitmaps of a blank block (or, to merge, a block's codes and one bitmap) and the
        move tables: 1.4 GiB for the 2x7, 15.6 GiB for the 3x5; more lets it keep decoded source
        frontiers between its targets.
    progress : bool or callable, optional
        By default a ``tqdm`` bar of the states reached (level by level) shows once the build
        has run a second; ``True`` shows it at once, ``False`` shows nothing. A function is
        called with a dict after each level (``depth``, ``level_states``, ``reached``,
        ``total``, ``seconds``) and, once, with ``resumed`` (a depth) and ``reached`` when the
        build goes on with one found in ``work_dir``.
    max_depth : int, optional
        Stop after this depth (``table build --max-depth``): the levels stay in ``work_dir`` and
        a ``slidetable.PartialBuild`` (the distribution so far) comes back instead of a table;
        called again with a larger ``max_depth``, or none, the build goes on from there. Its
        disk is checked level by level instead of reserved at the start.

    Returns
    -------
    slidetable.Table or slidetable.PartialBuild
        The table, opened from ``path``; a ``PartialBuild`` when the search stopped at
        ``max_depth`` (its ``disk_read`` and ``disk_written`` are None: the workers' traffic is
        not gathered).

    Raises
    ------
    ValueError
        ``bits`` other than 2, a board too small or too large, a work directory that holds a
        build of another table or a damaged work file, a negative ``max_depth``, a disk whose
        room will not do (the levels done are kept), a ``work_dir`` that is ``path`` itself.
    FileNotFoundError
        ``path``'s directory does not exist (checked before any work).
    TypeError
        ``puzzle`` not a ``Puzzle``; ``progress`` none of the above; ``max_depth`` not a whole
        number.
    MemoryError
        A worker whose memory will not do (raised from the task).
    KeyboardInterrupt
        Ctrl-C (the kernel's interrupt): the build stops; called again with the same
        ``work_dir`` it resumes after the last level finished.

    Examples
    --------
    >>> import slidetable as st, slidetable.dask, tempfile, os
    >>> from distributed import Client
    >>> client = Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None)
    >>> folder = tempfile.mkdtemp()
    >>> table = slidetable.dask.build_table(st.Puzzle(2, 4), os.path.join(folder, "2x4.table"), client=client)
    >>> table.max_depth, int(table.histogram()[-1])
    (36, 1)
    >>> client.close()
    """
    if not isinstance(puzzle, st.Puzzle):
        raise TypeError(f"puzzle must be a slidetable.Puzzle (st.Puzzle(3, 4)), not {type(puzzle).__name__}")
    if bits != 2:
        raise ValueError(f"bits={bits}: the sharded build writes two-bit tables only (bits=2)")
    if memory is not None:
        if isinstance(memory, bool) or not isinstance(memory, int) or not 0 < memory < 2**63:
            raise ValueError(f"memory={memory!r}: give a positive whole number of bytes, like 4 << 30")
        need = _core.build_worker_memory(puzzle._p)
        if memory < need:
            raise _worker_too_small(puzzle, need, f"memory={memory} gives it {_size(memory)}")
    if max_depth is not None:
        if isinstance(max_depth, bool) or not isinstance(max_depth, (int, np.integer)):
            raise TypeError(f"max_depth={max_depth!r}: give a depth, a whole number from 0 to 2**32 - 1")
        if not 0 <= max_depth < 2**32:
            raise ValueError(f"max_depth={max_depth!r}: give a depth, a whole number from 0 to 2**32 - 1")
        max_depth = int(max_depth)
    from ._progress import Levels, check

    check(progress)
    client = _client(client)
    path = os.path.abspath(os.fspath(path))
    work = os.path.abspath(os.fspath(work_dir)) if work_dir is not None else path + ".work"
    if work == path:
        raise ValueError(f"the work directory and the table are both {path}: give another work_dir")
    if not os.path.isdir(os.path.dirname(path)):
        raise FileNotFoundError(f"writing {path}: its directory does not exist")
    driver = _core.BuildDriver(puzzle._p, work, max_depth)
    levels = Levels(progress, f"{puzzle.rows}x{puzzle.cols} table on the cluster")
    if driver.resumed is not None:
        levels({"resumed": driver.resumed[0], "reached": driver.resumed[1]})
    workers = sorted(client.scheduler_info()["workers"])
    tag = uuid.uuid4().hex[:8]

    def submit(tasks: list[tuple[Any, ...]], func: Callable[..., int], kind: str) -> list[Any]:
        # consecutive targets (which share source blocks) go to the same worker, where its
        # decoded sources are kept; another worker takes them if that one is lost
        futures = []
        for i, args in enumerate(tasks):
            where = [workers[i * len(workers) // len(tasks)]] if workers else None
            futures.append(
                client.submit(
                    func, puzzle, work, memory, tag, *args,
                    key=f"slidetable-{kind}-{tag}-{'-'.join(map(str, args))}",
                    workers=where, allow_other_workers=True, pure=False, retries=3,
                )
            )
        return futures

    def results(futures: list[Any]) -> list[int]:
        return [int(f.result()) for f in futures]

    with levels:
        while True:
            if driver.at_max_depth:
                histogram = driver.histogram
                return st.PartialBuild(
                    puzzle=puzzle,
                    depth=driver.depth,
                    reached=sum(histogram),
                    states=math.factorial(puzzle.rows * puzzle.cols) // 2,
                    work_dir=work,
                    resumed_after=None if driver.resumed is None else driver.resumed[0],
                    disk_read=None,
                    disk_written=None,
                    _histogram=tuple(histogram),
                )
            due = driver.merges_due()
            driver.check_room(due)
            if due:
                driver.begin_merges(due)
            if driver.searched:
                for (block, _, last), crc in zip(due, results(submit(due, _merge_task, "merge"))):
                    driver.end_merge(block, last, crc)
                break
            # the merges go with the next level's expansions (they touch older files only)
            merging = submit(due, _merge_task, "merge") if due else []
            depth = driver.depth
            targets = driver.targets()
            found = sum(results(submit([(depth, t) for t in targets], _expand_task, "expand")))
            for (block, _, last), crc in zip(due, results(merging)):
                driver.end_merge(block, last, crc)
            note = driver.level_done(found)
            if note is not None:
                levels(note)
    part = driver.finish()
    _core.install_table(part, path, work)
    return st.Table.open(path)


def _worker_too_small(puzzle: st.Puzzle, need: int, given: str) -> MemoryError:
    """The refusal of a worker whose memory will not do: what it needs, then ``given``."""
    return MemoryError(
        f"a worker of the {puzzle.rows}x{puzzle.cols} build needs {_size(need)} of memory (three one-bit bitmaps "
        f"of a blank block, or a block's codes and one bitmap, and the move tables), but {given}"
    )


def _size(n: int) -> str:
    """Bytes as GiB, or MiB below one GiB (as the command line says them)."""
    return f"{n / 2**30:.1f} GiB" if n >= 2**30 else f"{n / 2**20:.1f} MiB"


def _main(argv: Optional[list[str]] = None) -> int:
    """``python -m slidetable.dask build ...``: ``build_table`` from the command line."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m slidetable.dask",
        description="Build a perfect two-bit table on a Dask cluster (the out-of-core build's levels, "
        "a task per blank block). The work directory must be seen by every worker at the same path.",
        epilog="examples:\n"
        "  python -m slidetable.dask build --board 3x4 --local 2 -o 3x4.table\n"
        "  python -m slidetable.dask build --board 2x7 --scheduler tcp://10.0.0.1:8786 "
        "--work-dir /shared/2x7.work -o /shared/2x7.table\n"
        "  python -m slidetable.dask build --board 3x5 --scheduler-file /shared/scheduler.json "
        "--work-dir /shared/3x5.work -o /shared/3x5.table",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build a table")
    b.add_argument("--board", required=True, help="RxC, 5 to 15 cells (e.g. 3x4, 2x7, 3x5)")
    b.add_argument("--goal", default="blank-last", help="a goal name (blank-last, blank-first, snail, ...)")
    b.add_argument("-o", "--output", required=True, help="the table file to write")
    where = b.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", metavar="ADDRESS", help="a running scheduler's address (tcp://host:8786)")
    where.add_argument("--scheduler-file", metavar="FILE", help="a scheduler file (dask scheduler --scheduler-file)")
    where.add_argument("--local", metavar="N", type=int, help="a LocalCluster of N worker processes on this machine")
    b.add_argument("--work-dir", help="the work directory [default: OUTPUT.work]")
    b.add_argument("--memory", type=float, metavar="GIB", help="GiB each worker's build may use")
    b.add_argument("--max-depth", type=int, metavar="D",
                   help="stop after depth D, the levels kept in the work directory (run again to go on)")
    args = parser.parse_args(argv)
    rows, _, cols = args.board.partition("x")
    try:
        puzzle = st.Puzzle(int(rows), int(cols), goal=args.goal)
    except ValueError as e:
        parser.error(f"--board {args.board}: {e}")
    if args.local is not None and args.local < 1:
        parser.error(f"--local {args.local}: give a number of worker processes, 1 or more")
    if args.max_depth is not None and args.max_depth < 0:
        parser.error(f"--max-depth {args.max_depth}: give a depth, 0 or more")
    if args.memory is not None and not 0 < args.memory < 2**33:
        parser.error(f"--memory {args.memory}: give the GiB each worker may use, more than 0 (and less than 2^33)")
    try:
        if args.local:
            cluster = distributed.LocalCluster(n_workers=args.local, threads_per_worker=1, dashboard_address=None)
            client = distributed.Client(cluster)
        elif args.scheduler_file:
            client = distributed.Client(scheduler_file=args.scheduler_file)
        else:
            client = distributed.Client(args.scheduler)
    except (OSError, ValueError) as e:
        place = args.scheduler or args.scheduler_file or "a LocalCluster"
        print(f"python -m slidetable.dask: cannot reach the scheduler ({place}): {e}", file=sys.stderr)
        return 1
    start = time.perf_counter()

    def note(p: dict[str, Any]) -> None:
        if "resumed" in p:
            print(f"resuming after depth {p['resumed']} ({p['reached']:,} states found)", flush=True)
        else:
            print(
                f"depth {p['depth']:>3}: {p['level_states']:,} states, {p['reached']:,} of {p['total']:,} "
                f"in {p['seconds']:.1f} s",
                flush=True,
            )

    memory = None if args.memory is None else int(args.memory * 2**30)
    # run as `python -m`, this file is `__main__`: the tasks must be the importable module's
    # functions (sent to the workers by name), not this copy's
    import slidetable.dask as module

    try:
        table = module.build_table(
            puzzle, args.output, client=client, work_dir=args.work_dir, memory=memory, progress=note,
            max_depth=args.max_depth,
        )
    except (ValueError, OSError, MemoryError) as e:
        print(f"python -m slidetable.dask: {e}", file=sys.stderr)
        return 1
    finally:
        client.close()
    if isinstance(table, st.PartialBuild):
        print(f"searched to depth {table.depth}: {table.reached:,} of {table.states:,} states; the levels are "
              f"kept in {table.work_dir} (run again without --max-depth, or with a larger one, to go on), "
              f"{time.perf_counter() - start:.1f} s")
        return 0
    print(f"wrote {args.output}: {len(table):,} states, max depth {table.max_depth}, "
          f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
