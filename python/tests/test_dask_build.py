"""slidetable.dask.build_table: the out-of-core build's levels on a local Dask cluster of two
worker processes, byte for byte the in-memory table's file, through a worker killed mid-build."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import slidetable as st

distributed = pytest.importorskip("distributed")
import dask  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

import slidetable.dask as sd  # noqa: E402


@pytest.fixture(scope="module")
def client() -> Any:
    # A local cluster gives up a worker whose name has had no live process for 15 s since one of
    # its processes died (distributed.deploy.lost-worker-timeout), counted from each death. Two
    # tests here kill worker 0; when the second kill came within 15 s of the first, the timer of
    # the first found worker 0 restarting and closed its nanny, and the cluster kept one worker
    # (CI of 596e30f). The kills are the tests' own doing, so the cluster waits on them.
    with dask.config.set({"distributed.deploy.lost-worker-timeout": "1h"}):
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
            with Client(cluster) as c:
                yield c


def _in_memory(puzzle: st.Puzzle, path: Path) -> bytes:
    st.Table.build(puzzle, path, bits=2)
    return path.read_bytes()


@pytest.mark.parametrize("rows,cols", [(2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (3, 4)])
def test_the_sharded_build_writes_the_in_memory_file(client: Any, tmp_path: Path, rows: int, cols: int) -> None:
    puzzle = st.Puzzle(rows, cols)
    levels: list[int] = []
    table = sd.build_table(puzzle, tmp_path / "dask.table", client=client, progress=lambda p: levels.append(p["depth"]))
    assert (tmp_path / "dask.table").read_bytes() == _in_memory(puzzle, tmp_path / "memory.table")
    assert levels == list(range(1, table.max_depth + 1))
    assert not (tmp_path / "dask.table.work").exists()
    table.verify()


def test_the_sharded_build_shows_a_bar_of_states_reached(client: Any, tmp_path: Path, capsys: Any) -> None:
    pytest.importorskip("tqdm")
    sd.build_table(st.Puzzle(2, 4), tmp_path / "dask.table", client=client, progress=True)
    err = capsys.readouterr().err
    assert "2x4 table on the cluster" in err and "20.2k/20.2k" in err and "depth=36" in err
    sd.build_table(st.Puzzle(2, 4), tmp_path / "quiet.table", client=client, progress=False)
    assert capsys.readouterr().err == ""
    with pytest.raises(TypeError, match="progress must be"):
        sd.build_table(st.Puzzle(2, 4), tmp_path / "no.table", client=client, progress="yes")
    assert not (tmp_path / "no.table.work").exists()


def test_a_worker_killed_mid_build_costs_its_task_only(client: Any, tmp_path: Path) -> None:
    puzzle = st.Puzzle(3, 4)
    pids = client.run(os.getpid)
    killed: list[int] = []

    def kill_one(p: dict[str, Any]) -> None:
        # at depth 20, one worker process dies (SIGKILL); its nanny starts another
        if p.get("depth") == 20 and not killed:
            pid = next(iter(pids.values()))
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    sd.build_table(puzzle, tmp_path / "dask.table", client=client, progress=kill_one)
    assert killed, "the build ended before a worker was killed"
    assert (tmp_path / "dask.table").read_bytes() == _in_memory(puzzle, tmp_path / "memory.table")
    client.wait_for_workers(2, timeout=60)


def test_a_stopped_build_resumes_from_its_last_level(client: Any, tmp_path: Path) -> None:
    puzzle = st.Puzzle(3, 3)

    class Stop(Exception):
        pass

    def stop_at_12(p: dict[str, Any]) -> None:
        if p.get("depth") == 12:
            raise Stop

    with pytest.raises(Stop):
        sd.build_table(puzzle, tmp_path / "dask.table", client=client, progress=stop_at_12)
    assert (tmp_path / "dask.table.work" / "checkpoint").exists()
    notes: list[dict[str, Any]] = []
    sd.build_table(puzzle, tmp_path / "dask.table", client=client, progress=notes.append)
    assert notes[0] == {"resumed": 12, "reached": sum(st.Table.build(puzzle).histogram()[:13])}
    assert (tmp_path / "dask.table").read_bytes() == _in_memory(puzzle, tmp_path / "memory.table")


def test_refusals(client: Any, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="bits=8"):
        sd.build_table(st.Puzzle(2, 3), tmp_path / "t.table", client=client, bits=8)
    # a worker memory given that will not do: refused before anything is written
    with pytest.raises(MemoryError, match=r"needs 30\.4 MiB of memory .* memory=1000 gives it 0\.0 MiB"):
        sd.build_table(st.Puzzle(3, 4), tmp_path / "t.table", client=client, memory=1000)
    assert not (tmp_path / "t.table.work").exists()
    for bad in (-5, 0, 1.5, "4G", 10**30):
        with pytest.raises(ValueError, match="positive whole number of bytes"):
            sd.build_table(st.Puzzle(3, 4), tmp_path / "t.table", client=client, memory=bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="slidetable.Puzzle"):
        sd.build_table("3x4", tmp_path / "t.table", client=client)  # type: ignore[arg-type]
    # a work directory that holds a 3x4 build: another board is refused
    from slidetable import _core

    _core.BuildDriver(st.Puzzle(3, 4)._p, str(tmp_path / "t.table.work"))
    with pytest.raises(ValueError, match="another table"):
        sd.build_table(st.Puzzle(2, 5), tmp_path / "u.table", client=client, work_dir=tmp_path / "t.table.work")
    # a user's trial: the table's own path as the work directory, and a table in a directory that
    # does not exist, both refused before any work directory is made
    with pytest.raises(ValueError, match="the work directory and the table are both"):
        sd.build_table(st.Puzzle(2, 4), tmp_path / "v.table", client=client, work_dir=tmp_path / "v.table")
    with pytest.raises(FileNotFoundError, match="its directory does not exist"):
        sd.build_table(st.Puzzle(2, 4), tmp_path / "missing" / "v.table", client=client, max_depth=5)
    with pytest.raises(FileNotFoundError, match="its directory does not exist"):
        st.Table.build(st.Puzzle(2, 4), tmp_path / "missing" / "v.table", max_depth=5)
    assert not (tmp_path / "v.table").exists() and not (tmp_path / "missing").exists()


def test_the_command_line_entry_point(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "slidetable.dask", "build", "--board", "2x4", "--local", "1", "-o", str(tmp_path / "t.table")],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "wrote" in out.stdout and "20,160 states, max depth 36" in out.stdout, out.stdout
    assert (tmp_path / "t.table").read_bytes() == _in_memory(st.Puzzle(2, 4), tmp_path / "memory.table")
    bad = subprocess.run(
        [sys.executable, "-m", "slidetable.dask", "build", "--board", "4x4", "--local", "1", "-o", str(tmp_path / "u.table")],
        capture_output=True, text=True, timeout=300,
    )
    assert bad.returncode != 0 and "16" in bad.stderr, bad.stderr[-2000:]
    zero = subprocess.run(
        [sys.executable, "-m", "slidetable.dask", "build", "--board", "2x4", "--local", "0", "-o", str(tmp_path / "v.table")],
        capture_output=True, text=True, timeout=300,
    )
    assert zero.returncode == 2 and "--local 0" in zero.stderr, zero.stderr[-2000:]
    for huge in ("1e30", "inf"):
        out = subprocess.run(
            [sys.executable, "-m", "slidetable.dask", "build", "--board", "2x4", "--local", "1", "--memory", huge,
             "-o", str(tmp_path / "w.table")],
            capture_output=True, text=True, timeout=300,
        )
        assert out.returncode == 2 and f"--memory {float(huge)}" in out.stderr, out.stderr[-2000:]
        assert not (tmp_path / "w.table.work").exists()


def test_a_build_whose_disk_will_not_do_is_refused_before_it_starts(
    client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the 3x5 (163.5 GB of codes) with a test-only figure for the disk free: refused by the
    # client before any file is made, as `table build` refuses it
    monkeypatch.setenv("SLIDETABLE_AVAILABLE_DISK", str(100 * 10**9))
    with pytest.raises(Exception, match=r"needs 573\.2 GB of disk .* but only 100\.0 GB is free"):
        sd.build_table(st.Puzzle(3, 5), tmp_path / "t.table", client=client)
    assert list(tmp_path.iterdir()) == []


def test_table_build_into_a_file_goes_out_of_core_when_memory_is_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the 3x4 at two bits needs about 90 MiB in memory and 30.4 MiB out of core: with 40 MiB
    # available (a test-only figure) Table.build(path) builds it in files, as `table build` does
    reference = st.Table.build(st.Puzzle(3, 4), tmp_path / "memory.table", bits=2)
    monkeypatch.setenv("SLIDETABLE_AVAILABLE_MEMORY", str(40 << 20))
    depths: list[int] = []
    work = tmp_path / "w"
    in_files: list[bool] = []

    def note(p: dict[str, Any]) -> None:
        depths.append(p["depth"])
        in_files.append((work / "build.plan").exists())

    table = st.Table.build(st.Puzzle(3, 4), tmp_path / "ooc.table", bits=2, work_dir=work, progress=note)
    assert in_files and all(in_files), "built in the work directory's files"
    assert (tmp_path / "ooc.table").read_bytes() == (tmp_path / "memory.table").read_bytes()
    assert table.max_depth == reference.max_depth and depths[-1] == reference.max_depth
    assert not work.exists()
    with pytest.raises(ValueError, match="give path= too"):
        st.Table.build(st.Puzzle(2, 3), work_dir=work)


def test_a_build_stopped_at_a_depth_goes_on_to_the_same_file_through_a_killed_worker(
    client: Any, tmp_path: Path
) -> None:
    puzzle = st.Puzzle(3, 4)
    full = st.Table.build(puzzle, tmp_path / "memory.table", bits=2)
    pids = client.run(os.getpid)
    killed: list[int] = []

    def kill_at(depth: int) -> Any:
        def note(p: dict[str, Any]) -> None:
            if p.get("depth") == depth and len(killed) < 2:
                pid = next(iter(pids.values())) if not killed else next(iter(client.run(os.getpid).values()))
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        return note

    part = sd.build_table(puzzle, tmp_path / "dask.table", client=client, max_depth=np.int64(24), progress=kill_at(12))
    assert isinstance(part, st.PartialBuild), part
    assert part.depth == 24 and part.resumed_after is None
    assert list(part.histogram()) == list(full.histogram()[:25])
    assert part.reached == int(full.histogram()[:25].sum()) and part.states == len(full)
    assert not (tmp_path / "dask.table").exists() and (tmp_path / "dask.table.work" / "checkpoint").exists()
    client.wait_for_workers(2, timeout=60)
    table = sd.build_table(puzzle, tmp_path / "dask.table", client=client, progress=kill_at(30))
    assert isinstance(table, st.Table)
    assert len(killed) == 2, "the build ended before both workers were killed"
    assert (tmp_path / "dask.table").read_bytes() == (tmp_path / "memory.table").read_bytes()
    client.wait_for_workers(2, timeout=60)
    with pytest.raises(ValueError, match="max_depth=-1"):
        sd.build_table(puzzle, tmp_path / "x.table", client=client, max_depth=-1)
    with pytest.raises(TypeError, match="max_depth='5'"):
        sd.build_table(puzzle, tmp_path / "x.table", client=client, max_depth="5")  # type: ignore[arg-type]
