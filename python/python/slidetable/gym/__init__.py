"""Gymnasium environments for sliding-tile puzzles, with exact distances where a table exists.

Needs Gymnasium. slidetable is not on a package index: from a checkout of the repository,
``pip install "./python[gym]"`` installs the package with it (or ``pip install gymnasium``
next to an installed slidetable). Importing this module registers the environment as
``slidetable/SlidingPuzzle-v0``: ``gymnasium.make`` builds a ``SlidingPuzzleEnv``
(wrapped in ``TimeLimit(200)``, the same limit the environment applies by itself), and
``gymnasium.make_vec`` a ``SlidingPuzzleVectorEnv`` (N boards stepped by array
operations, no loop over the boards).

Every public name is here; they are defined in ``slidetable.gym.env``
(``SlidingPuzzleEnv``), ``slidetable.gym.vector`` (``SlidingPuzzleVectorEnv``) and
``slidetable.gym.render`` (``render_rgb``), the constants and the argument checks the two
environments share in a private module.

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
  its ``-1``; ``SlidingPuzzleEnv.action_masks`` and ``info["action_mask"]`` say which
  actions are legal.
* Episodes are truncated after ``max_steps`` steps, ``MAX_EPISODE_STEPS`` (200) unless
  given, on every board size; the registered spec's ``max_episode_steps`` is the same 200.
  Through ``gymnasium.make``, change both together:
  ``gymnasium.make(ENV_ID, max_steps=500, max_episode_steps=500)`` (the spec's number sets
  the ``TimeLimit`` wrapper, ``max_steps`` the environment's own limit; the smaller wins).
"""

from __future__ import annotations

try:
    import gymnasium
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'slidetable.gym needs Gymnasium: pip install gymnasium (or, from a checkout of the '
        'repository, pip install "./python[gym]")'
    ) from e

from ._checks import AUTO_TABLE_CELLS, ENTRY_POINT, ENV_ID, MAX_EPISODE_STEPS, VECTOR_ENTRY_POINT
from .env import SlidingPuzzleEnv
from .render import CELL_PIXELS, render_rgb
from .vector import SlidingPuzzleVectorEnv

__all__ = [
    "SlidingPuzzleEnv",
    "SlidingPuzzleVectorEnv",
    "ENV_ID",
    "AUTO_TABLE_CELLS",
    "MAX_EPISODE_STEPS",
    "CELL_PIXELS",
    "render_rgb",
]

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=ENV_ID,
        entry_point=ENTRY_POINT,
        vector_entry_point=VECTOR_ENTRY_POINT,
        max_episode_steps=MAX_EPISODE_STEPS,
    )
