"""slidetable.dask keeps each worker's searches to half its ``memory_limit`` (the nanny kills a
worker past the limit: a search that ignored it lost whole workers, ``KilledWorker``)."""

from __future__ import annotations

import numpy as np
import pytest

import slidetable as st

distributed = pytest.importorskip("distributed")
from distributed import Client, LocalCluster  # noqa: E402

import slidetable.dask as sd  # noqa: E402

# Korf's first instance: A* with Manhattan distance needs gigabytes of open list
KORF1 = [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]
P44 = st.Puzzle(4, 4, "blank-first")


def test_searches_keep_to_half_the_worker_memory_limit():
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, memory_limit="1GB", dashboard_address=":0") as cluster, Client(cluster) as c:
        c.wait_for_workers(1, timeout=60)
        r = sd.solve_batch(np.array([KORF1]), P44, client=c, heuristic="manhattan", algorithm="astar")
        # the search stopped at its budget (half of 1 GB) and said so; the worker lived
        assert r.lengths[0] == st.FAILED
        assert "500000000" in r.errors[0] or "476.8 MiB" in r.errors[0] or "500 MB" in r.errors[0], r.errors[0]
        assert len(c.scheduler_info()["workers"]) == 1
