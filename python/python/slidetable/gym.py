"""A Gymnasium environment for sliding-tile puzzles, with exact distances where a table exists.

Needs the ``gym`` extra (``pip install slidetable[gym]``). Importing this module registers the
environment as ``slidetable/SlidingPuzzle-v0`` for :func:`gymnasium.make`.

Example
-------
>>> from slidetable.gym import SlidingPuzzleEnv
>>> env = SlidingPuzzleEnv(3, 3, distance=(5, 10), seed=0)
>>> obs, info = env.reset()
>>> action = int(info["optimal_actions"].argmax())          # a move one step closer to the goal
>>> obs, reward, terminated, truncated, info = env.step(action)

Conventions
-----------
* An observation is the board as a ``(rows, cols)`` array of tile numbers, ``0`` the blank.
* An action is ``0 1 2 3`` = ``U D L R``. In the default ``"tile"`` convention it is the
  direction a tile slides (into the blank), as DeepCubeA and SPGym write it: ``U`` slides the
  tile below the blank up. In the ``"blank"`` convention (slidetable's and the CLI's) it is the
  direction the blank moves, the mirror image: the tile convention's ``U`` is the blank's ``D``.
* Reward: ``-1`` for every step that does not reach the goal, ``0`` for the step that does. An
  episode started ``d`` moves from the goal and solved optimally therefore returns ``-(d - 1)``.
* An illegal action (pushing against the edge) leaves the board unchanged, costs a step and
  its ``-1``; ``info["action_mask"]`` says which actions are legal.
"""

from __future__ import annotations

import functools
from typing import Any, Optional, SupportsFloat, Tuple, Union

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.envs.registration import EnvSpec
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "slidetable.gym needs Gymnasium: pip install slidetable[gym] (or pip install gymnasium)"
    ) from e

import slidetable as st

__all__ = ["SlidingPuzzleEnv", "ENV_ID", "AUTO_TABLE_CELLS"]

#: The id under which :func:`gymnasium.make` finds :class:`SlidingPuzzleEnv`.
ENV_ID = "slidetable/SlidingPuzzle-v0"
#: Boards of up to this many cells get a perfect table built on the spot (a few milliseconds;
#: 2x5 is 1.8 million states, 20 ms). Twelve-cell boards (3x4, 2x6: 240 million states, 10 s or
#: more) need ``table=`` (a prebuilt :class:`slidetable.Table`) or ``table=True``.
AUTO_TABLE_CELLS = 10

Distance = Union[None, int, Tuple[int, int]]


@functools.lru_cache(maxsize=8)
def _shared_table(rows: int, cols: int, goal: Tuple[int, ...]) -> st.Table:
    """One in-memory table per shape and goal in this process, shared by the environments that
    build theirs (a vector of 3x3 environments holds one 181,440-byte table, not many)."""
    return st.Table.build(st.Puzzle(rows, cols, list(goal)))


