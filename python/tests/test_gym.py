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

from slidetable.gym import (  # noqa: E402
    CELL_PIXELS,
    ENV_ID,
    MAX_EPISODE_STEPS,
    SlidingPuzzleEnv,
    SlidingPuzzleVectorEnv,
    render_rgb,
)

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


@pytest.mark.parametrize("render_mode", [None, "ansi", "human", "rgb_array"])
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
        SlidingPuzzleEnv(render_mode="rgb")
    with pytest.raises(TypeError, match="max_steps must be an integer"):
        SlidingPuzzleEnv(max_steps=2.5)
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
    # one default on every board, the registered spec's
    assert SlidingPuzzleEnv(3, 3).max_steps == SlidingPuzzleEnv(4, 4, table=False).max_steps == MAX_EPISODE_STEPS
    assert gymnasium.spec(ENV_ID).max_episode_steps == MAX_EPISODE_STEPS
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
    with pytest.raises(ImportError, match=r'pip install "\./python\[gym\]"'):
        importlib.import_module("slidetable.gym")


# -- the registered spec and its step limit ---------------------------------------------------------


def test_made_env_truncates_where_its_spec_says():
    env = gymnasium.make(ENV_ID, rows=3, cols=3, convention="blank")
    assert env.spec.max_episode_steps == MAX_EPISODE_STEPS == env.unwrapped.max_steps
    # the blank in the top-left corner pushed up for ever: the board never changes
    env.reset(seed=0, options={"board": [0, 1, 2, 3, 4, 5, 6, 7, 8]})
    ends = []
    for step in range(1, MAX_EPISODE_STEPS + 1):
        _, _, terminated, truncated, info = env.step(0)
        assert not terminated
        if truncated:
            ends.append(step)
            break
    assert ends == [MAX_EPISODE_STEPS] and info["steps"] == MAX_EPISODE_STEPS
    # a limit of one's own: the environment's and the wrapper's, given together
    env = gymnasium.make(ENV_ID, max_steps=7, max_episode_steps=7, convention="blank")
    assert env.spec.max_episode_steps == 7
    env.reset(seed=0, options={"board": [0, 1, 2, 3, 4, 5, 6, 7, 8]})
    assert [env.step(0)[3] for _ in range(7)] == [False] * 6 + [True]


# -- action masks and strict actions -----------------------------------------------------------------


def test_action_masks_is_what_maskable_ppo_calls():
    env = gymnasium.make(ENV_ID)
    _, info = env.reset(seed=3, options={"board": [0, 1, 2, 3, 4, 5, 6, 7, 8]})
    # sb3-contrib reaches the method through the wrappers gymnasium.make adds
    masks = env.get_wrapper_attr("action_masks")()
    np.testing.assert_array_equal(masks, [True, False, True, False])
    np.testing.assert_array_equal(masks, info["action_mask"])
    np.testing.assert_array_equal(env.unwrapped.action_mask(), masks)
    assert masks.dtype == np.bool_ and masks.shape == (4,)
    with pytest.raises(RuntimeError, match="reset"):
        SlidingPuzzleEnv().action_masks()


@pytest.mark.parametrize(
    "action", [1, np.int8(1), np.uint64(1), np.int64(1), np.array(1), np.array(1, dtype=np.uint8)]
)
def test_integer_actions_are_accepted(action):
    env = SlidingPuzzleEnv(3, 3, seed=0)
    board = [1, 2, 3, 4, 0, 5, 6, 7, 8]
    env.reset(options={"board": board})
    obs, *_ = env.step(action)
    env.reset(options={"board": board})
    np.testing.assert_array_equal(obs, env.step(1)[0])


@pytest.mark.parametrize(
    "action, error, message",
    [
        (1.0, TypeError, "not float 1.0"),
        (np.float32(1), TypeError, "not float32"),
        (True, TypeError, "not bool True"),
        (np.True_, TypeError, "not bool"),
        ("U", TypeError, r"moves_to_actions\('U', convention='tile'\)"),
        (None, TypeError, "not NoneType"),
        (np.array([1]), TypeError, r"shape \(1,\)"),
        (np.array(1.0), TypeError, "dtype float64"),
        (4, ValueError, "action 4 is not one of 0, 1, 2, 3"),
        (-1, ValueError, "action -1 is not one of"),
        (np.uint8(200), ValueError, "action 200"),
    ],
)
def test_bad_actions_are_refused(action, error, message):
    env = SlidingPuzzleEnv(3, 3, seed=0)
    obs, _ = env.reset()
    with pytest.raises(error, match=message):
        env.step(action)
    # and nothing happened
    np.testing.assert_array_equal(env.board, obs.ravel())
    assert env.step(0)[4]["steps"] == 1


