"""Gymnasium environments for sliding-tile puzzles, with exact distances where a table exists.

Needs Gymnasium. slidetable is not on a package index: from a checkout of the repository,
``pip install "./python[gym]"`` installs the package with it (or ``pip install gymnasium``
next to an installed slidetable). Importing this module registers the environment as
``slidetable/SlidingPuzzle-v0``: :func:`gymnasium.make` builds a :class:`SlidingPuzzleEnv`
(wrapped in ``TimeLimit(200)``, the same limit the environment applies by itself), and
:func:`gymnasium.make_vec` a :class:`SlidingPuzzleVectorEnv` (N boards stepped by array
operations, no loop over the boards).

Examples
--------
>>> from slidetable.gym import SlidingPuzzleEnv
>>> env = SlidingPuzzleEnv(3, 3, distance=(5, 10), seed=0)
>>> obs, info = env.reset()
>>> action = int(info["optimal_actions"].argmax())          # a move one step closer to the goal
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> 4 <= info["distance"] <= 9   # started 5 to 10 moves away: one move closer, exactly
True
>>> obs, info = env.reset(options={"board": [1, 2, 3, 4, 5, 6, 7, 0, 8]})
>>> env.action_masks()          # what MaskablePPO calls: no tile below the blank to slide up
array([False,  True,  True,  True])
>>> env.step(2)[1:4]            # L: the 8 slides left, into place
(0.0, True, False)

Conventions
-----------
* An observation is the board as a ``(rows, cols)`` uint8 array of tile numbers, ``0`` the blank.
* An action is the integer ``0 1 2 3`` = ``U D L R`` (a Python int, a numpy integer or a 0-d
  integer array; a float, a bool or a letter is refused). In the default ``"tile"`` convention
  it is the direction a tile slides (into the blank), as DeepCubeA and SPGym write it: ``U``
  slides the tile below the blank up. In the ``"blank"`` convention (slidetable's and the
  CLI's) it is the direction the blank moves, the mirror image: the tile convention's ``U`` is
  the blank's ``D``.
* Reward: ``-1`` for every step that does not reach the goal, ``0`` for the step that does. An
  episode started ``d`` moves from the goal and solved optimally therefore returns ``-(d - 1)``.
* An illegal action (pushing against the edge) leaves the board unchanged, costs a step and
  its ``-1``; :meth:`SlidingPuzzleEnv.action_masks` and ``info["action_mask"]`` say which
  actions are legal.
* Episodes are truncated after ``max_steps`` steps, :data:`MAX_EPISODE_STEPS` (200) unless
  given, on every board size; the registered spec's ``max_episode_steps`` is the same 200.
  Through :func:`gymnasium.make`, change both together:
  ``gymnasium.make(ENV_ID, max_steps=500, max_episode_steps=500)`` (the spec's number sets
  the ``TimeLimit`` wrapper, ``max_steps`` the environment's own limit; the smaller wins).
"""

from __future__ import annotations

import collections
import functools
from typing import Any, Callable, Optional, SupportsFloat, Tuple, Union

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.envs.registration import EnvSpec
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'slidetable.gym needs Gymnasium: pip install gymnasium (or, from a checkout of the '
        'repository, pip install "./python[gym]")'
    ) from e

try:  # the vector API of Gymnasium 1.1 and later
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError:  # pragma: no cover - older Gymnasium: the single environment still works
    AutoresetMode = None  # type: ignore[assignment,misc]
    VectorEnv = object  # type: ignore[assignment,misc]

import slidetable as st
from slidetable.table import _memory_table

__all__ = [
    "SlidingPuzzleEnv",
    "SlidingPuzzleVectorEnv",
    "ENV_ID",
    "AUTO_TABLE_CELLS",
    "MAX_EPISODE_STEPS",
    "CELL_PIXELS",
    "render_rgb",
]

#: The id under which :func:`gymnasium.make` and :func:`gymnasium.make_vec` find the environments.
ENV_ID = "slidetable/SlidingPuzzle-v0"
#: Boards of up to this many cells get a perfect table built on the spot (a few milliseconds;
#: 2x5 is 1.8 million states, 20 ms). Twelve-cell boards (3x4, 2x6: 240 million states, 10 s or
#: more) need ``table=`` (a prebuilt :class:`slidetable.Table`) or ``table=True``.
AUTO_TABLE_CELLS = 10
#: Steps after which an episode is truncated unless ``max_steps`` says otherwise, on every board
#: size, and the registered spec's ``max_episode_steps``. Enough for any 3x3 (at most 31 moves)
#: or 4x4 (at most 80) board; a 5x5 start drawn uniformly is about 100 to 150 moves away.
MAX_EPISODE_STEPS = 200
#: The side of one cell, in pixels, of an ``rgb_array`` rendering.
CELL_PIXELS = 48

Distance = Union[None, int, Tuple[int, int]]
Oracle = Union["st.PatternDB", "st.Solver", None]

_RESET_OPTIONS = ("board", "distance")
_VECTOR_RESET_OPTIONS = ("boards", "distance", "reset_mask")


# -- what both environments share -------------------------------------------------------------------


def _open_table(puzzle: st.Puzzle, table: Union[st.Table, bool, None]) -> Optional[st.Table]:
    """The perfect table an environment uses, as ``table=`` asks (see :class:`SlidingPuzzleEnv`)."""
    p = puzzle
    if isinstance(table, st.Table):
        if table.puzzle != p:
            raise ValueError(f"the table is for {table.puzzle!r}, but this environment is {p!r}")
        return table
    if table is None:
        table = p.cells <= AUTO_TABLE_CELLS
    elif not isinstance(table, bool):
        raise TypeError(f"table must be a slidetable.Table, True, False or None, not {type(table).__name__}")
    if not table:
        return None
    if p.cells > 12:
        raise ValueError(f"no perfect table for a {p.rows}x{p.cols} board: tables go up to 12 cells")
    return _memory_table(p)


def _check_distance(puzzle: st.Puzzle, table: Optional[st.Table], distance: Any, name: str = "distance") -> Distance:
    if distance is None:
        return None
    top = table.max_depth if table is not None else None
    if isinstance(distance, bool):
        raise TypeError(f"{name} must be None, an int or a (lo, hi) pair, not {distance!r}")
    if isinstance(distance, (int, np.integer)):
        lo = hi = int(distance)
    else:
        try:
            lo, hi = (int(d) for d in distance)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must be None, an int or a (lo, hi) pair, not {distance!r}") from None
    if lo < 1 or hi < lo:
        raise ValueError(f"{name} {distance!r}: need 1 <= lo <= hi (the goal itself is not a start)")
    if top is not None and hi > top:
        raise ValueError(
            f"{name} {distance!r}: no {puzzle.rows}x{puzzle.cols} board is more than {top} moves from the goal"
        )
    return lo if lo == hi and isinstance(distance, (int, np.integer)) else (lo, hi)


