"""The traps a new user fell into (issue 39, item 7): an assumed goal, seeds past 64 bits, a
directory as a table, a mapped table truncated underneath, the default search past 12 cells."""

import os
import signal
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import slidetable as st

# Korf's first 15-puzzle instance: written toward the blank-first goal
KORF1 = [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]


def test_an_assumed_goal_is_said_when_another_named_goal_fits() -> None:
    for call in (
        lambda: st.heuristic(KORF1),
        lambda: st.is_solvable(KORF1),
        lambda: st.solve(KORF1, heuristic="manhattan", max_nodes=10),
    ):
        with pytest.warns(UserWarning, match=r"taken to be blank-last; the board cannot reach it but can reach the "
                                             r"blank-first goal: pass puzzle=slidetable.Puzzle\(4, 4, 'blank-first'\)"):
            call()
    two = np.array([KORF1, list(range(1, 16)) + [0]])
    with pytest.warns(UserWarning, match=r"1 of the 2 boards cannot reach it \(the first: row 0\); 1 of those"):
        st.solve_batch(two, heuristic="manhattan", algorithm="idastar")


def test_no_warning_when_the_goal_is_given_or_nothing_else_fits() -> None:
    p = st.Puzzle(4, 4, "blank-first")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert st.heuristic(KORF1, puzzle=p) == 41
        assert st.is_solvable(KORF1, puzzle=st.Puzzle(4, 4)) is False  # asked for: no warning
        assert st.heuristic([8, 6, 7, 2, 5, 4, 3, 0, 1]) == 21  # solvable toward the assumed goal
        sol = st.solve([1, 2, 3, 4, 5, 6, 7, 0, 8])
        assert sol is not None and sol.goal == "blank-last"
        sol = st.solve(KORF1, p, heuristic="linear-conflict", algorithm="idastar", max_nodes=10**9)
        assert sol is not None and sol.goal == "blank-first" and sol.length == 57


def test_the_library_names_the_goals_a_board_can_reach_instead() -> None:
    assert st.Puzzle(4, 4)._p.reachable_instead(KORF1) == ["blank-first"]
    assert st.Puzzle(4, 4, "blank-first")._p.reachable_instead(KORF1) == []
    # 3x3: the spiral goal has the other parity of blank-last and blank-first
    assert st.Puzzle(3, 3)._p.reachable_instead([2, 1, 3, 4, 5, 6, 7, 8, 0]) == ["snail"]


def test_seeds_past_64_bits_are_refused() -> None:
    p = st.Puzzle(3, 3)
    t = st.Table.build(p)
    top = 2**64 - 1
    p.random_walk(2, 5, seed=top)
    t.sample(5, 2, seed=top)
    for bad in (2**64, 2**64 + 1, 2**80):
        with pytest.raises(ValueError, match=r"seed .* out of range: give a whole number from 0 to 2\*\*64 - 1"):
            p.random_walk(2, 5, seed=bad)
        with pytest.raises(ValueError, match="out of range"):
            t.sample(5, 2, seed=bad)
    # before, 2**64 drew the boards of seed 0
    assert not (p.random_walk(4, 9, seed=top) == p.random_walk(4, 9, seed=0)).all()


def test_a_directory_as_a_table_is_named_as_such(tmp_path) -> None:
    with pytest.raises(IsADirectoryError, match="it is a directory, not a table file"):
        st.Table.open(tmp_path)
    with pytest.raises(IsADirectoryError, match="directory"):
        st.Table.open(tmp_path, mmap=False)
    with pytest.raises(TypeError, match="mmap must be True or False"):
        st.Table.open(tmp_path, mmap="no")  # type: ignore[arg-type]


def test_a_table_read_into_memory_survives_its_file_being_truncated(tmp_path) -> None:
    path = tmp_path / "eight.table"
    st.Table.build(st.Puzzle(3, 3), path)
    t = st.Table.open(path, mmap=False)
    assert t.path == str(path)
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size // 10)
    boards = t.unrank(np.arange(len(t) - 1000, len(t)))
    assert (t.distance(boards) >= 0).all()  # the last entries, whose bytes the file no longer has


@pytest.mark.skipif(sys.platform == "win32", reason="SIGBUS is POSIX")
def test_a_mapped_table_truncated_underneath_is_a_bus_error_as_documented(tmp_path) -> None:
    # what Table.open's doc says: no Python code can catch it, so it runs in a child
    path = tmp_path / "eight.table"
    st.Table.build(st.Puzzle(3, 3), path)
    code = textwrap.dedent(
        f"""
        import numpy as np, slidetable as st
        t = st.Table.open({str(path)!r})
        with open({str(path)!r}, "r+b") as f:
            f.truncate(4096)
        t.distance(t.unrank(np.arange(len(t) - 1000, len(t))))
        print("read")
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == -signal.SIGBUS, (r.returncode, r.stdout, r.stderr)
    assert "read" not in r.stdout


def test_past_12_cells_the_default_search_cannot_fill_memory(tmp_path) -> None:
    p = st.Puzzle(4, 4)
    board = p.random_walk(1, 20, seed=3)[0]
    s = st.Solver(p, heuristic="linear-conflict", dir=tmp_path, build_missing=False)
    sol = s.solve(board)
    assert sol.algorithm == "idastar" and sol.optimal
    # 12 cells and fewer keep A*
    q = st.Puzzle(3, 4)
    sol = st.Solver(q, heuristic="manhattan", dir=tmp_path).solve(q.random_walk(1, 20, seed=3)[0])
    assert sol.algorithm == "astar"
    assert os.listdir(tmp_path) == [], "nothing built for a classic heuristic"
