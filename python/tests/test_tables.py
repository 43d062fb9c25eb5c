"""Every table from Python: pattern tables and pruning machines built as the CLI builds them,
A*+IDA* with its checkpoint, and hints that name Python arguments, never command-line flags."""

from __future__ import annotations

import os
import signal
import re
import shutil
import subprocess
import _thread

import numpy as np
import pytest

import slidetable as st

P44 = st.Puzzle(4, 4, "blank-first")
# 4-4-4-3 by tile: four small tables, a few tenths of a second in all
SMALL = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15"
# tiles 1,2,3 (the top row) and 4,8,12 (the left column) are mirror images about the diagonal:
# one table serves both
MIRRORED = "1,2,3/4,8,12"
CLI = os.path.join(os.path.dirname(__file__), "..", "..", "target", "release", "table")


def tables_in(d) -> dict[str, bytes]:
    return {name: open(os.path.join(d, name), "rb").read() for name in sorted(os.listdir(d))}


def cli_build(d, partition: str, *extra: str) -> None:
    subprocess.run(
        [CLI, "build", "--board", "4x4", "--goal", "blank-first", "--pattern", partition, "--dir", str(d), "-q", *extra],
        check=True,
        capture_output=True,
    )


@pytest.fixture(scope="module")
def small_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("small")
    st.PatternDB.build(P44, SMALL, dir=d)
    return d


def boards(n: int, steps: int, seed: int) -> np.ndarray:
    return P44.random_walk(n, steps, seed=seed)


# -- building ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "partition, zero, files",
    [
        (SMALL, False, 4),
        (MIRRORED, False, 1),
        (SMALL + "+1,2,5,6/3,4,7,8/9,10,13,14/11,12,15", False, 7),  # 9,10,13,14 mirrors 1,2,5,6
        ("1,2,3/4,5,6", True, 2),
        ("1,2,3/4,5,6", "bytes", 2),
    ],
)
def test_a_build_from_python_writes_what_the_cli_writes(tmp_path, partition, zero, files):
    py_dir, cli_dir = tmp_path / "py", tmp_path / "cli"
    py_dir.mkdir()
    cli_dir.mkdir()
    db = st.PatternDB.build(P44, partition, dir=py_dir, zero=zero)
    built = tables_in(py_dir)
    assert len(built) == files, sorted(built)
    assert all(("-zero-" in name) == bool(zero) for name in built)
    sample = boards(200, 80, seed=3)
    if os.path.exists(CLI):
        extra = () if not zero else ("--zero",) if zero is True else ("--zero", "--entries", "bytes")
        cli_build(cli_dir, partition, *extra)
        assert tables_in(cli_dir) == built  # the same names, the same bytes
    else:
        # no CLI binary here: the tables built in memory by a loading solver must agree
        other = st.PatternDB.load(P44, partition, dir=cli_dir)
        assert (other.h(sample) <= db.h(sample)).all() if zero else (other.h(sample) == db.h(sample)).all()
    # the PatternDB returned is the files' and a solver finds them
    again = st.PatternDB.load(P44, partition, dir=py_dir, build_missing=False)
    assert (again.h(sample) == db.h(sample)).all()
    assert db.h(P44.goal) == 0 and (db.h(sample) > 0).any()
    s = st.Solver(P44, partition=partition, dir=py_dir, build_missing=False)
    assert s.heuristic == "pdb"


def test_progress_is_called_per_depth_of_each_table(tmp_path):
    seen: list[dict] = []
    st.PatternDB.build(P44, SMALL, dir=tmp_path, progress=seen.append)
    assert {d["table"] for d in seen} == {1, 2, 3, 4} and {d["tables"] for d in seen} == {4}
    assert set(seen[0]) == {"table", "tables", "tiles", "depth", "level_states", "reached", "total", "seconds"}
    first = [d for d in seen if d["table"] == 1]
    assert first[0]["tiles"] == [1, 2, 3, 4]
    assert [d["depth"] for d in first] == list(range(len(first)))  # once a depth, in order
    assert all(a["reached"] <= b["reached"] <= b["total"] for a, b in zip(first, first[1:]))
    with pytest.raises(TypeError, match="progress"):
        st.PatternDB.build(P44, SMALL, dir=tmp_path, progress=5)


