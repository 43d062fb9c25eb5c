"""slidetable: exact distances, optimal solutions and pattern databases for sliding-tile puzzles.

The engine is the slidetable Rust library; this package hands it numpy arrays.

Conventions
-----------
* A board is an integer array of its cells, row-major, ``0`` the blank: ``[8, 6, 7, 2, 5, 4, 3, 0, 1]``.
* A batch is ``(N, cells)`` or ``(N, rows, cols)``, of any integer dtype, contiguous or not (it is
  copied only when it must be). Results are numpy arrays, one entry per board.
* A board that cannot reach the goal gets ``UNSOLVABLE`` (-1) in batch results, ``None`` from calls
  on one board.
* Moves are letters ``U D L R`` or action numbers ``0 1 2 3`` (in that order), in a named
  convention: ``"blank"`` (the direction the blank moves: slidetable's and the CLI's) or
  ``"tile"`` (the direction the tile moves, as DeepCubeA, SPGym and most environments write them).
  ``to_tile_moves`` and ``to_blank_moves`` convert.
* Bad input raises: ``TypeError`` for a non-integer dtype, ``ValueError`` for a wrong shape, a tile
  out of range or repeated (naming the board), ``OSError`` for a missing or unreadable file,
  ``TableError`` (a ``ValueError``) for a damaged table, with the messages of the ``table`` CLI.

Where things are
----------------
Every public name is importable from ``slidetable`` itself; the modules hold them by idea:

* ``slidetable.puzzle``: ``Puzzle`` (a shape and its goal) and the calls on boards that need
  no table (``parse``, ``is_solvable``, ``apply``, ``expand``,
  ``random_walk``, ``heuristic``);
* ``slidetable.conventions``: move letters and action numbers, blank or tile convention;
* ``slidetable.table``: ``Table``, the perfect tables (exact distances up to 12 cells);
* ``slidetable.search``: ``PatternDB`` and ``Solver``, ``solve``, ``solve_batch``
  (built-in heuristics, pattern tables, or your own function of a batch of boards);
* ``slidetable.solution``: what a search returns (``Solution``, ``BatchResult``);
* ``slidetable.grading``: ``Grade``, ``grade`` (a heuristic against the truth);
* ``slidetable.datasets``: depth-balanced samples and labelled random walks;
* ``slidetable.lab``: the published instance sets and the textbook's experiment;
* ``slidetable.pictures``: boards as SVG (``picture``), solutions played as animations, and the
  HTML Jupyter shows for the package's objects;
* ``slidetable.plots``: matplotlib plots (the extra ``[plot]``): a table's distribution, a grade,
  searches' nodes by depth, a heuristic's heat map;
* ``slidetable.gym`` (needs Gymnasium) and ``slidetable.dask`` (needs Dask's ``distributed``).

Types
-----
Calls that take one board or a batch answer in kind (a number, or an array), and their
overloads (``@typing.overload``) say so to a type checker where the shape is known: a flat list or a 1-D array
is one board, a list of lists or a 2-D array a batch (every array this package returns carries
its shape: ``Board``, ``Boards``). For an array of unknown shape the result is ``Any``,
numpy's own rule. Closed sets of names are ``Literal`` types (``HeuristicName``,
``Algorithm``, ``GoalName``, ``InstanceSet``, ``Convention``), so a checker
catches ``"manhatan"``.

Quick start
-----------
>>> import slidetable as st
>>> table = st.Table.build(st.Puzzle(3, 3))
>>> int(table.distance([8, 6, 7, 2, 5, 4, 3, 0, 1]))
31
"""

from . import _core
from ._common import (
    FAILED,
    UNSOLVABLE,
    Algorithm,
    Board,
    BoardLike,
    Boards,
    Convention,
    GoalName,
    HeuristicName,
    InstanceSet,
    ManyBoards,
    MovesLike,
    OneBoard,
    SearchHeuristic,
)
from ._core import SearchLimitError, TableError
from .conventions import MOVES, actions_to_moves, moves_to_actions, to_blank_moves, to_tile_moves
from .datasets import Dataset, balanced_sample, labelled_walks
from .grading import Grade, grade
from .lab import Experiment, Instances, experiment, instances
from . import plots
from .pictures import BoardPicture, picture
from .puzzle import HEURISTICS, Puzzle, apply, expand, heuristic, is_solvable, parse, random_walk
from .search import BATCH_ALGORITHMS, DEFAULT_BATCH_SIZE, HeuristicFn, PatternDB, Solver, solve, solve_batch
from .solution import BatchResult, Solution
from .table import PartialBuild, Table

__all__ = [
    "UNSOLVABLE",
    "FAILED",
    "MOVES",
    "Puzzle",
    "PartialBuild",
    "Table",
    "PatternDB",
    "Solver",
    "Solution",
    "BatchResult",
    "BATCH_ALGORITHMS",
    "Dataset",
    "BoardPicture",
    "picture",
    "balanced_sample",
    "labelled_walks",
    "Grade",
    "Instances",
    "Experiment",
    "TableError",
    "SearchLimitError",
    "parse",
    "is_solvable",
    "apply",
    "expand",
    "random_walk",
    "heuristic",
    "grade",
    "solve",
    "solve_batch",
    "instances",
    "experiment",
    "to_tile_moves",
    "to_blank_moves",
    "moves_to_actions",
    "actions_to_moves",
    # constants
    "HEURISTICS",
    "DEFAULT_BATCH_SIZE",
    # the names of types, for annotations (see slidetable._common)
    "Board",
    "Boards",
    "OneBoard",
    "ManyBoards",
    "BoardLike",
    "MovesLike",
    "HeuristicFn",
    "HeuristicName",
    "SearchHeuristic",
    "Algorithm",
    "GoalName",
    "InstanceSet",
    "Convention",
]


__version__: str = _core.__version__
