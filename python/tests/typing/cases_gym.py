"""slidetable.gym as a type checker sees it (checked by test_typing.py with mypy --strict)."""

from typing import Any, Optional, Union, assert_type

import numpy as np
import numpy.typing as npt

import slidetable as st
from slidetable.gym import ENV_ID, SlidingPuzzleEnv, SlidingPuzzleVectorEnv, render_rgb

assert_type(ENV_ID, str)
env = SlidingPuzzleEnv(3, 3, distance=(2, 5), seed=0, convention="blank", render_mode="rgb_array")
obs, info = env.reset(options={"board": [1, 2, 3, 4, 5, 6, 0, 7, 8]})
assert_type(info, dict[str, Any])
assert_type(env.action_masks(), npt.NDArray[np.bool_])
assert_type(env.board, Optional[np.ndarray[tuple[int], np.dtype[Any]]])
assert_type(env.render(), Union[str, npt.NDArray[np.uint8], None])
env.step(2)
env.step(np.int64(2))
env.step("U")  # type: ignore[arg-type]
assert_type(render_rgb([1, 2, 3, 4, 5, 6, 7, 8, 0], 3, 3), npt.NDArray[np.uint8])
SlidingPuzzleEnv(3, 3, goal="snail", table=st.Table.build(st.Puzzle(3, 3, "snail")))
SlidingPuzzleEnv(3, 3, goal=[1, 2, 3, 4, 5, 6, 7, 8, 0])
SlidingPuzzleEnv(3, 3, convention="up")  # type: ignore[arg-type]
SlidingPuzzleEnv(3, 3, render_mode="video")  # type: ignore[arg-type]
SlidingPuzzleEnv(3, 3, goal="spiral")  # type: ignore[arg-type]

envs = SlidingPuzzleVectorEnv(4, 3, 3, autoreset_mode="SameStep", optimal_actions=True)
assert_type(envs.boards, np.ndarray[tuple[int, int], np.dtype[Any]])
assert_type(envs.action_masks(), npt.NDArray[np.bool_])
observations, rewards, terminated, truncated, infos = envs.step(np.zeros(4, dtype=np.int64))
assert_type(rewards, npt.NDArray[np.float64])
assert_type(terminated, npt.NDArray[np.bool_])
SlidingPuzzleVectorEnv(4, 3, 3, autoreset_mode="same-step")  # type: ignore[arg-type]
SlidingPuzzleVectorEnv(4, 3, 3, render_mode="human")  # type: ignore[arg-type]
