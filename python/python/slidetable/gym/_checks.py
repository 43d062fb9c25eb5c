"""What the environments share: their constants and the checks of their arguments (private)."""

from __future__ import annotations

from typing import Any, Callable, Literal, Optional, Tuple, Union

import numpy as np

import slidetable as st
from slidetable._common import Convention, HeuristicName
from slidetable.table import _memory_table

#: The id under which ``gymnasium.make`` and ``gymnasium.make_vec`` find the environments.
ENV_ID = "slidetable/SlidingPuzzle-v0"
#: Boards of up to this many cells get a perfect table built on the spot (a few milliseconds;
#: 2x5 is 1.8 million states, 20 ms). Twelve-cell boards (3x4, 2x6: 240 million states, 10 s or
#: more) need ``table=`` (a prebuilt ``slidetable.Table``) or ``table=True``.
AUTO_TABLE_CELLS = 10
#: Steps after which an episode is truncated unless ``max_steps`` says otherwise, on every board
#: size, and the registered spec's ``max_episode_steps``. Enough for any 3x3 (at most 31 moves)
#: or 4x4 (at most 80) board; a 5x5 start drawn uniformly is about 100 to 150 moves away.
MAX_EPISODE_STEPS = 200

# where gymnasium.make and make_vec find the classes: the public path, not the submodules', so
# that a spec (registered, or one an environment builds of itself) keeps working if they move
ENTRY_POINT = "slidetable.gym:SlidingPuzzleEnv"
VECTOR_ENTRY_POINT = "slidetable.gym:SlidingPuzzleVectorEnv"

#: How far from the goal episodes start: None (uniformly), an exact distance, or a ``(lo, hi)`` range.
Distance = Union[None, int, Tuple[int, int]]
#: What gives distances on boards too large for a table.
Oracle = Union["st.PatternDB", "st.Solver", None]
#: The render modes of ``SlidingPuzzleEnv``.
RenderMode = Literal["ansi", "human", "rgb_array"]

RESET_OPTIONS = ("board", "distance")
VECTOR_RESET_OPTIONS = ("boards", "distance", "reset_mask")


def open_table(puzzle: st.Puzzle, table: Union[st.Table, bool, None]) -> Optional[st.Table]:
    """The perfect table an environment uses, as ``table=`` asks (see ``SlidingPuzzleEnv``)."""
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


def check_distance(puzzle: st.Puzzle, table: Optional[st.Table], distance: Any, name: str = "distance") -> Distance:
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


def check_convention(convention: Any) -> Convention:
    if convention not in ("tile", "blank"):
        raise ValueError(f"unknown convention {convention!r}: use 'tile' (the tile's direction) or 'blank'")
    return "tile" if convention == "tile" else "blank"


def check_max_steps(max_steps: Any, name: str = "max_steps") -> int:
    if max_steps is None:
        return MAX_EPISODE_STEPS
    if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, not {type(max_steps).__name__}")
    if int(max_steps) < 1:
        raise ValueError(f"{name} must be at least 1, not {int(max_steps)}")
    return int(max_steps)


def move_table(puzzle: st.Puzzle, convention: Convention) -> np.ndarray:
    """``moves[p, a]``: where the blank goes from cell ``p`` under action ``a`` in ``convention``,
    or -1 if the action is illegal there; read off ``slidetable.Puzzle.expand`` so it agrees
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


def check_oracle(puzzle: st.Puzzle, solver: Any) -> Oracle:
    if solver is None:
        return None
    if not isinstance(solver, (st.PatternDB, st.Solver)):
        raise TypeError(f"solver must be a slidetable.PatternDB, a slidetable.Solver or None, not {type(solver).__name__}")
    if solver.puzzle != puzzle:
        raise ValueError(f"the solver is for {solver.puzzle!r}, but this environment is {puzzle!r}")
    return solver


# the classic estimates that never overestimate (a Solver reports its heuristic by these names)
_ADMISSIBLE: dict[str, HeuristicName] = {"misplaced": "misplaced", "manhattan": "manhattan", "linear-conflict": "linear-conflict"}


def estimator(puzzle: st.Puzzle, solver: Oracle) -> Optional[Callable[[np.ndarray], np.ndarray]]:
    """A function from a batch of boards ``(N, cells)`` to their admissible estimates (int32), if
    ``solver`` has one: a PatternDB's sum of pattern distances, or the estimate a Solver searches
    with (its pattern tables, or an admissible classic heuristic). None otherwise."""
    if isinstance(solver, st.PatternDB):
        db = solver
        return lambda b: np.asarray(db.h(b), dtype=np.int32)
    if isinstance(solver, st.Solver):
        name = solver.heuristic
        classic = _ADMISSIBLE.get(name)
        if name == "pdb":
            core = solver._s  # a Solver's pattern tables are a PatternDB's (the same core object)
            return lambda b: np.asarray(core.h(puzzle._boards(b, np.uint8)[0], True), dtype=np.int32)
        if classic is not None:
            return lambda b: np.asarray(puzzle.heuristic(b, classic), dtype=np.int32)
    return None


def check_options(options: Any, known: Tuple[str, ...]) -> dict:
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


def check_action(action: Any, convention: str) -> int:
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