def test_unknown_reset_options_are_refused():
    env = SlidingPuzzleEnv(3, 3, seed=0)
    with pytest.raises(ValueError, match=r"unknown reset option 'bord': the options are 'board', 'distance'"):
        env.reset(options={"bord": [1, 2, 3, 4, 5, 6, 7, 0, 8]})
    with pytest.raises(ValueError, match=r"options 'a', 'b'"):
        env.reset(options={"a": 1, "b": 2, "distance": 3})
    with pytest.raises(TypeError, match="options must be a dict"):
        env.reset(options=[("distance", 3)])
    with pytest.raises(ValueError, match=r"options\['distance'\]"):
        env.reset(options={"distance": 40})
    assert env.reset(options={})[1]["distance"] > 0  # an empty dict is no option at all


# -- pictures -----------------------------------------------------------------------------------------


def cell(image: np.ndarray, k: int, cols: int, px: int = CELL_PIXELS) -> np.ndarray:
    r, c = divmod(k, cols)
    return image[r * px : (r + 1) * px, c * px : (c + 1) * px]


def test_rgb_array_shows_each_tile_in_its_cell():
    env = SlidingPuzzleEnv(3, 3, render_mode="rgb_array", seed=0)
    board = np.array([8, 6, 7, 2, 5, 4, 3, 0, 1])
    env.reset(options={"board": board})
    image = env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.shape == (3 * CELL_PIXELS, 3 * CELL_PIXELS, 3)
    # every tile looks different, and a tile looks the same wherever it is
    crops = {int(t): cell(image, k, 3) for k, t in enumerate(board)}
    assert len({c.tobytes() for c in crops.values()}) == 9
    other = np.array([5, 1, 2, 3, 4, 6, 7, 8, 0])  # every tile elsewhere
    moved = render_rgb(other, 3, 3)
    for k, t in enumerate(other):
        np.testing.assert_array_equal(cell(moved, k, 3), crops[int(t)])
    assert not np.array_equal(moved, image)
    # a step changes the picture; the blank is drawn without a number
    env.reset(options={"board": board})
    before = env.render()
    env.step(1)  # the tile above the blank slides down
    after = env.render()
    assert not np.array_equal(before, after)
    blank = cell(after, int(np.argmax(env.board == 0)), 3)
    assert len(np.unique(blank.reshape(-1, 3), axis=0)) == 1


