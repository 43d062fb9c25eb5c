"""Table.build(..., max_depth=): a build that stops at a depth (out of core, two bits), its
distribution the whole table's first levels, gone on with to the same file byte for byte; the
work directory of another board or goal refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import slidetable as st


@pytest.mark.parametrize("rows,cols,goal", [(3, 3, "blank-last"), (2, 5, "blank-first"), (3, 4, "blank-last")])
def test_a_stopped_build_goes_on_to_the_one_go_file(tmp_path: Path, rows: int, cols: int, goal: str) -> None:
    puzzle = st.Puzzle(rows, cols, goal=goal)
    st.Table.build(puzzle, tmp_path / "memory.table", bits=2, progress=False)
    full = st.Table.open(tmp_path / "memory.table").histogram()
    path = tmp_path / "t.table"
    first = st.Table.build(puzzle, path, max_depth=8, progress=False)
    assert isinstance(first, st.PartialBuild)
    assert (first.depth, first.resumed_after, first.states) == (8, None, int(full.sum()))
    np.testing.assert_array_equal(first.histogram(), full[:9])
    second = st.Table.build(puzzle, path, max_depth=18, progress=False)
    assert isinstance(second, st.PartialBuild) and second.resumed_after == 8
    html = second._repr_html_()
    assert "depths 0 to 18 (this call from depth 9)" in html and f"{int(full[:19].sum()):,} of" in html, html
    np.testing.assert_array_equal(second.histogram(), full[:19])
    assert not path.exists()
    # to the end, with no bits= (the work directory's build goes on at two bits)
    notes: list[dict] = []
    table = st.Table.build(puzzle, path, progress=notes.append)
    assert isinstance(table, st.Table) and table.path == str(path)
    # told first where it resumed, then each depth
    assert notes[0] == {"resumed": 18, "reached": int(full[:19].sum())}
    levels = [n["depth"] for n in notes[1:]]
    assert levels[0] == 19 and levels[-1] == table.max_depth
    assert path.read_bytes() == (tmp_path / "memory.table").read_bytes()
    assert not Path(str(path) + ".work").exists()


def test_max_depth_refusals(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="give path= too"):
        st.Table.build(st.Puzzle(3, 3), max_depth=5)
    with pytest.raises(ValueError, match="bits=8"):
        st.Table.build(st.Puzzle(3, 3), tmp_path / "t.table", bits=8, max_depth=5)
    for bad in (-1, 2**32):
        with pytest.raises(ValueError, match="a whole number from 0 to 2"):
            st.Table.build(st.Puzzle(3, 3), tmp_path / "t.table", max_depth=bad)
    for wrong in (1.5, True, "5", [5]):
        with pytest.raises(TypeError, match="a whole number from 0 to 2"):
            st.Table.build(st.Puzzle(3, 3), tmp_path / "t.table", max_depth=wrong)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="too small to be built out of core"):
        st.Table.build(st.Puzzle(2, 2), tmp_path / "t.table", max_depth=2)
    # a stopped build's directory is its table's only
    st.Table.build(st.Puzzle(3, 3), tmp_path / "t.table", max_depth=10, progress=False)
    for other in (st.Puzzle(2, 4), st.Puzzle(3, 3, goal="blank-first")):
        with pytest.raises(ValueError, match="another table"):
            st.Table.build(other, tmp_path / "o.table", work_dir=tmp_path / "t.table.work", max_depth=12)
    assert list(tmp_path.iterdir()) == [tmp_path / "t.table.work"]
    # a last depth past the deepest level: the table
    table = st.Table.build(st.Puzzle(2, 3), tmp_path / "s.table", max_depth=100, progress=False)
    assert isinstance(table, st.Table) and table.max_depth == 21


def test_a_resumed_build_s_bar_starts_at_the_states_found_before() -> None:
    pytest.importorskip("tqdm")
    from slidetable._progress import Levels

    with Levels(True, "3x4 table") as levels:
        levels({"resumed": 18, "reached": 1000})
        assert levels.bar is None, "no bar for the note alone"
        levels({"depth": 19, "level_states": 100, "reached": 1100, "total": 2000, "seconds": 0.1})
        assert (levels.bar.initial, levels.bar.n) == (1000, 1100)
    with Levels(True, "3x4 table") as levels:
        levels({"depth": 0, "level_states": 1, "reached": 1, "total": 2000, "seconds": 0.0})
        assert (levels.bar.initial, levels.bar.n) == (0, 1)