def _check_max_steps(max_steps: Any, name: str = "max_steps") -> int:
    if max_steps is None:
        return MAX_EPISODE_STEPS
    if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, not {type(max_steps).__name__}")
    if int(max_steps) < 1:
        raise ValueError(f"{name} must be at least 1, not {int(max_steps)}")
    return int(max_steps)


def _move_table(puzzle: st.Puzzle, convention: str) -> np.ndarray:
    """``moves[p, a]``: where the blank goes from cell ``p`` under action ``a`` in ``convention``,
    or -1 if the action is illegal there; read off :meth:`slidetable.Puzzle.expand` so it agrees
    with the library by construction."""
    n = puzzle.cells
    boards = np.empty((n, n), dtype=np.uint16)
    for p in range(n):  # any arrangement with the blank on cell p (solvability is irrelevant)
        order = list(range(1, n))
        order.insert(p, 0)
        boards[p] = order
    kids, legal = puzzle.expand(boards, convention)
    moves = np.argmax(kids == 0, axis=2).astype(np.intp)
    moves[~legal] = -1
    return moves


def _check_oracle(puzzle: st.Puzzle, solver: Any) -> Oracle:
    if solver is None:
        return None
    if not isinstance(solver, (st.PatternDB, st.Solver)):
        raise TypeError(f"solver must be a slidetable.PatternDB, a slidetable.Solver or None, not {type(solver).__name__}")
    if solver.puzzle != puzzle:
        raise ValueError(f"the solver is for {solver.puzzle!r}, but this environment is {puzzle!r}")
    return solver


def _estimator(puzzle: st.Puzzle, solver: Oracle) -> Optional[Callable[[np.ndarray], np.ndarray]]:
    """A function from a batch of boards ``(N, cells)`` to their admissible estimates (int32), if
    ``solver`` has one: a PatternDB's sum of pattern distances, or the estimate a Solver searches
    with (its pattern tables, or an admissible classic heuristic). None otherwise."""
    if isinstance(solver, st.PatternDB):
        db = solver
        return lambda b: np.asarray(db.h(b), dtype=np.int32)
    if isinstance(solver, st.Solver):
        name = solver.heuristic
        if name == "pdb":
            core = solver._s  # a Solver's pattern tables are a PatternDB's (the same core object)
            return lambda b: np.asarray(core.h(puzzle._boards(b, np.uint8)[0], True), dtype=np.int32)
        if name in ("misplaced", "manhattan", "linear-conflict"):
            return lambda b: np.asarray(puzzle.heuristic(b, name), dtype=np.int32)
    return None


def _check_options(options: Any, known: Tuple[str, ...]) -> dict:
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict (keys {', '.join(map(repr, known))}), not {type(options).__name__}")
    unknown = [k for k in options if k not in known]
    if unknown:
        raise ValueError(
            f"unknown reset option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}: "
            f"the options are {', '.join(map(repr, known))}"
        )
    return options


def _action(action: Any, convention: str) -> int:
    """One action, checked strictly: an int, a numpy integer or a 0-d integer array, 0 to 3."""
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        value = int(action)
    elif isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        value = int(action)
    else:
        if isinstance(action, np.ndarray):
            what = f"an array of dtype {action.dtype} and shape {action.shape}"
        else:
            what = f"{type(action).__name__} {action!r}"
        hint = ""
        if isinstance(action, str):
            hint = (
                f"; for letters use slidetable.moves_to_actions({action!r}, convention={convention!r})"
            )
        raise TypeError(f"an action is one integer 0, 1, 2 or 3 (U, D, L, R), not {what}{hint}")
    if not 0 <= value <= 3:
        raise ValueError(f"action {value} is not one of 0, 1, 2, 3 (U, D, L, R)")
    return value


# -- drawing ----------------------------------------------------------------------------------------

# a 3x5 bitmap font of the ten digits, one string of 15 bits (row by row) each
_FONT = np.array(
    [
        [int(c) for c in bits]
        for bits in (
            "111101101101111",  # 0
            "010110010010111",  # 1
            "111001111100111",  # 2
            "111001111001111",  # 3
            "101101111001001",  # 4
            "111100111001111",  # 5
            "111100111101111",  # 6
            "111001001001001",  # 7
            "111101111101111",  # 8
            "111101111001111",  # 9
        )
    ],
    dtype=bool,
).reshape(10, 5, 3)

# dark frame and numbers on light tiles: contrast about 12:1
_FRAME = np.array([40, 44, 52], dtype=np.uint8)
_TILE = np.array([238, 228, 206], dtype=np.uint8)
_INK = _FRAME


