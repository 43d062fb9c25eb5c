"""Calls in a child forked after the parent used the library's threads (issue 39).

Each test first runs parallel work in this process (so its thread pool exists), then forks and
runs more in the children, with a time limit: before the fix a child's first parallel call waited
for the parent's pool threads, which a fork does not copy, for ever.
"""

import multiprocessing as mp
import os
import sys

import numpy as np
import pytest

import slidetable as st

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or "fork" not in mp.get_all_start_methods(), reason="needs fork"
)

LIMIT = 60  # seconds: a child that has not answered by then is hung

PUZZLE = st.Puzzle(3, 3)


def _warm_parent() -> st.Table:
    """Parallel work in the parent: the calls the issue found hanging in a child after them."""
    boards = PUZZLE.random_walk(5000, 40, seed=3)
    PUZZLE.heuristic(boards, "manhattan")
    PUZZLE.expand(boards)
    return st.Table.build(PUZZLE)


def _work(seed: int) -> tuple[int, int, int]:
    """Batch calls in a child; returns a digest the parent checks against its own."""
    boards = PUZZLE.random_walk(2000, 30, seed=seed)
    kids, valid = PUZZLE.expand(boards)
    h = PUZZLE.heuristic(boards, "manhattan")
    table = st.Table.build(PUZZLE)
    d = table.distance(boards)
    return int(valid.sum()), int(h.sum()), int(d.sum())


def test_fork_pool_after_parallel_work_in_parent() -> None:
    _warm_parent()
    expected = [_work(seed) for seed in range(4)]
    with mp.get_context("fork").Pool(2) as pool:
        got = pool.map_async(_work, range(4)).get(timeout=LIMIT)
    assert got == expected


def _table_in_child(args: tuple[st.Table, int]) -> int:
    table, seed = args
    boards = PUZZLE.random_walk(1000, 25, seed=seed)
    return int(table.distance(boards).sum())


def test_fork_pool_uses_a_table_opened_in_the_parent(tmp_path) -> None:
    table = st.Table.build(PUZZLE, tmp_path / "eight.table")
    table.distance(PUZZLE.random_walk(1000, 25, seed=9))
    expected = [_table_in_child((table, s)) for s in range(3)]
    with mp.get_context("fork").Pool(2) as pool:
        got = pool.map_async(_table_in_child, [(table, s) for s in range(3)]).get(timeout=LIMIT)
    assert got == expected


def _loader_worker(seed: int, queue) -> None:  # type: ignore[no-untyped-def]
    # what a DataLoader's worker does: make a batch of labelled boards, put it on a queue
    boards = PUZZLE.random_walk(512, 31, seed=seed)
    table = st.Table.build(PUZZLE)
    queue.put((seed, boards, table.distance(boards)))


def test_dataloader_like_forked_workers() -> None:
    table = _warm_parent()
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    workers = [ctx.Process(target=_loader_worker, args=(seed, queue)) for seed in range(3)]
    for w in workers:
        w.start()
    batches = {}
    try:
        for _ in workers:
            seed, boards, labels = queue.get(timeout=LIMIT)
            batches[seed] = (boards, labels)
    finally:
        for w in workers:
            w.join(timeout=LIMIT)
            if w.is_alive():
                w.kill()
    assert sorted(batches) == [0, 1, 2]
    for boards, labels in batches.values():
        np.testing.assert_array_equal(labels, table.distance(boards))
    assert all(w.exitcode == 0 for w in workers)


def test_fork_of_a_fork() -> None:
    # a child that used the library forks again: the grandchild makes its own pool too
    _warm_parent()
    ctx = mp.get_context("fork")

    def child(queue) -> None:  # type: ignore[no-untyped-def]
        _work(1)
        with ctx.Pool(1) as pool:
            queue.put(pool.map_async(_work, [2]).get(timeout=LIMIT))

    queue = ctx.Queue()
    p = ctx.Process(target=child, args=(queue,))
    p.start()
    try:
        assert queue.get(timeout=LIMIT) == [_work(2)]
    finally:
        p.join(timeout=LIMIT)
        if p.is_alive():
            p.kill()
    assert p.exitcode == 0


def test_async_vector_env_with_fork() -> None:
    gym = pytest.importorskip("gymnasium")
    import slidetable.gym  # noqa: F401  (registers the environment)

    table = _warm_parent()
    envs = gym.vector.AsyncVectorEnv(
        [lambda: gym.make(slidetable.gym.ENV_ID, rows=3, cols=3) for _ in range(2)], context="fork"
    )
    try:
        # the waits with a time limit: a hung worker fails the test instead of hanging it
        envs.reset_async(seed=5)
        obs, info = envs.reset_wait(timeout=LIMIT)
        assert obs.shape == (2, 3, 3)
        for _ in range(5):
            envs.step_async(np.array([0, 1]))
            obs, reward, terminated, truncated, info = envs.step_wait(timeout=LIMIT)
        np.testing.assert_array_equal(info["distance"], table.distance(obs))
        assert obs.shape == (2, 3, 3)
    finally:
        envs.close(terminate=True)

