"""Many boards: ``SlidingPuzzleVectorEnv``, stepped together by array operations."""

from __future__ import annotations

from typing import Any, Literal, Optional, Union

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

try:  # the vector API of Gymnasium 1.1 and later
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError:  # pragma: no cover - older Gymnasium: the single environment still works
    AutoresetMode = None  # type: ignore[assignment,misc]
    VectorEnv = object  # type: ignore[assignment,misc]

import slidetable as st
from slidetable._common import Boards, Convention, GoalLike

from ._checks import (
    VECTOR_RESET_OPTIONS,
    Distance,
    Oracle,
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

__all__ = ["SlidingPuzzleVectorEnv"]


# -- many boards --------------------------------------------------------------------------------------


class SlidingPuzzleVectorEnv(VectorEnv):  # type: ignore[misc,valid-type]
    """``num_envs`` boards stepped together by numpy array operations (no loop over the boards),
    with Gymnasium's vector API (Gymnasium 1.1 or later).

    Each board follows ``SlidingPuzzleEnv``'s rules (actions, rewards, truncation after
    ``max_steps``, starts drawn as ``distance`` says); a batch is ``num_envs`` of them. This is
    what ``gymnasium.make_vec("slidetable/SlidingPuzzle-v0", num_envs=N)`` builds.

    Parameters
    ----------
    num_envs : int, default 1
        How many boards.
    rows : int, default 3
        The boards' number of rows.
    cols : int, optional
        The boards' number of columns; defaults to ``rows``.
    goal : str or array_like of int, shape (cells,) or (rows, cols)
        As for ``SlidingPuzzleEnv``.
    convention : {"tile", "blank"}
        As for ``SlidingPuzzleEnv``: what an action means.
    distance : None, int or (int, int)
        As for ``SlidingPuzzleEnv``: how far from the goal each board's episodes start.
    table : slidetable.Table or bool, optional
        As for ``SlidingPuzzleEnv``: one table, shared by all the boards.
    seed : int, optional
        Seeds the random generator (as a first ``reset(seed=...)`` would).
    max_steps : int, optional
        Each board's episode is truncated after this many steps; default ``max_episode_steps``
        if given, else ``MAX_EPISODE_STEPS`` (200).
    render_mode : {"ansi", "rgb_array"}, optional
        ``render`` returns a tuple of one grid of text, or one picture, per board.
    solver : slidetable.PatternDB or slidetable.Solver, optional
        Adds ``info["estimate"]``, the admissible estimate of every board (one batch lookup a
        step).
    exact_distance : bool, default False
        Accepted so that the single environment's arguments fit, but here exact distances come
        from a table only: ``True`` on a board without one is refused (a search for each board
        at each step is far slower than a step; use ``SlidingPuzzleEnv`` for that).
    optimal_actions : bool, default False
        With a table, add ``info["optimal_actions"]`` (``(num_envs, 4)`` bool, as the single
        environment always does). Off by default: it costs more than the rest of a step put
        together (1,024 3x3 boards on an idle 2-core machine: about 3.5 million board-steps a
        second with it, 9.6 million without; ``python scripts/python_bench.py gym``).
    autoreset_mode : gymnasium.vector.AutoresetMode or str, default AutoresetMode.NEXT_STEP
        What happens to a board whose episode ended (terminated or truncated). ``NEXT_STEP``
        (Gymnasium's default): the next ``step`` resets it, ignoring its action, and
        returns its first observation with reward 0, ``terminated`` and ``truncated`` False.
        ``SAME_STEP``: the step that ends the episode resets it at once, returns the new start
        as its observation and puts the last one in ``info["final_obs"]`` (an object array,
        None for the boards that went on) and that step's info in ``info["final_info"]``, each
        with its ``"_final_obs"``/``"_final_info"`` mask. ``DISABLED``: never; stepping an ended
        board is an error, ``reset(options={"reset_mask": ...})`` resets some boards.
    max_episode_steps : int, optional
        What ``gymnasium.make_vec`` passes from the spec (200); ``max_steps`` wins.

    Attributes
    ----------
    num_envs : int
        How many boards.
    single_action_space : gymnasium.spaces.Discrete
        ``Discrete(4)``.
    action_space : gymnasium.spaces.MultiDiscrete
        ``num_envs`` actions.
    single_observation_space : gymnasium.spaces.Box
        ``Box(0, cells - 1, (rows, cols), uint8)``.
    observation_space : gymnasium.spaces.Box
        ``(num_envs, rows, cols)``.
    puzzle : slidetable.Puzzle
        The boards' shape and goal.
    table : slidetable.Table or None
        The perfect table in use, if any.
    autoreset_mode : gymnasium.vector.AutoresetMode
        The mode, as given.

    Raises
    ------
    TypeError
        A ``num_envs``, ``rows``, ``cols`` or ``max_steps`` that is not an integer, and the
        other arguments' types as for ``SlidingPuzzleEnv``.
    ValueError
        ``num_envs`` below 1; an unknown ``autoreset_mode``, ``render_mode`` (``"human"``
        included), ``convention`` or goal; ``exact_distance=True`` or ``optimal_actions=True``
        without a table; the other arguments' values as for ``SlidingPuzzleEnv``.
    ImportError
        With a Gymnasium older than 1.1 (no vector API).

    Notes
    -----
    ``reset`` and ``step`` return ``info`` as Gymnasium's vector environments do: a dict of
    arrays with one entry per board, each key ``k`` with a bool mask ``"_k"`` of the boards it
    holds for:

    * ``"action_mask"``: ``(num_envs, 4)`` bool, which actions are legal (as ``action_masks``);
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
    >>> from slidetable.gym import SlidingPuzzleVectorEnv
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
        goal: GoalLike = "blank-last",
        convention: Convention = "tile",
        distance: Distance = None,
        max_steps: Optional[int] = None,
        table: Union[st.Table, bool, None] = None,
        seed: Optional[int] = None,
        render_mode: Optional[Literal["ansi", "rgb_array"]] = None,
        solver: Oracle = None,
        optimal_actions: bool = False,
        autoreset_mode: Union[AutoresetMode, Literal["NextStep", "SameStep", "Disabled"]] = "NextStep",
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
        convention = check_convention(convention)
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
        self.table: Optional[st.Table] = open_table(self.puzzle, table)
        self.distance: Distance = check_distance(self.puzzle, self.table, distance)
        self.max_steps = check_max_steps(max_steps if max_steps is not None else max_episode_steps)
        self.solver = check_oracle(self.puzzle, solver)
        self._estimate = estimator(self.puzzle, self.solver)
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
        moves = move_table(self.puzzle, convention)
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
            ``"boards"``: array_like of int, shape ``(k, cells)`` or ``(k, rows, cols)``, the
            starts of the ``k`` boards reset (solvable, not the goal); ``"distance"``: an int
            or a ``(lo, hi)`` pair for these starts.

        Returns
        -------
        observations : numpy.ndarray of uint8, shape (num_envs, rows, cols)
            Every board (a copy; uint16 past 256 cells), those not reset as they were.
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
        RuntimeError
            For a ``"reset_mask"`` on the first reset (which resets every board).

        Examples
        --------
        >>> from slidetable.gym import SlidingPuzzleVectorEnv
        >>> envs = SlidingPuzzleVectorEnv(2, 3, 3, seed=0)
        >>> obs, info = envs.reset(options={"boards": [[1, 2, 3, 4, 5, 6, 0, 7, 8],
        ...                                            [1, 2, 3, 4, 5, 6, 7, 0, 8]]})
        >>> obs.shape, info["distance"], info["steps"]
        ((2, 3, 3), array([2, 1], dtype=int16), array([0, 0]))
        >>> obs, info = envs.reset(options={"reset_mask": np.array([False, True]), "distance": 5})
        >>> info["distance"], info["_distance"]
        (array([2, 5], dtype=int16), array([False,  True]))
        """
        super().reset(seed=seed)
        options = check_options(options, VECTOR_RESET_OPTIONS)
        mask = self._reset_mask(options.get("reset_mask"))
        if not self._started and not mask.all():
            raise RuntimeError("the first reset() resets every board: leave out options['reset_mask']")
        which = np.flatnonzero(mask)
        if options.get("boards") is not None:
            boards = self._given_boards(options["boards"], which.size)
        else:
            if "distance" in options:
                distance = check_distance(self.puzzle, self.table, options["distance"], "options['distance']")
            else:
                distance = self.distance
            boards = self._draw(which.size, distance)
        self._start(which, boards)
        self._started = True
        return self._obs(), self._infos(self._distances(), mask)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[np.ndarray, npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]]:
        """Plays one action on every board, resetting ended boards as ``autoreset_mode`` says.

        Parameters
        ----------
        actions : array_like of int, shape (num_envs,)
            ``0 1 2 3`` = ``U D L R`` in the environment's convention, one per board.

        Returns
        -------
        observations : numpy.ndarray of uint8, shape (num_envs, rows, cols)
            The boards after the move (a copy).
        rewards : numpy.ndarray of float64, shape (num_envs,)
            ``0.0`` for a step reaching the goal (and for a board reset by this step), else ``-1.0``.
        terminated : numpy.ndarray of bool, shape (num_envs,)
            The boards that reached the goal.
        truncated : numpy.ndarray of bool, shape (num_envs,)
            The boards that took ``max_steps`` steps without reaching it.
        info : dict
            See the class's notes.

        Raises
        ------
        TypeError
            For actions that are not integers (floats, bools, letters).
        ValueError
            For a shape other than ``(num_envs,)`` or an action other than 0 to 3.
        RuntimeError
            Before the first ``reset``; with ``autoreset_mode=DISABLED``, for a board
            whose episode has ended and was not reset.

        Examples
        --------
        >>> from slidetable.gym import SlidingPuzzleVectorEnv
        >>> envs = SlidingPuzzleVectorEnv(2, 3, 3, seed=0)          # the tile convention
        >>> _ = envs.reset(options={"boards": [[1, 2, 3, 4, 5, 6, 0, 7, 8],
        ...                                    [1, 2, 3, 4, 5, 6, 7, 0, 8]]})
        >>> obs, rewards, terminated, truncated, info = envs.step([2, 2])   # L on both
        >>> rewards, terminated, info["distance"]
        (array([-1.,  0.]), array([False,  True]), array([1, 0], dtype=int16))
        >>> envs.step([0, 0])[1:3]      # the second board starts again (NEXT_STEP): reward 0
        (array([-1.,  0.]), array([False, False]))
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

    def render(self) -> Union[tuple[str, ...], tuple[npt.NDArray[np.uint8], ...], None]:
        """One drawing per board: text (``"ansi"``) or a picture (``"rgb_array"``), as
        ``SlidingPuzzleEnv.render``.

        Returns
        -------
        tuple of str, tuple of numpy.ndarray of uint8, or None
            ``num_envs`` drawings: ``"ansi"``, the grids as text; ``"rgb_array"``, pictures of
            shape ``(rows * CELL_PIXELS, cols * CELL_PIXELS, 3)`` (see ``render_rgb``).
            None without a render mode or before the first reset.

        Examples
        --------
        >>> from slidetable.gym import SlidingPuzzleVectorEnv
        >>> envs = SlidingPuzzleVectorEnv(2, 3, 3, render_mode="ansi", seed=0)
        >>> _ = envs.reset(options={"boards": [[1, 2, 3, 4, 5, 6, 0, 7, 8],
        ...                                    [1, 2, 3, 4, 5, 6, 7, 0, 8]]})
        >>> envs.render()
        ('1 2 3\\n4 5 6\\n_ 7 8\\n', '1 2 3\\n4 5 6\\n7 _ 8\\n')
        """
        if self.render_mode is None or not self._started:
            return None
        r, c = self.puzzle.rows, self.puzzle.cols
        if self.render_mode == "rgb_array":
            return tuple(render_rgb(b, r, c) for b in self._boards)
        return tuple(self.puzzle.grid(b) for b in self._boards)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which of the 4 actions are legal on each board.

        The name sb3-contrib's ``MaskablePPO`` calls (``action_mask`` is the same).

        Returns
        -------
        numpy.ndarray of bool, shape (num_envs, 4)
            For ``U D L R`` in the environment's convention, as ``info["action_mask"]``.

        Raises
        ------
        RuntimeError
            Before the first ``reset``.

        Examples
        --------
        >>> from slidetable.gym import SlidingPuzzleVectorEnv
        >>> envs = SlidingPuzzleVectorEnv(2, 3, 3, seed=0)          # the tile convention
        >>> _ = envs.reset(options={"boards": [[1, 2, 3, 4, 5, 6, 0, 7, 8],
        ...                                    [1, 2, 3, 4, 5, 6, 7, 0, 8]]})
        >>> envs.action_masks()     # the blanks on the bottom row: no tile below to slide up
        array([[False,  True,  True, False],
               [False,  True,  True,  True]])
        """
        if not self._started:
            raise RuntimeError("call reset() first")
        return self._moves[self._blank] >= 0

    action_mask = action_masks

    @property
    def boards(self) -> Boards:
        """The current boards, ``(num_envs, cells)`` uint8 (uint16 past 256 cells), row-major
        (a copy)."""
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
        """``count`` starts drawn as ``distance`` says (see ``SlidingPuzzleEnv``), by batch
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


