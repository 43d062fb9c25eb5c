"""One board: ``SlidingPuzzleEnv``, the Gymnasium environment."""

from __future__ import annotations

import collections
from typing import Any, Optional, SupportsFloat, Tuple, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.envs.registration import EnvSpec

import slidetable as st
from slidetable._common import Board, Convention, GoalLike

from ._checks import (
    ENTRY_POINT,
    ENV_ID,
    RESET_OPTIONS,
    VECTOR_ENTRY_POINT,
    Distance,
    Oracle,
    RenderMode,
    check_action,
    check_convention,
    check_distance,
    check_max_steps,
    check_options,
    check_oracle,
    estimator,
    move_table,
    open_table,
)
from .render import render_rgb

__all__ = ["SlidingPuzzleEnv"]


#: One action: a Python int, a numpy integer or a 0-d integer array, ``0 1 2 3`` = ``U D L R``.
ActionLike = Union[int, np.integer[Any], npt.NDArray[np.integer[Any]]]


# -- exact distances by search ---------------------------------------------------------------------


class _ExactDistances:
    """Exact distances by optimal search (``IDA*`` with the caller's pattern tables), made cheap along
    an episode: the optimal plan found for a board is kept, so a step along it costs nothing
    (the distance drops by one), and the boards solved lately are remembered (a step back off a
    detour costs nothing either). Any other step is a new search."""

    def __init__(self, solver: Union[st.PatternDB, st.Solver], convention: Convention, keep: int = 4096):
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
    rows : int, default 3
        The board's number of rows (3x3 is the 8-puzzle, 4x4 the 15-puzzle).
    cols : int, optional
        The board's number of columns; defaults to ``rows``.
    goal : str or array_like of int, shape (cells,) or (rows, cols)
        The goal, as ``slidetable.Puzzle`` takes it (``"blank-last"``, ``"blank-first"``,
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
        Episodes are truncated after this many steps. Default ``MAX_EPISODE_STEPS`` (200),
        the registered spec's ``max_episode_steps``.
    table : slidetable.Table or bool, optional
        The perfect table that gives exact distances, optimal actions and exact-distance starts.
        ``None`` (default) builds one in memory for boards of up to ``AUTO_TABLE_CELLS``
        cells (shared by the environments of a process) and goes without on larger boards;
        a ``slidetable.Table`` (e.g. ``Table.open("3x4.table")`` for a 12-cell board) is
        used as given; ``True`` builds one whatever it costs (at most 12 cells); ``False``
        never uses one.
    solver : slidetable.PatternDB or slidetable.Solver, optional
        Distances on boards too large for a table (4x4, 5x5). A ``PatternDB`` adds its
        admissible estimate to ``info`` as ``"estimate"`` (microseconds a step); so does a
        ``Solver`` searching with pattern tables or an admissible classic heuristic. With
        ``exact_distance=True`` either one also gives the exact ``info["distance"]``.
    exact_distance : bool, default False
        Find the exact distance of every board by optimal search (``IDA*`` with ``solver``'s
        estimate). This costs a search at each reset and at each step off the optimal path
        found last (a step along it, or back to a board seen lately, costs nothing). A search
        is what ``slidetable.Solver.solve`` costs: on 4x4 with the 7-8 tables a few
        milliseconds for a random board (``python_bench.py batch`` aims at 500 boards a second
        on 2 cores), with smaller tables many times more; on 5x5 it grows steeply with the
        distance, from milliseconds near the goal to hours for a random board even with the
        6-6-6-6 tables, so start 5x5 episodes near the goal (``distance=``). Needs ``solver``
        (or a table, whose distances are always exact).
    seed : int, optional
        Seeds the environment's random generator (as a first ``reset(seed=...)`` would).
    render_mode : {"ansi", "human", "rgb_array"}, optional
        ``"ansi"``: ``render`` returns the grid as text; ``"human"``: it is printed after
        every reset and step; ``"rgb_array"``: ``render`` returns a picture of the board,
        ``(rows * CELL_PIXELS, cols * CELL_PIXELS, 3)`` uint8 (see ``render_rgb``).

    Attributes
    ----------
    action_space : gymnasium.spaces.Discrete
        ``Discrete(4)``.
    observation_space : gymnasium.spaces.Box
        ``Box(0, cells - 1, (rows, cols), uint8)`` (uint16 past 256 cells).
    puzzle : slidetable.Puzzle
        The board's shape and goal.
    table : slidetable.Table or None
        The perfect table in use, if any.
    distance : None, int or (int, int)
        How far from the goal episodes start (as given, checked).
    max_steps : int
        The steps after which an episode is truncated.

    Raises
    ------
    TypeError
        A ``rows``, ``cols`` or ``max_steps`` that is not an integer; a ``distance`` that is
        not None, an int or a pair; a ``table`` that is not a ``slidetable.Table``, a bool
        or None; a ``solver`` that is not a ``slidetable.PatternDB`` or
        ``slidetable.Solver``; an ``exact_distance`` that is not a bool.
    ValueError
        An unknown ``convention``, ``render_mode`` or goal; a ``table`` or ``solver`` for
        another puzzle; ``table=True`` on a board of more than 12 cells; a ``distance`` below 1
        or beyond the farthest board (with a table); ``max_steps`` below 1;
        ``exact_distance=True`` with neither a table nor a ``solver``.

    Notes
    -----
    Every ``reset`` and ``step`` returns an ``info`` dict with:

    * ``"distance"``: the exact number of moves to the goal (from the table, or by search with
      ``exact_distance``), else ``None``;
    * ``"estimate"``: an admissible estimate of it, with a ``solver`` that has one;
    * ``"action_mask"``: which of the 4 actions are legal here (bool array, as
      ``action_masks``);
    * ``"optimal_actions"``: which actions bring the board one move closer (bool array, all
      False at the goal); only with a table;
    * ``"steps"``: the steps taken in this episode.

    ``reset(options={"board": board})`` starts from a given board, and
    ``reset(options={"distance": 12})`` (or a ``(lo, hi)`` pair) overrides ``distance`` for one
    episode, e.g. for a curriculum; other keys are refused.

    Examples
    --------
    >>> from slidetable.gym import SlidingPuzzleEnv
    >>> env = SlidingPuzzleEnv(3, 3, distance=(5, 10), seed=0)
    >>> env
    SlidingPuzzleEnv(3, 3, goal='blank-last', convention='tile', distance=(5, 10), max_steps=200)
    >>> env.action_space, env.observation_space
    (Discrete(4), Box(0, 8, (3, 3), uint8))
    >>> obs, info = env.reset()
    >>> 5 <= info["distance"] <= 10
    True
    >>> sorted(info)
    ['action_mask', 'distance', 'optimal_actions', 'steps']

    Without a table (``table=False``) a ``solver`` gives the estimate, and with
    ``exact_distance=True`` the exact distance, by search:

    >>> import slidetable as st
    >>> env = SlidingPuzzleEnv(3, 3, table=False, solver=st.Solver(st.Puzzle(3, 3), "manhattan"),
    ...                        exact_distance=True, seed=0)
    >>> obs, info = env.reset(options={"board": [1, 2, 3, 4, 5, 6, 0, 7, 8]})
    >>> info["distance"], info["estimate"]
    (2, 2)
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        rows: int = 3,
        cols: Optional[int] = None,
        goal: GoalLike = "blank-last",
        convention: Convention = "tile",
        distance: Distance = None,
        max_steps: Optional[int] = None,
        table: Union[st.Table, bool, None] = None,
        seed: Optional[int] = None,
        render_mode: Optional[RenderMode] = None,
        solver: Oracle = None,
        exact_distance: bool = False,
    ):
        cols = rows if cols is None else cols
        convention = check_convention(convention)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}: use 'ansi', 'human', 'rgb_array' or None")
        self.puzzle = st.Puzzle(rows, cols, goal)
        self.convention = convention
        self.render_mode = render_mode
        self.table: Optional[st.Table] = open_table(self.puzzle, table)
        self.distance: Distance = check_distance(self.puzzle, self.table, distance)
        self.max_steps = check_max_steps(max_steps)
        self.solver = check_oracle(self.puzzle, solver)
        if not isinstance(exact_distance, bool):
            raise TypeError(f"exact_distance must be True or False, not {exact_distance!r}")
        if exact_distance and self.table is None and self.solver is None:
            raise ValueError(
                f"exact_distance=True needs solver= (a slidetable.PatternDB or Solver for the "
                f"{self.puzzle.rows}x{self.puzzle.cols} board) or a table (boards of up to 12 cells)"
            )
        self.exact_distance = exact_distance
        self._estimate = estimator(self.puzzle, self.solver)
        self._exact: Optional[_ExactDistances] = None
        if exact_distance and self.table is None:
            assert self.solver is not None
            self._exact = _ExactDistances(self.solver, convention)

        cells = self.puzzle.cells
        self.action_space = spaces.Discrete(4)
        self.observation_space = spaces.Box(0, cells - 1, (rows, cols), self.puzzle.dtype)
        self._goal = np.array(self.puzzle.goal)
        self._moves = move_table(self.puzzle, convention)
        self._board: Optional[np.ndarray] = None
        self._blank = -1
        self._steps = 0
        self._distance: Optional[int] = None
        # how gymnasium.make would build this environment again (make() sets its own spec);
        # with it, env_checker.check_env can try the other render modes
        self.spec = EnvSpec(
            ENV_ID,
            entry_point=ENTRY_POINT,
            vector_entry_point=VECTOR_ENTRY_POINT,
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
            ``{"board": board}`` starts from ``board`` (array_like of int, shape ``(cells,)``
            or ``(rows, cols)``; solvable, not the goal); ``{"distance": d}`` (an int or a
            ``(lo, hi)`` pair) overrides ``distance`` for this episode.

        Returns
        -------
        observation : numpy.ndarray of uint8, shape (rows, cols)
            The start (a copy; uint16 past 256 cells).
        info : dict
            See the class's notes.

        Raises
        ------
        ValueError
            For an unknown option, a board of the wrong size or shape, one that cannot reach
            the goal or is the goal, a distance out of range.
        TypeError
            For options that are not a dict, a board that is not of integers, a distance that
            is not an int or a pair.

        Examples
        --------
        >>> from slidetable.gym import SlidingPuzzleEnv
        >>> env = SlidingPuzzleEnv(3, 3, seed=0)
        >>> obs, info = env.reset(options={"board": [1, 2, 3, 4, 5, 6, 0, 7, 8]})
        >>> obs
        array([[1, 2, 3],
               [4, 5, 6],
               [0, 7, 8]], dtype=uint8)
        >>> info["distance"], info["steps"]
        (2, 0)
        >>> obs, info = env.reset(seed=1, options={"distance": 12})   # a curriculum's next step
        >>> info["distance"]
        12
        """
        super().reset(seed=seed)
        options = check_options(options, RESET_OPTIONS)
        if options.get("board") is not None:
            board = self._given_board(options["board"])
        else:
            if "distance" in options:
                distance = check_distance(self.puzzle, self.table, options["distance"], "options['distance']")
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

    def step(self, action: ActionLike) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Plays one action.

        Parameters
        ----------
        action : int
            ``0 1 2 3`` = ``U D L R`` in the environment's convention: a Python int, a numpy
            integer or a 0-d integer array.

        Returns
        -------
        observation : numpy.ndarray of uint8, shape (rows, cols)
            The board after the move (a copy).
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
            Before the first ``reset``.

        Examples
        --------
        >>> from slidetable.gym import SlidingPuzzleEnv
        >>> env = SlidingPuzzleEnv(3, 3, seed=0)                  # the tile convention
        >>> obs, info = env.reset(options={"board": [1, 2, 3, 4, 5, 6, 0, 7, 8]})
        >>> env.step(0)[1], env.board.tolist()    # U: no tile below the blank, the board stays
        (-1.0, [1, 2, 3, 4, 5, 6, 0, 7, 8])
        >>> obs, reward, terminated, truncated, info = env.step(2)  # L: the 7 slides left
        >>> obs.ravel(), reward, terminated, info["distance"], info["steps"]
        (array([1, 2, 3, 4, 5, 6, 7, 0, 8], dtype=uint8), -1.0, False, 1, 2)
        >>> env.step(2)[1:4]                      # L again: the 8, and the goal
        (0.0, True, False)
        """
        if self._board is None:
            raise RuntimeError("call reset() before step()")
        a = check_action(action, self.convention)
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

    def render(self) -> Union[str, npt.NDArray[np.uint8], None]:
        """Draws the current board as ``render_mode`` says.

        Returns
        -------
        str, numpy.ndarray of uint8 or None
            ``"ansi"``: the grid as text; ``"rgb_array"``: a ``(rows * CELL_PIXELS,
            cols * CELL_PIXELS, 3)`` uint8 picture (see ``render_rgb``); ``"human"``
            (which prints the grid) and no render mode: None. None before the first reset.

        Examples
        --------
        >>> from slidetable.gym import SlidingPuzzleEnv
        >>> env = SlidingPuzzleEnv(3, 3, render_mode="ansi", seed=0)
        >>> _ = env.reset(options={"board": [1, 2, 3, 4, 5, 6, 0, 7, 8]})
        >>> print(env.render(), end="")
        1 2 3
        4 5 6
        _ 7 8
        >>> env = SlidingPuzzleEnv(3, 3, render_mode="rgb_array", seed=0)
        >>> _ = env.reset()
        >>> env.render().shape
        (144, 144, 3)
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
    def board(self) -> Optional[Board]:
        """The current board, ``(cells,)`` uint8 (uint16 past 256 cells), row-major (a copy);
        None before the first reset."""
        return None if self._board is None else self._board.copy()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which of the 4 actions are legal on the current board.

        The name sb3-contrib's ``MaskablePPO`` calls (``action_mask`` is the same). An illegal
        action pushes against the edge: it leaves the board as it was and costs a step. An
        environment from ``gymnasium.make`` is wrapped (``TimeLimit``...), and Gymnasium 1.x
        wrappers do not pass unknown methods through: call ``env.unwrapped.action_masks()``, or
        read ``info["action_mask"]`` (sb3-contrib's ``ActionMasker`` wrapper takes either).

        Returns
        -------
        numpy.ndarray of bool, shape (4,)
            For ``U D L R`` in the environment's convention, as ``info["action_mask"]``.

        Raises
        ------
        RuntimeError
            Before the first ``reset``.

        Examples
        --------
        >>> from slidetable.gym import SlidingPuzzleEnv
        >>> env = SlidingPuzzleEnv(3, 3, seed=0)                  # the tile convention
        >>> _ = env.reset(options={"board": [0, 1, 2, 3, 4, 5, 6, 7, 8]})
        >>> env.action_masks()      # the blank top-left: a tile below slides up, one right of it left
        array([ True, False,  True, False])
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