@functools.lru_cache(maxsize=16)
def _tile_images(cells: int, px: int) -> np.ndarray:
    """``(cells, px, px, 3)`` uint8: the picture of each tile (0, the blank, an empty square),
    its number in the bitmap font, scaled as large as the widest number allows."""
    border = max(1, px // 16)
    inner = px - 2 * border
    width = len(str(cells - 1))
    scale = max(1, min(int(inner * 0.8) // (4 * width - 1), int(inner * 0.6) // 5))
    images = np.empty((cells, px, px, 3), dtype=np.uint8)
    images[:] = _FRAME
    images[1:, border : px - border, border : px - border] = _TILE
    for tile in range(1, cells):
        digits = [int(c) for c in str(tile)]
        # the digits side by side, one font column apart, then scaled up
        text = np.zeros((5, 4 * len(digits) - 1), dtype=bool)
        for i, d in enumerate(digits):
            text[:, 4 * i : 4 * i + 3] = _FONT[d]
        text = np.kron(text, np.ones((scale, scale), dtype=bool))
        h, w = text.shape
        top, left = (px - h) // 2, (px - w) // 2
        images[tile, top : top + h, left : left + w][text] = _INK
    images.flags.writeable = False
    return images


def render_rgb(board: Any, rows: int, cols: int, cell_pixels: int = CELL_PIXELS) -> np.ndarray:
    """A picture of a board: light tiles with dark numbers (a built-in bitmap font), the blank
    dark.

    Parameters
    ----------
    board : array_like of int, shape (rows * cols,) or (rows, cols)
        The tiles, row-major, ``0`` the blank.
    rows, cols : int
        The board's shape.
    cell_pixels : int, default CELL_PIXELS
        The side of one cell in pixels (at least 8).

    Returns
    -------
    numpy.ndarray of uint8, shape (rows * cell_pixels, cols * cell_pixels, 3)
        The RGB image.

    Raises
    ------
    ValueError
        If ``board`` does not have ``rows * cols`` cells or a tile is out of range, or
        ``cell_pixels`` is below 8.

    Examples
    --------
    >>> render_rgb([8, 6, 7, 2, 5, 4, 3, 0, 1], 3, 3).shape
    (144, 144, 3)
    """
    if cell_pixels < 8:
        raise ValueError(f"cell_pixels must be at least 8 to draw a number, not {cell_pixels}")
    b = np.asarray(board).reshape(-1)
    n = rows * cols
    if b.size != n:
        raise ValueError(f"a {rows}x{cols} board has {n} cells, not {b.size}")
    if b.size and (b.min() < 0 or b.max() >= n):
        raise ValueError(f"tiles of a {rows}x{cols} board are 0 to {n - 1}")
    tiles = _tile_images(n, int(cell_pixels))[b.astype(np.intp)]
    px = int(cell_pixels)
    return tiles.reshape(rows, cols, px, px, 3).transpose(0, 2, 1, 3, 4).reshape(rows * px, cols * px, 3)


# -- exact distances by search ---------------------------------------------------------------------


class _ExactDistances:
    """Exact distances by optimal search (IDA* with the caller's pattern tables), made cheap along
    an episode: the optimal plan found for a board is kept, so a step along it costs nothing
    (the distance drops by one), and the boards solved lately are remembered (a step back off a
    detour costs nothing either). Any other step is a new search."""

    def __init__(self, solver: Union[st.PatternDB, st.Solver], convention: str, keep: int = 4096):
        self.solver = solver if isinstance(solver, st.Solver) else st.Solver(solver.puzzle, heuristic=solver)
        self.convention = convention
        self.keep = keep
        self.known: collections.OrderedDict[bytes, Tuple[int, np.ndarray]] = collections.OrderedDict()
        self.distance = -1
        self.plan = np.zeros(0, dtype=np.int8)
        self.searches = 0

    def start(self, board: np.ndarray) -> int:
        self._look_up(board)
        return self.distance

    def after(self, action: int, moved: bool, board: np.ndarray) -> int:
        if not moved:
            return self.distance
        if self.plan.size and self.plan[0] == action:
            self.distance -= 1
            self.plan = self.plan[1:]
        else:
            self._look_up(board)
        return self.distance

    def _look_up(self, board: np.ndarray) -> None:
        key = board.tobytes()
        hit = self.known.get(key)
        if hit is None:
            solution = self.solver.solve(board, convention=self.convention)
            assert solution is not None and solution.optimal, "boards of an episode reach the goal"
            self.searches += 1
            hit = (solution.length, solution.actions)
            self.known[key] = hit
            if len(self.known) > self.keep:
                self.known.popitem(last=False)
        else:
            self.known.move_to_end(key)
        self.distance, self.plan = hit


# -- one board --------------------------------------------------------------------------------------


class SlidingPuzzleEnv(gymnasium.Env[np.ndarray, np.int64]):
    """Slide the tiles back to the goal, one move per step.

    Parameters
    ----------
    rows, cols : int
        The board's shape (3x3 is the 8-puzzle, 4x4 the 15-puzzle); ``cols`` defaults to ``rows``.
    goal : str or array_like of int
        The goal, as :class:`slidetable.Puzzle` takes it (``"blank-last"``, ``"blank-first"``,
        ``"snail"``, or an arrangement).
    convention : {"tile", "blank"}
        What an action means: ``"tile"`` (default; the direction the tile moves) or ``"blank"``
        (the direction the blank moves). See the module's notes.
    distance : None, int or (int, int)
        How far from the goal episodes start. With a table (see ``table``) distances are exact:
        an ``int`` starts every episode exactly that many moves away, a ``(lo, hi)`` pair draws
        the distance uniformly from ``lo`` to ``hi`` (inclusive) and then a board uniformly
        among those at that distance, and ``None`` (default) draws a board uniformly among all
        solvable boards but the goal. Without a table, an ``int`` (or a distance drawn from
        ``(lo, hi)``) is the length of a random walk from the goal (never straight back), so it
        is only an upper bound on the true distance; ``None`` still draws uniformly among all
        solvable boards (a random permutation of the right parity).
    max_steps : int, optional
        Episodes are truncated after this many steps. Default :data:`MAX_EPISODE_STEPS` (200),
        the registered spec's ``max_episode_steps``.
    table : slidetable.Table or bool, optional
        The perfect table that gives exact distances, optimal actions and exact-distance starts.
        ``None`` (default) builds one in memory for boards of up to :data:`AUTO_TABLE_CELLS`
        cells (shared by the environments of a process) and goes without on larger boards;
        a :class:`slidetable.Table` (e.g. ``Table.open("3x4.table")`` for a 12-cell board) is
        used as given; ``True`` builds one whatever it costs (at most 12 cells); ``False``
        never uses one.
    solver : slidetable.PatternDB or slidetable.Solver, optional
        Distances on boards too large for a table (4x4, 5x5). A ``PatternDB`` adds its
        admissible estimate to ``info`` as ``"estimate"`` (microseconds a step); so does a
        ``Solver`` searching with pattern tables or an admissible classic heuristic. With
        ``exact_distance=True`` either one also gives the exact ``info["distance"]``.
    exact_distance : bool, default False
        Find the exact distance of every board by optimal search (IDA* with ``solver``'s
        estimate). This costs a search at each reset and at each step off the optimal path
        found last (a step along it, or back to a board seen lately, costs nothing). A search
        is what :meth:`slidetable.Solver.solve` costs: on 4x4 with the 7-8 tables a few
        milliseconds for a random board (``python_bench.py batch`` aims at 500 boards a second
        on 2 cores), with smaller tables many times more; on 5x5 it grows steeply with the
        distance, from milliseconds near the goal to hours for a random board even with the
        6-6-6-6 tables, so start 5x5 episodes near the goal (``distance=``). Needs ``solver``
        (or a table, whose distances are always exact).
    seed : int, optional
        Seeds the environment's random generator (as a first ``reset(seed=...)`` would).
    render_mode : {"ansi", "human", "rgb_array"}, optional
        ``"ansi"``: :meth:`render` returns the grid as text; ``"human"``: it is printed after
        every reset and step; ``"rgb_array"``: :meth:`render` returns a picture of the board,
        ``(rows * CELL_PIXELS, cols * CELL_PIXELS, 3)`` uint8 (see :func:`render_rgb`).

    Attributes
    ----------
    action_space : gymnasium.spaces.Discrete
        ``Discrete(4)``.
    observation_space : gymnasium.spaces.Box
        ``Box(0, cells - 1, (rows, cols), uint8)``.

    Notes
    -----
    Every ``reset`` and ``step`` returns an ``info`` dict with:

    * ``"distance"``: the exact number of moves to the goal (from the table, or by search with
      ``exact_distance``), else ``None``;
    * ``"estimate"``: an admissible estimate of it, with a ``solver`` that has one;
    * ``"action_mask"``: which of the 4 actions are legal here (bool array, as
      :meth:`action_masks`);
    * ``"optimal_actions"``: which actions bring the board one move closer (bool array, all
      False at the goal); only with a table;
    * ``"steps"``: the steps taken in this episode.

    ``reset(options={"board": board})`` starts from a given board, and
    ``reset(options={"distance": 12})`` (or a ``(lo, hi)`` pair) overrides ``distance`` for one
    episode, e.g. for a curriculum; other keys are refused.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        rows: int = 3,
        cols: Optional[int] = None,
        goal: Any = "blank-last",
        convention: str = "tile",
        distance: Distance = None,
        max_steps: Optional[int] = None,
        table: Union[st.Table, bool, None] = None,
        seed: Optional[int] = None,
        render_mode: Optional[str] = None,
        solver: Oracle = None,
        exact_distance: bool = False,
    ):
        cols = rows if cols is None else cols
        if convention not in ("tile", "blank"):
            raise ValueError(f"unknown convention {convention!r}: use 'tile' (the tile's direction) or 'blank'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: use 'ansi', 'human', 'rgb_array' or None")
        self.puzzle = st.Puzzle(rows, cols, goal)
        self.convention = convention
        self.render_mode = render_mode
        self.table: Optional[st.Table] = _open_table(self.puzzle, table)
        self.distance: Distance = _check_distance(self.puzzle, self.table, distance)
        self.max_steps = _check_max_steps(max_steps)
        self.solver = _check_oracle(self.puzzle, solver)
        if not isinstance(exact_distance, bool):
            raise TypeError(f"exact_distance must be True or False, not {exact_distance!r}")
        if exact_distance and self.table is None and self.solver is None:
            raise ValueError(
                f"exact_distance=True needs solver= (a slidetable.PatternDB or Solver for the "
                f"{self.puzzle.rows}x{self.puzzle.cols} board) or a table (boards of up to 12 cells)"
            )
        self.exact_distance = exact_distance
        self._estimate = _estimator(self.puzzle, self.solver)
        self._exact: Optional[_ExactDistances] = None
        if exact_distance and self.table is None:
            assert self.solver is not None
            self._exact = _ExactDistances(self.solver, convention)

        cells = self.puzzle.cells
        self.action_space = spaces.Discrete(4)
        self.observation_space = spaces.Box(0, cells - 1, (rows, cols), self.puzzle.dtype)
        self._goal = np.array(self.puzzle.goal)
        self._moves = _move_table(self.puzzle, convention)
        self._board: Optional[np.ndarray] = None
        self._blank = -1
        self._steps = 0
        self._distance: Optional[int] = None
        # how gymnasium.make would build this environment again (make() sets its own spec);
        # with it, env_checker.check_env can try the other render modes
        self.spec = EnvSpec(
            ENV_ID,
            entry_point=f"{__name__}:SlidingPuzzleEnv",
            vector_entry_point=f"{__name__}:SlidingPuzzleVectorEnv",
            max_episode_steps=self.max_steps,
            kwargs=dict(
                rows=rows, cols=cols, goal=goal, convention=convention, distance=distance,
                max_steps=self.max_steps, table=table, seed=seed, solver=solver, exact_distance=exact_distance,
            ),
        )
        if seed is not None:
            super().reset(seed=seed)

    # -- the Gymnasium API -------------------------------------------------------------------------

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts an episode.

        Parameters
        ----------
        seed : int, optional
            Reseeds the environment's random generator.
        options : dict, optional
            ``{"board": board}`` starts from ``board`` (flat or ``(rows, cols)``, solvable, not
            the goal); ``{"distance": d}`` (an int or a ``(lo, hi)`` pair) overrides
            ``distance`` for this episode.

        Returns
        -------
        observation : numpy.ndarray of uint8, shape (rows, cols)
        info : dict
            See the class's notes.

        Raises
        ------
        ValueError
            For an unknown option, a board that cannot reach the goal or is the goal, a distance
            out of range.
        TypeError
            For options that are not a dict, a board that is not of integers.
        """
        super().reset(seed=seed)
        options = _check_options(options, _RESET_OPTIONS)
        if options.get("board") is not None:
            board = self._given_board(options["board"])
        else:
            if "distance" in options:
                distance = _check_distance(self.puzzle, self.table, options["distance"], "options['distance']")
            else:
                distance = self.distance
            board = self._draw(distance)
        self._board = board
        self._blank = int(np.argmax(board == 0))
        self._steps = 0
        self._distance = self._exact.start(board) if self._exact is not None else None
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays one action.

        Parameters
        ----------
        action : int
            ``0 1 2 3`` = ``U D L R`` in the environment's convention: a Python int, a numpy
            integer or a 0-d integer array.

        Returns
        -------
        observation : numpy.ndarray of uint8, shape (rows, cols)
        reward : float
            ``0.0`` if the move reaches the goal (then ``terminated``), else ``-1.0`` (an
            illegal action too, which leaves the board as it was).
        terminated : bool
            Whether the goal is reached.
        truncated : bool
            Whether ``max_steps`` steps are taken without reaching the goal.
        info : dict
            See the class's notes.

        Raises
        ------
        TypeError
            For an action that is not one integer (a float, a bool, a letter, an array of
            more than one value).
        ValueError
            For an integer other than 0, 1, 2 and 3.
        RuntimeError
            Before the first :meth:`reset`.
        """
        if self._board is None:
            raise RuntimeError("call reset() before step()")
        a = _action(action, self.convention)
        target = int(self._moves[self._blank, a])
        if target >= 0:
            board = self._board
            board[self._blank], board[target] = board[target], 0
            self._blank = target
        self._steps += 1
        if self._exact is not None:
            self._distance = self._exact.after(a, target >= 0, self._board)
        terminated = bool(np.array_equal(self._board, self._goal))
        truncated = not terminated and self._steps >= self.max_steps
        if self.render_mode == "human":
            self.render()
        return self._obs(), 0.0 if terminated else -1.0, terminated, truncated, self._info()

    def render(self) -> Union[str, np.ndarray, None]:
        """Draws the current board as ``render_mode`` says.

        Returns
        -------
        str, numpy.ndarray or None
            ``"ansi"``: the grid as text; ``"rgb_array"``: a ``(rows * CELL_PIXELS,
            cols * CELL_PIXELS, 3)`` uint8 picture; ``"human"`` (which prints the grid) and no
            render mode: None. None before the first reset.
        """
        if self._board is None or self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return render_rgb(self._board, self.puzzle.rows, self.puzzle.cols)
        text = self.puzzle.grid(self._board)
        if self.render_mode == "human":
            print(text, end="" if text.endswith("\n") else "\n")
            return None
        return text

    # -- helpers -----------------------------------------------------------------------------------

    @property
    def board(self) -> Optional[np.ndarray]:
        """The current board, row-major (a copy); None before the first reset."""
        return None if self._board is None else self._board.copy()

    def action_masks(self) -> np.ndarray:
        """Which of the 4 actions are legal on the current board.

        The name sb3-contrib's ``MaskablePPO`` calls (``action_mask`` is the same).

        Returns
        -------
        numpy.ndarray of bool, shape (4,)

        Raises
        ------
        RuntimeError
            Before the first :meth:`reset`.
        """
        if self._board is None:
            raise RuntimeError("call reset() first")
        return self._moves[self._blank] >= 0

    action_mask = action_masks

    def _seed(self) -> int:
        return int(self.np_random.integers(0, 2**63 - 1))

    def _given_board(self, board: Any) -> np.ndarray:
        b = np.asarray(board)
        if b.dtype.kind not in "iu":
            raise TypeError(f"options['board'] must be an integer board, not {b.dtype}")
        if b.size != self.puzzle.cells or b.ndim not in (1, 2):
            raise ValueError(
                f"options['board'] must be one board of {self.puzzle.cells} cells "
                f"(flat or {self.puzzle.rows}x{self.puzzle.cols}), not shape {b.shape}"
            )
        b = b.reshape(-1)
        if not self.puzzle.is_solvable(b):
            reason = self.puzzle.unsolvable_reason(b)
            raise ValueError(f"options['board'] cannot reach the goal: {reason}")
        if np.array_equal(b, self._goal):
            raise ValueError("options['board'] is the goal: an episode must start elsewhere")
        return b.astype(self.puzzle.dtype)

    def _draw(self, distance: Distance) -> np.ndarray:
        if distance is not None:
            if isinstance(distance, tuple):
                depth = int(self.np_random.integers(distance[0], distance[1] + 1))
            else:
                depth = int(distance)
            if self.table is not None:
                return np.array(self.table.sample(depth, 1, self._seed())[0])
            return self._walk(depth)
        if self.table is not None:
            n = len(self.table)
            while True:  # uniform over the table's states; only the goal is redrawn
                board = np.array(self.table.unrank(int(self.np_random.integers(0, n))))
                if not np.array_equal(board, self._goal):
                    return board
        return self._uniform()

    def _walk(self, steps: int) -> np.ndarray:
        """The end of a random walk of ``steps`` moves from the goal, redrawn if it is the goal."""
        for _ in range(100):
            board = np.array(self.puzzle.random_walk(1, steps, self._seed())[0])
            if not np.array_equal(board, self._goal):
                return board
        raise RuntimeError(f"100 random walks of {steps} moves all came back to the goal")

    def _uniform(self) -> np.ndarray:
        """A board drawn uniformly among the solvable ones but the goal: a random arrangement,
        two tiles swapped if it has the wrong parity (the swap is a bijection between the two
        halves, so the result stays uniform)."""
        n = self.puzzle.cells
        while True:
            board = self.np_random.permutation(n).astype(self.puzzle.dtype)
            if not self.puzzle.is_solvable(board):
                i, j = np.flatnonzero(board != 0)[:2]
                board[i], board[j] = board[j], board[i]
            if not np.array_equal(board, self._goal):
                return board

    def _obs(self) -> np.ndarray:
        assert self._board is not None
        return self._board.reshape(self.puzzle.rows, self.puzzle.cols).copy()

    def _info(self) -> dict[str, Any]:
        assert self._board is not None
        info: dict[str, Any] = {"distance": self._distance, "action_mask": self._moves[self._blank] >= 0, "steps": self._steps}
        if self.table is not None:
            info["distance"] = self.table.distance(self._board)
            info["optimal_actions"] = np.asarray(self.table.optimal_moves(self._board, self.convention), dtype=np.bool_)
        if self._estimate is not None:
            info["estimate"] = int(self._estimate(self._board[None, :])[0])
        return info

    def __repr__(self) -> str:
        return (
            f"SlidingPuzzleEnv({self.puzzle.rows}, {self.puzzle.cols}, goal={self.puzzle.goal_name!r}, "
            f"convention={self.convention!r}, distance={self.distance!r}, max_steps={self.max_steps})"
        )


# -- many boards --------------------------------------------------------------------------------------


class SlidingPuzzleVectorEnv(VectorEnv):  # type: ignore[misc,valid-type]
    """``num_envs`` boards stepped together by numpy array operations (no loop over the boards),
    with Gymnasium's vector API (Gymnasium 1.1 or later).

    Each board follows :class:`SlidingPuzzleEnv`'s rules (actions, rewards, truncation after
    ``max_steps``, starts drawn as ``distance`` says); a batch is ``num_envs`` of them. This is
    what ``gymnasium.make_vec("slidetable/SlidingPuzzle-v0", num_envs=N)`` builds.

    Parameters
    ----------
    num_envs : int
        How many boards.
    rows, cols, goal, convention, distance, table, seed
        As for :class:`SlidingPuzzleEnv`.
    max_steps : int, optional
        Each board's episode is truncated after this many steps; default ``max_episode_steps``
        if given, else :data:`MAX_EPISODE_STEPS` (200).
    render_mode : {"ansi", "rgb_array"}, optional
        :meth:`render` returns a tuple of one grid of text, or one picture, per board.
    solver : slidetable.PatternDB or slidetable.Solver, optional
        Adds ``info["estimate"]``, the admissible estimate of every board (one batch lookup a
        step).
    exact_distance : bool, default False
        Accepted so that the single environment's arguments fit, but here exact distances come
        from a table only: ``True`` on a board without one is refused (a search for each board
        at each step is far slower than a step; use :class:`SlidingPuzzleEnv` for that).
    optimal_actions : bool, default False
        With a table, add ``info["optimal_actions"]`` (``(num_envs, 4)`` bool, as the single
        environment always does). Off by default: it costs more than the rest of a step put
        together (1,024 3x3 boards on an idle 2-core machine: about 3.5 million board-steps a
        second with it, 9.6 million without; ``python scripts/python_bench.py gym``).
    autoreset_mode : gymnasium.vector.AutoresetMode or str, default AutoresetMode.NEXT_STEP
        What happens to a board whose episode ended (terminated or truncated). ``NEXT_STEP``
        (Gymnasium's default): the next :meth:`step` resets it, ignoring its action, and
        returns its first observation with reward 0, ``terminated`` and ``truncated`` False.
        ``SAME_STEP``: the step that ends the episode resets it at once, returns the new start
        as its observation and puts the last one in ``info["final_obs"]`` (an object array,
        None for the boards that went on) and that step's info in ``info["final_info"]``, each
        with its ``"_final_obs"``/``"_final_info"`` mask. ``DISABLED``: never; stepping an ended
        board is an error, ``reset(options={"reset_mask": ...})`` resets some boards.
    max_episode_steps : int, optional
        What :func:`gymnasium.make_vec` passes from the spec (200); ``max_steps`` wins.

    Attributes
    ----------
    num_envs : int
    single_action_space : gymnasium.spaces.Discrete
        ``Discrete(4)``.
    action_space : gymnasium.spaces.MultiDiscrete
        ``num_envs`` actions.
    single_observation_space : gymnasium.spaces.Box
        ``Box(0, cells - 1, (rows, cols), uint8)``.
    observation_space : gymnasium.spaces.Box
        ``(num_envs, rows, cols)``.

    Notes
    -----
    ``reset`` and ``step`` return ``info`` as Gymnasium's vector environments do: a dict of
    arrays with one entry per board, each key ``k`` with a bool mask ``"_k"`` of the boards it
    holds for:

    * ``"action_mask"``: ``(num_envs, 4)`` bool, which actions are legal (as :meth:`action_masks`);
    * ``"distance"``: ``(num_envs,)`` int16, the exact distances (with a table only);
    * ``"optimal_actions"``: ``(num_envs, 4)`` bool (with a table and ``optimal_actions=True``);
    * ``"estimate"``: ``(num_envs,)`` int32 (with a ``solver`` that has one);
    * ``"steps"``: ``(num_envs,)`` int64, the steps of each board's episode so far.

    ``reset(options=...)`` takes ``"reset_mask"`` (a ``(num_envs,)`` bool array: reset only
    those boards), ``"boards"`` (the boards to start from, one per board reset) and
    ``"distance"`` (for these starts); other keys are refused.

    Examples
    --------
    >>> import numpy as np
    >>> envs = SlidingPuzzleVectorEnv(1024, 3, 3, distance=(3, 20), optimal_actions=True, seed=0)
    >>> obs, info = envs.reset()
    >>> obs.shape, info["distance"].shape, info["action_mask"].shape
    ((1024, 3, 3), (1024,), (1024, 4))
    >>> before = info["distance"]
    >>> obs, rewards, terminated, truncated, info = envs.step(np.argmax(info["optimal_actions"], axis=1))
    >>> bool((info["distance"] == before - 1).all())      # every board one move closer
    True
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        num_envs: int = 1,
        rows: int = 3,
        cols: Optional[int] = None,
        goal: Any = "blank-last",
        convention: str = "tile",
        distance: Distance = None,
        max_steps: Optional[int] = None,
        table: Union[st.Table, bool, None] = None,
        seed: Optional[int] = None,
        render_mode: Optional[str] = None,
        solver: Oracle = None,
        optimal_actions: bool = False,
        autoreset_mode: Any = "NextStep",
        exact_distance: bool = False,
        max_episode_steps: Optional[int] = None,
    ):
        if AutoresetMode is None:  # pragma: no cover - older Gymnasium
            raise ImportError(f"SlidingPuzzleVectorEnv needs Gymnasium 1.1 or later (this is {gymnasium.__version__})")
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs must be an integer, not {type(num_envs).__name__}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        cols = rows if cols is None else cols
        if convention not in ("tile", "blank"):
            raise ValueError(f"unknown convention {convention!r}: use 'tile' (the tile's direction) or 'blank'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: use 'ansi', 'rgb_array' or None")
        try:
            mode = autoreset_mode if isinstance(autoreset_mode, AutoresetMode) else AutoresetMode(autoreset_mode)
        except ValueError:
            names = ", ".join(repr(m.value) for m in AutoresetMode)
            raise ValueError(f"unknown autoreset_mode {autoreset_mode!r}: use an AutoresetMode or one of {names}") from None

        self.num_envs = int(num_envs)
        self.puzzle = st.Puzzle(rows, cols, goal)
        self.convention = convention
        self.render_mode = render_mode
        self.autoreset_mode = mode
        self.metadata = dict(type(self).metadata, autoreset_mode=mode)
        self.table: Optional[st.Table] = _open_table(self.puzzle, table)
        self.distance: Distance = _check_distance(self.puzzle, self.table, distance)
        self.max_steps = _check_max_steps(max_steps if max_steps is not None else max_episode_steps)
        self.solver = _check_oracle(self.puzzle, solver)
        self._estimate = _estimator(self.puzzle, self.solver)
        p = self.puzzle
        if exact_distance and self.table is None:
            raise ValueError(
                f"SlidingPuzzleVectorEnv gives exact distances from a table only (boards of up to 12 cells, "
                f"not {p.rows}x{p.cols}); for distances by search use SlidingPuzzleEnv(..., exact_distance=True)"
            )
        if optimal_actions and self.table is None:
            raise ValueError(f"optimal_actions=True needs a table (boards of up to 12 cells, not {p.rows}x{p.cols})")
        self.optimal_actions = bool(optimal_actions)

        n, cells = self.num_envs, self.puzzle.cells
        self.single_action_space = spaces.Discrete(4)
        self.action_space = batch_space(self.single_action_space, n)
        self.single_observation_space = spaces.Box(0, cells - 1, (rows, cols), self.puzzle.dtype)
        self.observation_space = batch_space(self.single_observation_space, n)

        self._goal = np.array(self.puzzle.goal)
        moves = _move_table(self.puzzle, convention)
        self._moves = moves
        self._moves_flat = np.ascontiguousarray(moves.reshape(-1))
        self._offsets = np.arange(n, dtype=np.intp) * cells
        self._boards = np.zeros((n, cells), dtype=self.puzzle.dtype)
        self._blank = np.zeros(n, dtype=np.intp)
        self._steps = np.zeros(n, dtype=np.int64)
        self._ended = np.zeros(n, dtype=np.bool_)
        self._started = False
        if self.table is not None:
            self._histogram = self.table.histogram()
        if seed is not None:
            super().reset(seed=seed)

    # -- the Gymnasium vector API ------------------------------------------------------------------

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts new episodes on all boards (or those of ``options["reset_mask"]``).

        Parameters
        ----------
        seed : int, optional
            Reseeds the random generator.
        options : dict, optional
            ``"reset_mask"``: ``(num_envs,)`` bool, the boards to reset (at least one);
            ``"boards"``: ``(k, cells)`` or ``(k, rows, cols)`` integers, the starts of the
            ``k`` boards reset (solvable, not the goal); ``"distance"``: an int or a
            ``(lo, hi)`` pair for these starts.

        Returns
        -------
        observations : numpy.ndarray of uint8, shape (num_envs, rows, cols)
        info : dict
            See the class's notes; the masks mark the boards reset.

        Raises
        ------
        ValueError
            For an unknown option, a bad mask, boards of the wrong number or shape, a board
            that cannot reach the goal or is the goal, a distance out of range.
        TypeError
            For options that are not a dict, a mask that is not a bool array, boards that are
            not integers.
        """
        super().reset(seed=seed)
        options = _check_options(options, _VECTOR_RESET_OPTIONS)
        mask = self._reset_mask(options.get("reset_mask"))
        if not self._started and not mask.all():
            raise RuntimeError("the first reset() resets every board: leave out options['reset_mask']")
        which = np.flatnonzero(mask)
        if options.get("boards") is not None:
            boards = self._given_boards(options["boards"], which.size)
        else:
            if "distance" in options:
                distance = _check_distance(self.puzzle, self.table, options["distance"], "options['distance']")
            else:
                distance = self.distance
            boards = self._draw(which.size, distance)
        self._start(which, boards)
        self._started = True
        return self._obs(), self._infos(self._distances(), mask)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Plays one action on every board, resetting ended boards as ``autoreset_mode`` says.

        Parameters
        ----------
        actions : array_like of int, shape (num_envs,)
            ``0 1 2 3`` = ``U D L R`` in the environment's convention, one per board.

        Returns
        -------
        observations : numpy.ndarray of uint8, shape (num_envs, rows, cols)
        rewards : numpy.ndarray of float64, shape (num_envs,)
            ``0.0`` for a step reaching the goal (and for a board reset by this step), else ``-1.0``.
        terminated, truncated : numpy.ndarray of bool, shape (num_envs,)
        info : dict
            See the class's notes.

        Raises
        ------
        TypeError
            For actions that are not integers (floats, bools, letters).
        ValueError
            For a shape other than ``(num_envs,)`` or an action other than 0 to 3.
        RuntimeError
            Before the first :meth:`reset`; with ``autoreset_mode=DISABLED``, for a board
            whose episode has ended and was not reset.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        a = self._actions(actions)
        restart = self._ended
        if self.autoreset_mode == AutoresetMode.DISABLED and restart.any():
            i = int(np.argmax(restart))
            raise RuntimeError(
                f"board {i}'s episode has ended: reset it with reset(options={{'reset_mask': mask}}) before stepping "
                f"(autoreset_mode is DISABLED)"
            )
        # the move: the blank and the tile it meets trade places (an illegal action: the blank
        # "moves" onto itself, which leaves the board as it was)
        target = self._moves_flat[self._blank * 4 + a]
        moved_to = np.where(target >= 0, target, self._blank)
        flat = self._boards.reshape(-1)
        here, there = self._offsets + self._blank, self._offsets + moved_to
        flat[here] = flat[there]
        flat[there] = 0
        self._blank = moved_to
        self._steps += 1
        d = self._distances()
        terminated = d == 0 if d is not None else (self._boards == self._goal).all(axis=1)
        truncated = (self._steps >= self.max_steps) & ~terminated
        rewards = np.where(terminated, 0.0, -1.0)

        final: dict[str, Any] = {}
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            if restart.any():
                which = np.flatnonzero(restart)
                self._start(which, self._draw(which.size, self.distance))
                d = self._distances(which, d)
                rewards[which], terminated[which], truncated[which] = 0.0, False, False
            self._ended = terminated | truncated
        elif self.autoreset_mode == AutoresetMode.SAME_STEP:
            ended = terminated | truncated
            if ended.any():
                which = np.flatnonzero(ended)
                last = self._obs()
                final_obs = np.full(self.num_envs, None, dtype=object)
                for k in which:
                    final_obs[k] = last[k]
                final = {
                    "final_obs": final_obs,
                    "_final_obs": ended.copy(),
                    "final_info": self._infos(d, ended),
                    "_final_info": ended.copy(),
                }
                self._start(which, self._draw(which.size, self.distance))
                d = self._distances(which, d.copy() if d is not None else None)
        else:
            self._ended = terminated | truncated
        info = self._infos(d, None)
        info.update(final)
        return self._obs(), rewards, terminated, truncated, info

    def render(self) -> Optional[tuple[Any, ...]]:
        """One drawing per board: text (``"ansi"``) or a picture (``"rgb_array"``), as
        :meth:`SlidingPuzzleEnv.render`; None without a render mode or before the first reset."""
        if self.render_mode is None or not self._started:
            return None
        r, c = self.puzzle.rows, self.puzzle.cols
        if self.render_mode == "rgb_array":
            return tuple(render_rgb(b, r, c) for b in self._boards)
        return tuple(self.puzzle.grid(b) for b in self._boards)

    def action_masks(self) -> np.ndarray:
        """Which of the 4 actions are legal on each board.

        Returns
        -------
        numpy.ndarray of bool, shape (num_envs, 4)
        """
        if not self._started:
            raise RuntimeError("call reset() first")
        return self._moves[self._blank] >= 0

    action_mask = action_masks

    @property
    def boards(self) -> np.ndarray:
        """The current boards, ``(num_envs, cells)`` row-major (a copy)."""
        return self._boards.copy()

    # -- helpers -----------------------------------------------------------------------------------

    def _actions(self, actions: Any) -> np.ndarray:
        if isinstance(actions, str):
            raise TypeError(
                f"actions are integers 0 to 3 (U, D, L, R), one per board, not a string; for letters use "
                f"slidetable.moves_to_actions({actions!r}, convention={self.convention!r})"
            )
        a = np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions are integers 0 to 3 (U, D, L, R), one per board, not {a.dtype}")
        if a.shape != (self.num_envs,):
            raise ValueError(f"{self.num_envs} actions expected, one per board, not an array of shape {a.shape}")
        if a.dtype != np.intp:
            a = a.astype(np.intp)
        bad = a.view(np.uintp) > 3  # a negative action is a huge unsigned one
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError(f"action {int(a[i])} of board {i} is not one of 0, 1, 2, 3 (U, D, L, R)")
        return a

    def _reset_mask(self, mask: Any) -> np.ndarray:
        if mask is None:
            return np.ones(self.num_envs, dtype=np.bool_)
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
            raise TypeError(f"options['reset_mask'] must be a numpy bool array of shape ({self.num_envs},)")
        if mask.shape != (self.num_envs,):
            raise ValueError(f"options['reset_mask'] must have shape ({self.num_envs},), not {mask.shape}")
        if not mask.any():
            raise ValueError("options['reset_mask'] resets no board: mark at least one True")
        return mask.copy()

    def _given_boards(self, boards: Any, count: int) -> np.ndarray:
        p = self.puzzle
        b = np.asarray(boards)
        if b.dtype.kind not in "iu":
            raise TypeError(f"options['boards'] must be integer boards, not {b.dtype}")
        if b.ndim == 3 and b.shape[1:] == (p.rows, p.cols):
            b = b.reshape(b.shape[0], p.cells)
        if b.shape != (count, p.cells):
            raise ValueError(
                f"options['boards'] must be {count} boards (one per board reset) of {p.cells} cells, "
                f"shape ({count}, {p.cells}) or ({count}, {p.rows}, {p.cols}), not {b.shape}"
            )
        ok = np.asarray(p.is_solvable(b))
        if not ok.all():
            i = int(np.argmin(ok))
            raise ValueError(f"options['boards'][{i}] cannot reach the goal: {p.unsolvable_reason(b[i])}")
        at_goal = (b == self._goal).all(axis=1)
        if at_goal.any():
            raise ValueError(f"options['boards'][{int(np.argmax(at_goal))}] is the goal: an episode must start elsewhere")
        return b.astype(p.dtype)

    def _seed(self) -> int:
        return int(self.np_random.integers(0, 2**63 - 1))

    def _draw(self, count: int, distance: Distance) -> np.ndarray:
        """``count`` starts drawn as ``distance`` says (see :class:`SlidingPuzzleEnv`), by batch
        calls: one per distance drawn, not one per board."""
        p, rng = self.puzzle, self.np_random
        out = np.empty((count, p.cells), dtype=p.dtype)
        if count == 0:
            return out
        if distance is None:
            todo = np.arange(count)
            while todo.size:  # only the goal is redrawn
                out[todo] = self._uniform(todo.size)
                todo = todo[(out[todo] == self._goal).all(axis=1)]
            return out
        if isinstance(distance, tuple):
            depths = rng.integers(distance[0], distance[1] + 1, count)
        else:
            depths = np.full(count, int(distance))
        for depth in np.unique(depths):
            rows = np.flatnonzero(depths == depth)
            out[rows] = self._at_distance(int(depth), rows.size)
        return out

    def _at_distance(self, depth: int, count: int) -> np.ndarray:
        if self.table is not None:
            # distinct boards at `depth`, uniformly, in random order; where fewer exist than
            # asked for, boards drawn uniformly (with repeats) among them all
            have = int(self._histogram[depth])
            boards = self.table.sample(depth, min(count, have), self._seed())
            pick = self.np_random.permutation(count) if count <= have else self.np_random.integers(0, have, count)
            return boards[pick]
        boards = self.puzzle.random_walk(count, depth, self._seed())
        for _ in range(100):
            home = (boards == self._goal).all(axis=1)
            if not home.any():
                return boards
            boards[home] = self.puzzle.random_walk(int(home.sum()), depth, self._seed())
        raise RuntimeError(f"100 random walks of {depth} moves all came back to the goal")

    def _uniform(self, count: int) -> np.ndarray:
        """Boards drawn uniformly among the solvable ones: random arrangements, the first two
        tiles (not the blank) swapped where the parity is wrong (a bijection between the two
        halves, so the result stays uniform)."""
        p = self.puzzle
        if self.table is not None:
            return self.table.unrank(self.np_random.integers(0, len(self.table), count))
        boards = np.argsort(self.np_random.random((count, p.cells)), axis=1).astype(p.dtype)
        bad = np.flatnonzero(~p.is_solvable(boards))
        b = boards[bad]
        first = np.where(b[:, 0] == 0, 1, 0)
        second = np.where(b[:, 1] == 0, 2, 1) + (first == 1)
        rows = np.arange(bad.size)
        b[rows, first], b[rows, second] = b[rows, second], b[rows, first]
        boards[bad] = b
        return boards

    def _start(self, which: np.ndarray, boards: np.ndarray) -> None:
        self._boards[which] = boards
        self._blank[which] = np.argmax(boards == 0, axis=1)
        self._steps[which] = 0
        self._ended[which] = False

    def _distances(self, which: Optional[np.ndarray] = None, d: Optional[np.ndarray] = None) -> Optional[np.ndarray]:
        """The exact distances of all boards, or ``d`` with those of the boards ``which`` looked up
        again; None without a table."""
        if self.table is None:
            return None
        if which is None or d is None:
            return np.asarray(self.table.distance(self._boards))
        d[which] = self.table.distance(self._boards[which])
        return d

    def _obs(self) -> np.ndarray:
        return self._boards.reshape(self.num_envs, self.puzzle.rows, self.puzzle.cols).copy()

    def _infos(self, d: Optional[np.ndarray], mask: Optional[np.ndarray]) -> dict[str, Any]:
        m = np.ones(self.num_envs, dtype=np.bool_) if mask is None else mask
        info: dict[str, Any] = {
            "action_mask": self._moves[self._blank] >= 0,
            "_action_mask": m,
            "steps": self._steps.copy(),
            "_steps": m.copy(),
        }
        if d is not None:
            info["distance"], info["_distance"] = d, m.copy()
        if self.optimal_actions:
            assert self.table is not None
            info["optimal_actions"] = self.table.optimal_moves(self._boards, self.convention)
            info["_optimal_actions"] = m.copy()
        if self._estimate is not None:
            info["estimate"], info["_estimate"] = self._estimate(self._boards), m.copy()
        return info

    def __repr__(self) -> str:
        return (
            f"SlidingPuzzleVectorEnv({self.num_envs}, {self.puzzle.rows}, {self.puzzle.cols}, "
            f"goal={self.puzzle.goal_name!r}, convention={self.convention!r}, distance={self.distance!r}, "
            f"max_steps={self.max_steps}, autoreset_mode={self.autoreset_mode.value!r})"
        )


if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point=f"{__name__}:SlidingPuzzleEnv",
        vector_entry_point=f"{__name__}:SlidingPuzzleVectorEnv",
        max_episode_steps=MAX_EPISODE_STEPS,
    )