class SlidingPuzzleEnv(gymnasium.Env[np.ndarray, np.int64]):
    """Slide the tiles back to the goal, one move per step.

    Parameters
    ----------
    rows, cols:
        The board's shape (3x3 is the 8-puzzle, 4x4 the 15-puzzle).
    goal:
        The goal, as :class:`slidetable.Puzzle` takes it (``"blank-last"``, ``"blank-first"``,
        ``"snail"``, or an arrangement).
    convention:
        What an action means: ``"tile"`` (default; the direction the tile moves) or ``"blank"``
        (the direction the blank moves). See the module's notes.
    distance:
        How far from the goal episodes start. With a table (see ``table``) distances are exact:
        an ``int`` starts every episode exactly that many moves away, a ``(lo, hi)`` pair draws
        the distance uniformly from ``lo`` to ``hi`` (inclusive) and then a board uniformly
        among those at that distance, and ``None`` (default) draws a board uniformly among all
        solvable boards but the goal. Without a table, an ``int`` (or a distance drawn from
        ``(lo, hi)``) is the length of a random walk from the goal (never straight back), so it
        is only an upper bound on the true distance; ``None`` still draws uniformly among all
        solvable boards (a random permutation of the right parity).
    max_steps:
        Episodes are truncated after this many steps. Default: four times the table's largest
        distance (124 on the 3x3), or 200 without a table.
    table:
        The perfect table that gives exact distances, optimal actions and exact-distance starts.
        ``None`` (default) builds one in memory for boards of up to :data:`AUTO_TABLE_CELLS`
        cells (shared by the environments of a process) and goes without on larger boards;
        a :class:`slidetable.Table` (e.g. ``Table.open("3x4.table")`` for a 12-cell board) is
        used as given; ``True`` builds one whatever it costs (at most 12 cells); ``False``
        never uses one.
    seed:
        Seeds the environment's random generator (as a first ``reset(seed=...)`` would).
    render_mode:
        ``"ansi"`` (:meth:`render` returns the grid as text) or ``"human"`` (prints it after
        every reset and step).

    Spaces
    ------
    ``action_space = Discrete(4)`` and ``observation_space = Box(0, cells - 1, (rows, cols),
    uint8)``.

    Info
    ----
    Every ``reset`` and ``step`` returns:

    * ``"distance"``: the exact number of moves to the goal (``None`` without a table);
    * ``"action_mask"``: which of the 4 actions are legal here (bool array);
    * ``"optimal_actions"``: which actions bring the board one move closer (bool array, all
      False at the goal); only with a table;
    * ``"steps"``: the steps taken in this episode.

    ``reset(options={"board": board})`` starts from a given board, and
    ``reset(options={"distance": 12})`` (or a ``(lo, hi)`` pair) overrides ``distance`` for one
    episode, e.g. for a curriculum.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

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
    ):
        cols = rows if cols is None else cols
        if convention not in ("tile", "blank"):
            raise ValueError(f"unknown convention {convention!r}: use 'tile' (the tile's direction) or 'blank'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: use 'ansi', 'human' or None")
        self.puzzle = st.Puzzle(rows, cols, goal)
        self.convention = convention
        self.render_mode = render_mode
        self.table: Optional[st.Table] = self._open_table(table)
        self.distance: Distance = self._check_distance(distance)
        if max_steps is None:
            max_steps = 4 * self.table.max_depth if self.table is not None else 200
        if int(max_steps) < 1:
            raise ValueError("max_steps must be at least 1")
        self.max_steps = int(max_steps)

        cells = self.puzzle.cells
        self.action_space = spaces.Discrete(4)
        self.observation_space = spaces.Box(0, cells - 1, (rows, cols), self.puzzle.dtype)
        self._goal = np.array(self.puzzle.goal)
        self._moves = self._move_table()
        self._board: Optional[np.ndarray] = None
        self._blank = -1
        self._steps = 0
        # how gymnasium.make would build this environment again (make() sets its own spec);
        # with it, env_checker.check_env can try the other render modes
        self.spec = EnvSpec(
            ENV_ID,
            entry_point=f"{__name__}:SlidingPuzzleEnv",
            kwargs=dict(
                rows=rows, cols=cols, goal=goal, convention=convention, distance=distance,
                max_steps=max_steps, table=table, seed=seed,
            ),
        )
        if seed is not None:
            super().reset(seed=seed)

    # -- set-up ------------------------------------------------------------------------------------

    def _open_table(self, table: Union[st.Table, bool, None]) -> Optional[st.Table]:
        p = self.puzzle
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
        return _shared_table(p.rows, p.cols, tuple(int(t) for t in p.goal))

    def _check_distance(self, distance: Any) -> Distance:
        if distance is None:
            return None
        top = self.table.max_depth if self.table is not None else None
        if isinstance(distance, (int, np.integer)):
            lo = hi = int(distance)
        else:
            try:
                lo, hi = (int(d) for d in distance)
            except (TypeError, ValueError):
                raise TypeError(f"distance must be None, an int or a (lo, hi) pair, not {distance!r}") from None
        if lo < 1 or hi < lo:
            raise ValueError(f"distance {distance!r}: need 1 <= lo <= hi (the goal itself is not a start)")
        if top is not None and hi > top:
            raise ValueError(f"distance {distance!r}: no {self.puzzle.rows}x{self.puzzle.cols} board is more than {top} moves from the goal")
        return lo if lo == hi and isinstance(distance, (int, np.integer)) else (lo, hi)

    def _move_table(self) -> np.ndarray:
        """``moves[p, a]``: where the blank goes from cell ``p`` under action ``a`` in this
        environment's convention, or -1 if the action is illegal there; read off
        :meth:`slidetable.Puzzle.expand` so it agrees with the library by construction."""
        n = self.puzzle.cells
        boards = np.empty((n, n), dtype=np.uint16)
        for p in range(n):  # any arrangement with the blank on cell p (solvability is irrelevant)
            order = list(range(1, n))
            order.insert(p, 0)
            boards[p] = order
        kids, legal = self.puzzle.expand(boards, self.convention)
        moves = np.argmax(kids == 0, axis=2).astype(np.int64)
        moves[~legal] = -1
        return moves

    # -- the Gymnasium API -------------------------------------------------------------------------

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts an episode: a board drawn as ``distance`` says (see the class), or
        ``options["board"]``; ``options["distance"]`` overrides ``distance`` for this episode.
        Returns the observation and the info dict."""
        super().reset(seed=seed)
        options = options or {}
        if options.get("board") is not None:
            board = self._given_board(options["board"])
        else:
            distance = self._check_distance(options["distance"]) if "distance" in options else self.distance
            board = self._draw(distance)
        self._board = board
        self._blank = int(np.argmax(board == 0))
        self._steps = 0
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays one action (``0 1 2 3`` = ``U D L R`` in the environment's convention).

        Returns ``(observation, reward, terminated, truncated, info)``: reward ``0.0`` if the
        move reaches the goal (then ``terminated``), else ``-1.0`` (an illegal action too,
        which leaves the board as it was); ``truncated`` once ``max_steps`` steps are taken
        without reaching the goal."""
        if self._board is None:
            raise RuntimeError("call reset() before step()")
        a = int(action)
        if a != action or not 0 <= a < 4:
            raise ValueError(f"action {action!r} is not one of 0, 1, 2, 3 (U, D, L, R)")
        target = int(self._moves[self._blank, a])
        if target >= 0:
            board = self._board
            board[self._blank], board[target] = board[target], 0
            self._blank = target
        self._steps += 1
        terminated = bool(np.array_equal(self._board, self._goal))
        truncated = not terminated and self._steps >= self.max_steps
        if self.render_mode == "human":
            self.render()
        return self._obs(), 0.0 if terminated else -1.0, terminated, truncated, self._info()

    def render(self) -> Optional[str]:
        """The board as a grid of text (``"ansi"``), printed (``"human"``), or nothing."""
        if self._board is None or self.render_mode is None:
            return None
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

    def action_mask(self) -> np.ndarray:
        """Which of the 4 actions are legal on the current board."""
        if self._board is None:
            raise RuntimeError("call reset() first")
        return self._moves[self._blank] >= 0

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
        info: dict[str, Any] = {"distance": None, "action_mask": self._moves[self._blank] >= 0, "steps": self._steps}
        if self.table is not None:
            info["distance"] = self.table.distance(self._board)
            info["optimal_actions"] = np.asarray(self.table.optimal_moves(self._board, self.convention), dtype=np.bool_)
        return info

    def __repr__(self) -> str:
        return (
            f"SlidingPuzzleEnv({self.puzzle.rows}, {self.puzzle.cols}, goal={self.puzzle.goal_name!r}, "
            f"convention={self.convention!r}, distance={self.distance!r}, max_steps={self.max_steps})"
        )


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="slidetable.gym:SlidingPuzzleEnv")