def test_rgb_array_numbers_are_drawn_legibly_on_5x5():
    board = np.arange(25)[::-1].copy()
    image = render_rgb(board, 5, 5)
    assert image.shape == (5 * CELL_PIXELS, 5 * CELL_PIXELS, 3)
    crops = [cell(image, k, 5) for k in range(25)]
    assert len({c.tobytes() for c in crops}) == 25
    for k, t in enumerate(board):
        if t == 0:
            continue
        ink = (crops[k] == crops[k][CELL_PIXELS // 2, 2]).all(axis=2)  # the frame's colour, inside the tile
        inner = ink[4:-4, 4:-4]
        assert inner.sum() > 20, f"tile {t} has almost no number drawn"
        # two digits side by side: ink in the left and the right half of the number
        cols_with_ink = np.flatnonzero(inner.any(axis=0))
        assert (len(str(t)) == 1) or cols_with_ink.max() - cols_with_ink.min() > CELL_PIXELS // 3
    with pytest.raises(ValueError, match="16 cells, not 9"):
        render_rgb(np.arange(9), 4, 4)
    with pytest.raises(ValueError, match="tiles of a 2x2 board are 0 to 3"):
        render_rgb([0, 1, 2, 9], 2, 2)


# -- exact distances and estimates on boards without a table --------------------------------------------


P44, P55 = st.Puzzle(4, 4), st.Puzzle(5, 5)


@pytest.fixture(scope="module")
def pdb44(tmp_path_factory):
    """Small 4-4-4-3 pattern tables, built in a fraction of a second."""
    return st.PatternDB.load(P44, "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15", dir=tmp_path_factory.mktemp("pdb44"))


@pytest.fixture(scope="module")
def pdb55(tmp_path_factory):
    groups = "/".join(",".join(str(t) for t in range(g, g + 3)) for g in range(1, 25, 3))
    return st.PatternDB.load(P55, groups, dir=tmp_path_factory.mktemp("pdb55"))


def a_star_length(board, puzzle):
    """The optimal length found another way: A* with linear conflict."""
    return st.solve(board, puzzle, heuristic="linear-conflict", algorithm="astar").length


def test_pattern_db_gives_an_estimate_only(pdb44):
    env = SlidingPuzzleEnv(4, 4, distance=30, solver=pdb44, seed=1)
    for _ in range(5):
        obs, info = env.reset()
        assert info["distance"] is None
        assert info["estimate"] == pdb44.h(obs.ravel()) <= a_star_length(obs.ravel(), P44)
        _, _, _, _, info = env.step(int(np.argmax(info["action_mask"])))
        assert info["estimate"] == pdb44.h(env.board)


def test_exact_distances_on_4x4_follow_the_plan_and_the_detours(pdb44):
    env = SlidingPuzzleEnv(4, 4, distance=24, solver=pdb44, exact_distance=True, seed=2)
    obs, info = env.reset()
    d = info["distance"]
    assert d == a_star_length(obs.ravel(), P44) and info["estimate"] <= d
    searches = env._exact.searches
    # a detour and back: one search for the board off the path, none for the way back
    detour = next(a for a in range(4) if info["action_mask"][a] and a != env._exact.plan[0])
    _, _, _, _, info = env.step(detour)
    assert info["distance"] == a_star_length(env.board, P44) and abs(info["distance"] - d) == 1
    _, _, _, _, info = env.step(int(MIRROR[detour]))
    assert info["distance"] == d and env._exact.searches == searches + 1
    # along the plan the distance drops by one a step, with no search at all
    plan = list(env._exact.plan)
    for k, a in enumerate(plan, 1):
        _, reward, terminated, _, info = env.step(int(a))
        assert info["distance"] == d - k and terminated == (k == d)
    assert reward == 0.0 and env._exact.searches == searches + 1
    # an illegal action keeps the board and its distance, without a search
    corner = P44.apply(P44.goal, "LLLUUU")  # the blank in the top-left corner, 6 moves away
    _, info = env.reset(options={"board": corner})
    assert info["distance"] == 6 and info["action_mask"][1] == info["action_mask"][3] == False  # noqa: E712
    searches = env._exact.searches
    assert env.step(1)[4]["distance"] == 6 and env._exact.searches == searches


def test_exact_distances_on_5x5_with_a_solver(pdb55):
    solver = st.Solver(P55, heuristic=pdb55)
    env = SlidingPuzzleEnv(5, 5, distance=16, solver=solver, exact_distance=True, seed=3)
    for _ in range(3):
        obs, info = env.reset()
        assert info["distance"] == a_star_length(obs.ravel(), P55) <= 16
        assert info["estimate"] == pdb55.h(obs.ravel()) <= info["distance"]


def test_solver_arguments_are_checked(pdb44):
    with pytest.raises(ValueError, match="exact_distance=True needs solver="):
        SlidingPuzzleEnv(4, 4, exact_distance=True)
    with pytest.raises(ValueError, match="the solver is for"):
        SlidingPuzzleEnv(5, 5, solver=pdb44)
    with pytest.raises(TypeError, match="solver must be"):
        SlidingPuzzleEnv(4, 4, solver="pdb")
    # a solver with a classic heuristic gives that estimate
    env = SlidingPuzzleEnv(4, 4, solver=st.Solver(P44, heuristic="linear-conflict"), distance=20, seed=0)
    obs, info = env.reset()
    assert info["estimate"] == P44.heuristic(obs.ravel(), "linear-conflict")


# -- the vector environment --------------------------------------------------------------------------


def test_vector_env_spaces_and_make_vec():
    envs = gymnasium.make_vec(ENV_ID, num_envs=16)
    assert isinstance(envs, SlidingPuzzleVectorEnv)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.num_envs == 16 and envs.max_steps == MAX_EPISODE_STEPS
    assert envs.single_action_space == gymnasium.spaces.Discrete(4)
    assert envs.action_space == gymnasium.spaces.MultiDiscrete([4] * 16)
    assert envs.single_observation_space == SlidingPuzzleEnv().observation_space
    assert envs.observation_space.shape == (16, 3, 3)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, info = envs.reset(seed=0)
    assert obs in envs.observation_space
    assert set(info) == {"distance", "_distance", "action_mask", "_action_mask", "steps", "_steps"}
    envs.action_space.seed(0)
    obs, reward, terminated, truncated, info = envs.step(envs.action_space.sample())
    assert obs in envs.observation_space and reward.shape == terminated.shape == truncated.shape == (16,)
    assert reward.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_


@pytest.mark.parametrize("convention", ["tile", "blank"])
def test_vector_steps_match_expand_and_the_table(convention):
    rng = np.random.default_rng(1)
    n = 256
    boards = TABLE.unrank(rng.integers(1, len(TABLE), n))
    boards = boards[~(boards == P33.goal).all(axis=1)]
    n = len(boards)
    envs = SlidingPuzzleVectorEnv(n, 3, 3, convention=convention, optimal_actions=True, seed=0)
    obs, info = envs.reset(options={"boards": boards})
    np.testing.assert_array_equal(obs.reshape(n, 9), boards)
    for _ in range(3):
        kids, legal = P33.expand(envs.boards, convention)
        np.testing.assert_array_equal(info["action_mask"], legal)
        np.testing.assert_array_equal(envs.action_masks(), legal)
        np.testing.assert_array_equal(info["distance"], TABLE.distance(envs.boards))
        np.testing.assert_array_equal(info["optimal_actions"], TABLE.optimal_moves(envs.boards, convention))
        actions = rng.integers(0, 4, n)  # illegal ones included
        obs, reward, terminated, truncated, info = envs.step(actions)
        expected = kids[np.arange(n), actions]
        live = ~terminated
        np.testing.assert_array_equal(obs.reshape(n, 9)[live], expected[live])
        np.testing.assert_array_equal(terminated, (expected == P33.goal).all(axis=1))
        np.testing.assert_array_equal(reward, np.where(terminated, 0.0, -1.0))
        assert not truncated.any()
        if terminated.any():  # start again where this test can check every board
            _, info = envs.reset(options={"boards": boards})


def test_vector_next_step_autoreset():
    n = 8
    envs = SlidingPuzzleVectorEnv(n, 3, 3, distance=1, optimal_actions=True, seed=4)
    obs, info = envs.reset()
    assert (info["distance"] == 1).all()
    # the first half take the optimal action, the others a legal move away from the goal
    best = np.argmax(info["optimal_actions"], axis=1)
    away = np.argmax(info["action_mask"] & ~info["optimal_actions"], axis=1)
    actions = np.where(np.arange(n) < n // 2, best, away)
    obs, reward, terminated, truncated, info = envs.step(actions)
    half = np.arange(n) < n // 2
    np.testing.assert_array_equal(terminated, half)
    np.testing.assert_array_equal(reward, np.where(half, 0.0, -1.0))
    # the final observation is this step's: the goal
    assert (obs.reshape(n, 9)[half] == P33.goal).all()
    np.testing.assert_array_equal(info["distance"], np.where(half, 0, 2))
    # the next step resets the ended boards (their actions ignored) and steps the others
    others = envs.boards[~half]
    obs, reward, terminated, truncated, info = envs.step(np.full(n, 0))
    np.testing.assert_array_equal(info["steps"], np.where(half, 0, 2))
    assert (info["distance"][half] == 1).all()
    assert (reward[half] == 0.0).all() and not terminated[half].any() and not truncated[half].any()
    kids, _ = P33.expand(others, "tile")
    np.testing.assert_array_equal(obs.reshape(n, 9)[~half], kids[:, 0])
    assert (reward[~half] == -1.0).all()


def test_vector_truncation_then_reset():
    envs = SlidingPuzzleVectorEnv(4, 3, 3, distance=20, max_steps=3, seed=0)
    envs.reset()
    for step in range(1, 4):
        _, _, terminated, truncated, info = envs.step(np.zeros(4, dtype=np.int64))
        assert not terminated.any() and truncated.all() == (step == 3) and (info["steps"] == step).all()
    obs, reward, terminated, truncated, info = envs.step(np.zeros(4, dtype=np.int64))
    assert (info["steps"] == 0).all() and (info["distance"] == 20).all() and (reward == 0).all()
    assert not truncated.any()
    # make_vec passes the spec's max_episode_steps; the environment's max_steps wins
    assert SlidingPuzzleVectorEnv(2, max_episode_steps=9).max_steps == 9
    assert SlidingPuzzleVectorEnv(2, max_steps=5, max_episode_steps=9).max_steps == 5


def test_vector_same_step_autoreset():
    n = 6
    envs = SlidingPuzzleVectorEnv(n, 3, 3, distance=1, seed=5, optimal_actions=True, autoreset_mode="SameStep")
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    _, info = envs.reset()
    done = np.array([True, False, True, False, False, True])
    actions = np.where(done, np.argmax(info["optimal_actions"], axis=1),
                       np.argmax(info["action_mask"] & ~info["optimal_actions"], axis=1))
    obs, reward, terminated, truncated, info = envs.step(actions)
    np.testing.assert_array_equal(terminated, done)
    np.testing.assert_array_equal(info["_final_obs"], done)
    np.testing.assert_array_equal(info["_final_info"], done)
    for i in range(n):
        if done[i]:
            np.testing.assert_array_equal(info["final_obs"][i].ravel(), P33.goal)
            assert info["final_info"]["distance"][i] == 0
        else:
            assert info["final_obs"][i] is None
    # the observations are already the new starts
    np.testing.assert_array_equal(TABLE.distance(obs), np.where(done, 1, 2))
    np.testing.assert_array_equal(info["distance"], np.where(done, 1, 2))
    np.testing.assert_array_equal(info["steps"], np.where(done, 0, 1))


def test_vector_disabled_autoreset_and_reset_mask():
    n = 4
    envs = SlidingPuzzleVectorEnv(
        n, 3, 3, distance=1, seed=6, optimal_actions=True, autoreset_mode=gymnasium.vector.AutoresetMode.DISABLED
    )
    _, info = envs.reset()
    obs, _, terminated, _, info = envs.step(np.argmax(info["optimal_actions"], axis=1))
    assert terminated.all()
    with pytest.raises(RuntimeError, match="board 0's episode has ended"):
        envs.step(np.zeros(n, dtype=np.int64))
    mask = np.array([True, True, False, False])
    with pytest.raises(RuntimeError, match="board 2's"):
        envs.reset(options={"reset_mask": mask})
        envs.step(np.zeros(n, dtype=np.int64))
    obs2, info = envs.reset(options={"reset_mask": ~mask, "distance": 3})
    np.testing.assert_array_equal(info["_distance"], ~mask)
    np.testing.assert_array_equal(info["distance"], [1, 1, 3, 3])
    envs.step(np.zeros(n, dtype=np.int64))  # no board has ended now
    with pytest.raises(TypeError, match="numpy bool array"):
        envs.reset(options={"reset_mask": [True] * n})
    with pytest.raises(ValueError, match="resets no board"):
        envs.reset(options={"reset_mask": np.zeros(n, dtype=bool)})


def test_vector_reset_options_and_actions_are_checked():
    envs = SlidingPuzzleVectorEnv(3, 3, 3, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"unknown reset option 'board': the options are 'boards', 'distance', 'reset_mask'"):
        envs.reset(options={"board": P33.goal})
    with pytest.raises(ValueError, match="3 boards"):
        envs.reset(options={"boards": TABLE.sample(5, 2)})
    with pytest.raises(ValueError, match=r"options\['boards'\]\[1\] is the goal"):
        envs.reset(options={"boards": np.stack([TABLE.sample(5, 1)[0], P33.goal, TABLE.sample(5, 1)[0]])})
    with pytest.raises(ValueError, match="cannot reach the goal"):
        envs.reset(options={"boards": np.array([[1, 2, 3, 4, 5, 6, 8, 7, 0]] * 3)})
    envs.reset()
    for bad, error, message in [
        (np.ones(3), TypeError, "not float64"),
        (np.ones(3, dtype=bool), TypeError, "not bool"),
        ("UDL", TypeError, "moves_to_actions"),
        (np.zeros(4, dtype=np.int64), ValueError, r"3 actions expected.*\(4,\)"),
        (np.array([0, 4, 1]), ValueError, "action 4 of board 1"),
        (np.array([0, 1, -1]), ValueError, "action -1 of board 2"),
    ]:
        with pytest.raises(error, match=message):
            envs.step(bad)
    assert (envs.step([0, 1, 2])[4]["steps"] == 1).all()  # a list of ints is fine


def test_vector_starts():
    envs = SlidingPuzzleVectorEnv(300, 3, 3, distance=(5, 8), seed=7)
    obs, info = envs.reset()
    np.testing.assert_array_equal(info["distance"], TABLE.distance(obs))
    assert set(info["distance"].tolist()) == {5, 6, 7, 8}
    np.testing.assert_array_equal(envs.reset(seed=1)[0], envs.reset(seed=1)[0])
    # more boards than there are states at the distance: drawn with repeats
    obs, info = SlidingPuzzleVectorEnv(64, 3, 3, distance=1, seed=0).reset()
    assert (info["distance"] == 1).all() and len({b.tobytes() for b in obs}) == 2
    # uniform: the mean distance of the 3x3 (21.97)
    obs, info = SlidingPuzzleVectorEnv(2000, 3, 3, seed=0).reset()
    assert abs(info["distance"].mean() - 21.97) < 0.3 and (info["distance"] > 0).all()


def test_vector_without_a_table(pdb44):
    envs = SlidingPuzzleVectorEnv(200, 4, 4, solver=pdb44, seed=0)
    obs, info = envs.reset()
    assert "distance" not in info and "optimal_actions" not in info
    boards = obs.reshape(200, 16)
    assert P44.is_solvable(boards).all() and len({b.tobytes() for b in boards}) == 200
    assert (boards == 0).any(axis=0).all()  # the blank anywhere
    np.testing.assert_array_equal(info["estimate"], pdb44.h(boards))
    # one move from the goal: the goal is found without a table
    near = P44.random_walk(200, 1, seed=1)
    _, info = envs.reset(options={"boards": near})
    kids, legal = P44.expand(near, "tile")
    home = np.argmax((kids == P44.goal).all(axis=2), axis=1)
    obs, reward, terminated, _, info = envs.step(home)
    assert terminated.all() and (reward == 0).all() and (info["estimate"] == 0).all()
    with pytest.raises(ValueError, match="optimal_actions=True needs a table"):
        SlidingPuzzleVectorEnv(2, 4, 4, optimal_actions=True)
    with pytest.raises(ValueError, match=r"exact distances from a table only.*SlidingPuzzleEnv\(\.\.\., exact_distance=True\)"):
        SlidingPuzzleVectorEnv(2, 4, 4, solver=pdb44, exact_distance=True)
    walks = SlidingPuzzleVectorEnv(50, 4, 4, distance=10, seed=2, table=False).reset()[0].reshape(50, 16)
    lengths = st.solve_batch(walks, P44, heuristic="linear-conflict").lengths
    assert ((lengths > 0) & (lengths <= 10) & (lengths % 2 == 0)).all()


def test_vector_render():
    envs = SlidingPuzzleVectorEnv(3, 3, 3, render_mode="rgb_array", seed=0)
    assert envs.render() is None
    obs, _ = envs.reset()
    frames = envs.render()
    assert len(frames) == 3
    for f, b in zip(frames, obs):
        np.testing.assert_array_equal(f, render_rgb(b, 3, 3))
    texts = SlidingPuzzleVectorEnv(2, 3, 3, render_mode="ansi", seed=0)
    obs, _ = texts.reset()
    assert texts.render() == tuple(P33.grid(b.ravel()) for b in obs)


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_vector_env_works_with_gymnasiums_own_vector_wrappers(mode):
    """RecordEpisodeStatistics reads the autoreset mode from the metadata and counts episodes
    from terminated/truncated as the API defines them: its counts are ours."""
    n = 8
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        SlidingPuzzleVectorEnv(n, 3, 3, distance=3, optimal_actions=True, seed=9, autoreset_mode=mode)
    )
    _, info = envs.reset()
    seen = 0
    for _ in range(12):  # four episodes of three optimal moves each (a step between them in NextStep)
        actions = np.argmax(info["optimal_actions"], axis=1)
        actions = np.where(info["optimal_actions"].any(axis=1), actions, 0)
        _, _, terminated, _, info = envs.step(actions)
        if terminated.any():
            assert terminated.all()
            np.testing.assert_array_equal(info["episode"]["l"], 3)
            np.testing.assert_array_equal(info["episode"]["r"], -2.0)  # -(d - 1)
            seen += 1
    assert seen == (3 if mode == "NextStep" else 4)
