"""slidetable.gym: the Gymnasium environment."""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any

import numpy as np
import pytest

import slidetable as st

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from slidetable.gym import ENV_ID, SlidingPuzzleEnv  # noqa: E402

P33 = st.Puzzle(3, 3)
TABLE = st.Table.build(P33)
# action i in the tile convention is action MIRROR[i] in the blank convention
MIRROR = np.array([1, 0, 3, 2])


def strict_check(env: Any) -> None:
    """check_env with every warning it (or the environment) raises turned into an error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)


# -- the Gymnasium contract ------------------------------------------------------------------------


@pytest.mark.parametrize("render_mode", [None, "ansi", "human"])
def test_check_env_3x3(render_mode, capsys):
    strict_check(SlidingPuzzleEnv(3, 3, distance=(3, 12), render_mode=render_mode))


def test_check_env_made_and_blank_convention():
    env = gymnasium.make(ENV_ID, rows=3, cols=3, convention="blank", render_mode="ansi")
    strict_check(env.unwrapped)
    assert env.unwrapped.convention == "blank"


def test_check_env_4x4_without_table(capsys):
    env = SlidingPuzzleEnv(4, 4, distance=30)
    assert env.table is None
    strict_check(env)


def test_spaces():
    env = SlidingPuzzleEnv(3, 4, table=False)
    assert env.action_space == gymnasium.spaces.Discrete(4)
    box = env.observation_space
    assert box.shape == (3, 4) and box.dtype == np.uint8
    assert box.low.min() == 0 and box.high.max() == 11
    obs, _ = env.reset(seed=0)
    assert obs in box and obs.shape == (3, 4)


def test_reset_is_reproducible():
    env = SlidingPuzzleEnv(3, 3, distance=(5, 20))
    a = [env.reset(seed=7)[0] for _ in range(2)]
    np.testing.assert_array_equal(a[0], a[1])
    seq1 = [env.reset(seed=11)[0]] + [env.reset()[0] for _ in range(5)]
    seq2 = [env.reset(seed=11)[0]] + [env.reset()[0] for _ in range(5)]
    for x, y in zip(seq1, seq2):
        np.testing.assert_array_equal(x, y)
    assert len({x.tobytes() for x in seq1}) > 1  # the starts do vary
    # the constructor's seed is the first reset's
    e1, e2 = SlidingPuzzleEnv(seed=3), SlidingPuzzleEnv(seed=3)
    np.testing.assert_array_equal(e1.reset()[0], e2.reset()[0])


# -- starts ------------------------------------------------------------------------------------


def test_start_distance_range_is_exact():
    env = SlidingPuzzleEnv(3, 3, distance=(5, 8), seed=1)
    seen = set()
    for _ in range(200):
        obs, info = env.reset()
        d = info["distance"]
        assert d == TABLE.distance(obs.ravel())
        assert 5 <= d <= 8
        seen.add(d)
    assert seen == {5, 6, 7, 8}


@pytest.mark.parametrize("d", [1, 2, 17, 31])
def test_fixed_distance(d):
    env = SlidingPuzzleEnv(3, 3, distance=d, seed=d)
    for _ in range(20):
        obs, info = env.reset()
        assert info["distance"] == d == TABLE.distance(obs.ravel())


def test_default_start_is_uniform_over_states():
    env = SlidingPuzzleEnv(3, 3, seed=0)
    ds = []
    for _ in range(600):
        obs, info = env.reset()
        assert info["distance"] == TABLE.distance(obs.ravel()) > 0
        ds.append(info["distance"])
    hist = TABLE.histogram().astype(float)
    mean = (np.arange(len(hist)) * hist).sum() / hist.sum()  # 21.97 on the 3x3
    assert abs(np.mean(ds) - mean) < 0.6  # the standard error is about 0.13


def test_options_distance_and_board():
    env = SlidingPuzzleEnv(3, 3, distance=20, seed=0)
    _, info = env.reset(options={"distance": 3})
    assert info["distance"] == 3
    _, info = env.reset()
    assert info["distance"] == 20
    board = np.array([8, 6, 7, 2, 5, 4, 3, 0, 1])
    obs, info = env.reset(options={"board": board})
    np.testing.assert_array_equal(obs.ravel(), board)
    assert obs.dtype == np.uint8 and info["distance"] == 31
    with pytest.raises(ValueError, match="cannot reach the goal"):
        env.reset(options={"board": [1, 2, 3, 4, 5, 6, 8, 7, 0]})
    with pytest.raises(ValueError, match="is the goal"):
        env.reset(options={"board": P33.goal})


def test_bad_arguments():
    with pytest.raises(ValueError, match="convention"):
        SlidingPuzzleEnv(convention="up")
    with pytest.raises(ValueError, match="more than 31"):
        SlidingPuzzleEnv(distance=32)
    with pytest.raises(ValueError, match="lo <= hi"):
        SlidingPuzzleEnv(distance=(6, 5))
    with pytest.raises(ValueError, match="goal itself"):
        SlidingPuzzleEnv(distance=0)
    with pytest.raises(ValueError, match="table is for"):
        SlidingPuzzleEnv(2, 3, table=TABLE)
    with pytest.raises(ValueError, match="render_mode"):
        SlidingPuzzleEnv(render_mode="rgb_array")
    env = SlidingPuzzleEnv()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not one of"):
        env.step(4)


# -- steps ------------------------------------------------------------------------------------


@pytest.mark.parametrize("convention", ["tile", "blank"])
def test_optimal_actions_reach_the_goal_in_distance_steps(convention):
    env = SlidingPuzzleEnv(3, 3, convention=convention, distance=(1, 31), seed=5)
    for _ in range(20):
        obs, info = env.reset()
        d = info["distance"]
        rewards = []
        for step in range(1, d + 1):
            best = info["optimal_actions"]
            assert best.dtype == np.bool_ and best.shape == (4,) and best.any()
            assert not (best & ~info["action_mask"]).any()
            obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(best)[0]))
            rewards.append(reward)
            assert info["distance"] == d - step and info["steps"] == step
            assert terminated == (step == d) and not truncated
        np.testing.assert_array_equal(obs.ravel(), P33.goal)
        assert not info["optimal_actions"].any()
        # the reward rule: -1 a step, 0 for the step that reaches the goal
        assert rewards == [-1.0] * (d - 1) + [0.0]
        assert sum(rewards) == -(d - 1)


def test_illegal_action_leaves_the_board_and_costs_a_step():
    env = SlidingPuzzleEnv(3, 3, seed=0)
    # blank in the top-left corner: the tile convention's D (a tile moving down into the
    # blank, from above) and R (from the left) are illegal
    board = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8])
    obs, info = env.reset(options={"board": board})
    np.testing.assert_array_equal(info["action_mask"], [True, False, True, False])
    for action in (1, 3):
        obs, reward, terminated, truncated, info = env.step(action)
        np.testing.assert_array_equal(obs.ravel(), board)
        assert reward == -1.0 and not terminated and not truncated
    assert info["steps"] == 2


def test_transitions_and_mask_match_expand():
    rng = np.random.default_rng(0)
    boards = TABLE.unrank(rng.integers(0, len(TABLE), 60))
    for convention in ("tile", "blank"):
        env = SlidingPuzzleEnv(3, 3, convention=convention, seed=0)
        kids, legal = P33.expand(boards, convention)
        for b, k, m in zip(boards, kids, legal):
            if np.array_equal(b, P33.goal):
                continue
            for a in range(4):
                _, info = env.reset(options={"board": b})
                np.testing.assert_array_equal(info["action_mask"], m)
                assert info["action_mask"].dtype == np.bool_
                obs, *_ = env.step(a)
                np.testing.assert_array_equal(obs.ravel(), k[a])


def test_tile_and_blank_conventions_are_mirror_images():
    tile = SlidingPuzzleEnv(3, 3, convention="tile", seed=0)
    blank = SlidingPuzzleEnv(3, 3, convention="blank", seed=0)
    for board in TABLE.sample(14, 20, seed=4):
        _, ti = tile.reset(options={"board": board})
        _, bi = blank.reset(options={"board": board})
        np.testing.assert_array_equal(ti["action_mask"], bi["action_mask"][MIRROR])
        np.testing.assert_array_equal(ti["optimal_actions"], bi["optimal_actions"][MIRROR])
        for a in range(4):
            tile.reset(options={"board": board})
            blank.reset(options={"board": board})
            np.testing.assert_array_equal(tile.step(a)[0], blank.step(int(MIRROR[a]))[0])
    # "U" in the tile convention moves the tile below the blank up: the blank goes down
    tile.reset(options={"board": [1, 2, 3, 4, 0, 5, 6, 7, 8]})
    obs, *_ = tile.step(0)
    np.testing.assert_array_equal(obs.ravel(), [1, 2, 3, 4, 7, 5, 6, 0, 8])


def test_truncation_at_max_steps():
    assert SlidingPuzzleEnv(3, 3).max_steps == 4 * 31
    assert SlidingPuzzleEnv(4, 4).max_steps == 200
    env = SlidingPuzzleEnv(3, 3, distance=20, max_steps=5, seed=0)
    env.reset()
    for step in range(1, 6):
        _, reward, terminated, truncated, info = env.step(0)
        assert reward == -1.0 and not terminated
        assert truncated == (step == 5) and info["steps"] == step
    # the step reaching the goal on the last allowed step terminates, not truncates
    env = SlidingPuzzleEnv(3, 3, distance=1, max_steps=1, seed=0)
    _, info = env.reset()
    _, reward, terminated, truncated, _ = env.step(int(np.argmax(info["optimal_actions"])))
    assert reward == 0.0 and terminated and not truncated


def test_render(capsys):
    board = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    env = SlidingPuzzleEnv(3, 3, render_mode="ansi")
    env.reset(seed=0, options={"board": board})
    assert env.render() == P33.grid(board)
    env = SlidingPuzzleEnv(3, 3, render_mode="human")
    env.reset(seed=0, options={"board": board})
    assert P33.grid(board).strip() in capsys.readouterr().out
    assert env.render() is None
    assert SlidingPuzzleEnv(3, 3).render() is None


# -- boards without a table ------------------------------------------------------------------------


def test_4x4_random_walk_starts():
    p = st.Puzzle(4, 4)
    env = SlidingPuzzleEnv(4, 4, distance=12, seed=2)
    assert env.table is None
    starts = []
    for _ in range(10):
        obs, info = env.reset()
        assert obs.shape == (4, 4) and obs in env.observation_space
        assert info["distance"] is None and "optimal_actions" not in info
        assert not np.array_equal(obs.ravel(), p.goal)
        starts.append(obs.ravel())
    # a walk of 12 moves ends at most 12 moves away, at an even distance (the graph is bipartite)
    r = st.solve_batch(np.array(starts), p, heuristic="linear-conflict")
    assert ((r.lengths <= 12) & (r.lengths % 2 == 0) & (r.lengths > 0)).all()
    # stepping works the same way; a solution found by the solver solves the episode
    env.reset(options={"board": starts[0]})
    actions = st.moves_to_actions(st.to_tile_moves(r.moves[0]), "tile")
    for k, a in enumerate(actions, 1):
        _, reward, terminated, _, info = env.step(int(a))
        assert terminated == (k == len(actions))
        assert np.array_equal(info["action_mask"], p.expand(env.board, "tile")[1])
    assert reward == 0.0


def test_4x4_default_start_is_a_random_solvable_board():
    env = SlidingPuzzleEnv(4, 4, seed=0)
    boards = np.array([env.reset()[0].ravel() for _ in range(50)])
    assert st.Puzzle(4, 4).is_solvable(boards).all()
    assert len({b.tobytes() for b in boards}) == 50
    assert (boards == 0).any(axis=0).sum() > 8  # the blank goes anywhere


def test_table_can_be_refused_or_given():
    env = SlidingPuzzleEnv(3, 3, table=False, distance=6, seed=0)
    obs, info = env.reset()
    assert env.table is None and info["distance"] is None
    assert TABLE.distance(obs.ravel()) in (2, 4, 6)
    env = SlidingPuzzleEnv(3, 3, table=TABLE, distance=6, seed=0)
    assert env.table is TABLE
    assert env.reset()[1]["distance"] == 6


def test_vector_env():
    envs = gymnasium.vector.SyncVectorEnv([lambda i=i: SlidingPuzzleEnv(3, 3, distance=(2, 6), seed=i) for i in range(3)])
    obs, info = envs.reset(seed=0)
    assert obs.shape == (3, 3, 3) and info["optimal_actions"].shape == (3, 4)
    obs, reward, terminated, truncated, info = envs.step(np.argmax(info["optimal_actions"], axis=1))
    assert reward.shape == (3,)
    envs.close()


def test_import_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    monkeypatch.delitem(sys.modules, "slidetable.gym")
    with pytest.raises(ImportError, match=r"pip install slidetable\[gym\]"):
        importlib.import_module("slidetable.gym")