def test_an_exception_in_progress_stops_the_build_and_leaves_no_partial_table(tmp_path):
    # a file already under the second table's name must be untouched
    second = tmp_path / "4x4-blank-first-tiles-5-6-7-8.table"
    second.write_bytes(b"old contents")

    class Stop(Exception):
        pass

    def progress(d: dict) -> None:
        if d["table"] == 2 and d["depth"] == 3:
            raise Stop("enough")

    with pytest.raises(Stop, match="enough"):
        st.PatternDB.build(P44, SMALL, dir=tmp_path, progress=progress)
    # the first table is complete; the second was never written, no temporary file is left
    assert sorted(os.listdir(tmp_path)) == ["4x4-blank-first-tiles-1-2-3-4.table", second.name]
    assert second.read_bytes() == b"old contents"
    st.PatternDB.load(P44, "1,2,3,4", dir=tmp_path, build_missing=False)


def test_ctrl_c_stops_the_build(tmp_path):
    def progress(d: dict) -> None:
        if d["table"] == 1 and d["depth"] == 2:
            _thread.interrupt_main()  # what Ctrl-C does

    # Python's own Ctrl-C handler, even where SIGINT came in ignored (a background job: there
    # interrupt_main does nothing)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            st.PatternDB.build(P44, SMALL, dir=tmp_path, progress=progress)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert os.listdir(tmp_path) == []


def test_a_solver_refuses_a_tables_directory_that_is_not_there(tmp_path):
    # refused at once, not every small table built and left unsaved
    with pytest.raises(FileNotFoundError, match=r"nowhere: no such directory"):
        st.Solver(P44, partition=SMALL, dir=tmp_path / "nowhere")
    (tmp_path / "a-file").write_text("")
    with pytest.raises(NotADirectoryError, match="not a directory"):
        st.Solver(P44, dir=tmp_path / "a-file")
    assert os.listdir(tmp_path) == ["a-file"]


def test_build_refuses_bad_arguments(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such directory"):
        st.PatternDB.build(P44, SMALL, dir=tmp_path / "nowhere")
    with pytest.raises(ValueError, match="zero="):
        st.PatternDB.build(P44, SMALL, dir=tmp_path, zero="nibbles")
    with pytest.raises(ValueError, match=r"PatternDB\.partitions"):
        st.PatternDB.build(P44, "list", dir=tmp_path)
    with pytest.raises(TypeError):
        st.PatternDB.build("4x4", SMALL, dir=tmp_path)
    names = st.PatternDB.partitions(P44)
    assert {"5-5-5", "6-6-3", "7-8", "auto"} <= set(names) and all(names.values())
    assert os.listdir(tmp_path) == []


def test_a_pruning_machine_is_built_and_loaded(tmp_path):
    p = st.Puzzle(3, 3)
    path = st.PatternDB.build_pruner(p, 14, dir=tmp_path)
    assert os.path.basename(path) == "3x3-moves-14.fsm" and os.path.exists(path)
    if os.path.exists(CLI):
        cli_dir = tmp_path / "cli"
        cli_dir.mkdir()
        subprocess.run([CLI, "build", "--board", "3x3", "--prune", "14", "--dir", str(cli_dir)], check=True,
                       capture_output=True)
        assert open(path, "rb").read() == (cli_dir / "3x3-moves-14.fsm").read_bytes()
    # a solver with pattern tables finds it by its length, and searches the same optimum with it
    hard = [8, 6, 7, 2, 5, 4, 3, 0, 1]
    s = st.Solver(p, partition="1,2,3,4/5,6,7,8", dir=tmp_path, prune=14)
    sol = s.solve(hard, algorithm="idastar")
    assert sol.length == 31 and sol.optimal
    with pytest.raises(ValueError, match="2 to 24"):
        st.PatternDB.build_pruner(p, 1, dir=tmp_path)


# -- A*+IDA* and its checkpoint ------------------------------------------------------------------


def test_astar_ida_solves_optimally(small_dir):
    s = st.Solver(P44, partition=SMALL, dir=small_dir, build_missing=False)
    b = boards(3, 60, seed=11)
    for board in b:
        ida = s.solve(board, algorithm="idastar")
        # a tiny A* budget, so that most of the work is IDA* below its frontier
        both = s.solve(board, algorithm="astar-ida", max_memory=1 << 16)
        assert both.algorithm == "astar-ida" and both.optimal
        assert both.length == ida.length
        assert (P44.apply(board, both.moves) == P44.goal).all()
    r = s.solve_batch(b, algorithm="astar-ida", threads=1)
    assert r.algorithm == "astar-ida" if hasattr(r, "algorithm") else True
    assert list(r.lengths) == [s.solve(x, algorithm="idastar").length for x in b]


def test_a_checkpoint_is_written_and_resumed(small_dir, tmp_path):
    s = st.Solver(P44, partition=SMALL, dir=small_dir, build_missing=False)
    board = next(x for x in boards(20, 200, seed=5) if s.solve(x, algorithm="idastar").generated > 200_000)
    whole = s.solve(board, algorithm="astar-ida", max_memory=1 << 16, threads=1)
    ck = tmp_path / "run.checkpoint"
    with pytest.raises(st.SearchLimitError) as stopped:
        s.solve(board, algorithm="astar-ida", max_memory=1 << 16, threads=1, max_nodes=whole.generated // 2,
                checkpoint=ck)
    assert "checkpoint=" in str(stopped.value) and "--" not in str(stopped.value)
    text = ck.read_text()
    saved = dict(line.split(" ", 1) for line in text.splitlines() if line and not line.startswith("#"))
    assert int(saved["generated"]) > 0 and int(saved["bound"]) >= 1
    resumed = s.solve(board, algorithm="astar-ida", max_memory=1 << 16, threads=1, checkpoint=ck)
    assert resumed.length == whole.length and resumed.optimal
    # the counts go on from the file's; the file is gone once the solution is found
    assert resumed.generated >= int(saved["generated"])
    assert not ck.exists()


def test_a_checkpoint_of_another_search_or_a_damaged_one_is_refused(small_dir, tmp_path):
    s = st.Solver(P44, partition=SMALL, dir=small_dir, build_missing=False)
    b = boards(2, 200, seed=9)
    ck = tmp_path / "run.checkpoint"
    with pytest.raises(st.SearchLimitError):
        s.solve(b[0], algorithm="astar-ida", max_memory=1 << 16, threads=1, max_nodes=20_000, checkpoint=ck)
    assert ck.exists()
    saved = ck.read_text()
    with pytest.raises(ValueError, match="another search") as other:
        s.solve(b[1], algorithm="astar-ida", max_memory=1 << 16, threads=1, checkpoint=ck)
    assert "prune= or max_memory=" in str(other.value) and "--" not in str(other.value)
    # a checkpoint cut short is damaged; a file of the user's, named by mistake, is not a
    # checkpoint, and is not to be deleted
    ck.write_text(saved[: len(saved) // 2])
    with pytest.raises(ValueError, match="damaged"):
        s.solve(b[0], algorithm="astar-ida", checkpoint=ck)
    ck.write_text("garbage")
    with pytest.raises(ValueError, match="not a slidetable checkpoint") as mine:
        s.solve(b[0], algorithm="astar-ida", checkpoint=ck)
    assert "delete" not in str(mine.value)
    assert ck.read_text() == "garbage"


def test_astar_ida_and_checkpoints_are_refused_where_they_do_not_apply(small_dir, tmp_path):
    board = boards(1, 30, seed=2)[0]
    manhattan = st.Solver(P44, heuristic="manhattan")
    with pytest.raises(ValueError, match="heuristic='pdb'"):
        manhattan.solve(board, algorithm="astar-ida")
    with pytest.raises(ValueError, match="heuristic='pdb'"):
        manhattan.solve_batch([board], algorithm="astar-ida")
    fn = st.Solver(P44, heuristic=lambda b: P44.heuristic(b, "manhattan"))
    with pytest.raises(ValueError, match="not a heuristic function"):
        fn.solve(board, algorithm="astar-ida")
    pdb = st.Solver(P44, partition=SMALL, dir=small_dir, build_missing=False)
    with pytest.raises(ValueError, match="batch size"):
        pdb.solve(board, algorithm="astar-ida", batch_size=10)
    for algorithm in ("idastar", "auto", "astar"):
        with pytest.raises(ValueError, match="checkpoint= goes with algorithm='astar-ida'"):
            pdb.solve(board, algorithm=algorithm, checkpoint=tmp_path / "x")
    assert not (tmp_path / "x").exists()


# -- hints in Python words -----------------------------------------------------------------------

CLI_WORDS = re.compile(r"--[a-z]|(^|[ `(])-H |`table |\btable (build|solve|verify|stats|query)\b")


def message_of(call) -> str:
    with pytest.raises(Exception) as e:
        call()
    return str(e.value)


def assert_python_words(text: str) -> None:
    assert not CLI_WORDS.search(text), text


def test_hints_name_python_arguments_and_calls(tmp_path, monkeypatch, small_dir):
    monkeypatch.chdir(tmp_path)  # no default-named tables here
    empty = tmp_path / "empty"
    empty.mkdir()
    board = boards(1, 200, seed=4)[0]
    messages = {}

    # missing tables: the call that builds them
    messages["missing"] = m = message_of(lambda: st.Solver(P44, partition="7-8", dir=empty, build_missing=False))
    assert f'PatternDB.build(puzzle, "7-8", dir="{empty}")' in m, m
    m = message_of(lambda: st.PatternDB.load(P44, "6-6-3", dir=empty, build_missing=False))
    assert f'PatternDB.build(puzzle, "6-6-3", dir="{empty}")' in m, m
    # a file under a table's name that is another table
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(small_dir / "4x4-blank-first-tiles-1-2-3-4.table", other / "4x4-blank-first-tiles-5-6-7-8.table")
    messages["wrong table"] = m = message_of(lambda: st.PatternDB.load(P44, SMALL, dir=other, build_missing=False))
    assert f'PatternDB.build(puzzle, "{SMALL}", dir="{other}")' in m, m
    # a search's limit: another algorithm is suggested, never the one given
    manhattan = st.Solver(P44, heuristic="manhattan")
    messages["astar limit"] = m = message_of(lambda: manhattan.solve(board, algorithm="astar", max_nodes=100))
    assert 'algorithm="idastar"' in m and "max_nodes=" in m, m
    for given in ("idastar", "ida*"):
        messages[given] = m = message_of(lambda: manhattan.solve(board, algorithm=given, max_nodes=100))
        assert "idastar gave up" in m and 'algorithm="idastar"' not in m and "max_nodes=" in m, m
    m = message_of(lambda: manhattan.solve(board, algorithm="astar", max_memory=1 << 12))
    assert "max_memory=" in m, m
    r = manhattan.solve_batch(boards(2, 200, seed=4), algorithm="astar", max_nodes=100)
    messages["batch"] = r.errors[0]
    # heuristics and partitions
    messages["table 4x4"] = m = message_of(lambda: st.Solver(P44, heuristic="table"))
    assert 'heuristic="table"' in m and 'heuristic="pdb"' in m, m
    messages["table 3x4"] = m = message_of(lambda: st.Solver(st.Puzzle(3, 4), heuristic="table"))
    assert 'Table.build(Puzzle(3, 4, "blank-last"), path)' in m and "table=PATH" in m, m
    messages["partition with manhattan"] = m = message_of(
        lambda: st.Solver(P44, heuristic="manhattan", partition="6-6-3"))
    assert 'partition= goes with heuristic="pdb"' in m, m
    for bad in ("", "9-9", "1,2,x/3", "1,2/2,3", "7-8+", "1,2//3", "6-6-6-6"):
        messages[f"partition {bad!r}"] = m = message_of(lambda: st.PatternDB.build(P44, bad, dir=empty))
        if bad.strip():
            assert "partition=" in m or "PatternDB.partitions" in m or "is a partition of" in m, m
    m = messages["partition '9-9'"]
    assert "PatternDB.partitions(puzzle)" in m, m
    m = message_of(lambda: st.PatternDB.build(st.Puzzle(3, 3), "1,2,3,4,5,6,7/8", dir=empty))
    messages["whole board"] = m
    assert "Table.build(Puzzle(3, 3), path)" in m, m
    # goals and tables
    messages["goal"] = m = message_of(lambda: st.Puzzle(3, 3, "blank_first"))
    assert 'goal="blank-first"' in m, m
    broken = tmp_path / "broken.table"
    st.Table.build(st.Puzzle(2, 3), broken)
    broken.write_bytes(broken.read_bytes()[:-5])
    messages["truncated"] = m = message_of(lambda: st.Table.open(broken))
    assert "Table.build(puzzle, path)" in m and "PatternDB.build(puzzle, partition" in m, m
    messages["sample"] = m = message_of(lambda: st.Table.build(st.Puzzle(3, 3)).sample(31, 5))
    assert "Table.histogram()" in m, m
    # a pruning machine too long to make on the spot
    messages["pruner"] = m = message_of(lambda: st.Solver(P44, partition=SMALL, dir=small_dir, prune=30))
    m = message_of(lambda: st.Solver(P44, partition="1,2,3/4,5,6", dir=empty, prune=13, build_missing=True))
    messages["pruner 13"] = m
    assert f'PatternDB.build_pruner(puzzle, 13, dir="{empty}")' in m, m
    # notices a callback receives: the hint toward pattern tables
    notes: list[str] = []
    st.Solver(P44, dir=empty, notice=notes.append)
    assert any(f'`PatternDB.build(puzzle, "6-6-3", dir="{empty}")`, then `Solver(puzzle, partition="6-6-3", dir="{empty}")`'
               in n for n in notes), notes
    for text in list(messages.values()) + notes:
        assert_python_words(text)


def test_docstring_examples_run():
    import doctest

    for obj in (st.PatternDB.build, st.PatternDB.build_pruner):
        runner = doctest.DocTestRunner()
        tests = doctest.DocTestFinder(recurse=False).find(obj, globs={})
        assert tests and tests[0].examples, obj
        for test in tests:
            runner.run(test)
        assert runner.failures == 0, obj
