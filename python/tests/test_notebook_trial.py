"""What a researcher's and a student's trial of the notebook features tripped on (issue 50's
second trial): each case here failed, crashed or misled before it was mended."""

from __future__ import annotations

import importlib
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import slidetable as st


@pytest.fixture(scope="module")
def eight() -> st.Table:
    return st.Table.build(st.Puzzle(3, 3))


def test_a_balanced_sample_past_memory_is_refused_not_a_dead_kernel(eight, monkeypatch):
    monkeypatch.setenv("SLIDETABLE_AVAILABLE_MEMORY", str(100 << 20))
    with pytest.raises(MemoryError, match=r"a sample of 32000000000 boards needs .* ask for fewer boards a depth"):
        st.balanced_sample(eight, 10**9, replace=True)
    assert len(st.balanced_sample(eight, 10, replace=True)) == 320


def test_walks_longer_than_a_data_set_records_are_refused_in_words():
    p = st.Puzzle(3, 3)
    for steps in [40_000, 65_546, (65_540, 65_546), 10**9]:
        with pytest.raises(ValueError, match="past 32,767"):
            st.labelled_walks(p, 3, steps, seed=1)
    assert st.labelled_walks(p, 3, 32_767, seed=1).walk_lengths.tolist() == [32_767] * 3


def test_labelled_walks_show_one_bar_not_one_a_chunk(capsys):
    st.labelled_walks(st.Puzzle(3, 3), 12, 20, chunk=4, seed=1, progress=True)
    err = capsys.readouterr().err
    assert "boards labelled" in err and "boards solved" not in err


def test_a_heat_map_of_nan_is_refused_naming_the_board(eight):
    pytest.importorskip("matplotlib")
    importlib.import_module("matplotlib").use("Agg")
    with pytest.raises(ValueError, match=r"the heuristic gave nan for board .*finite"):
        st.plots.heatmap(eight, lambda b: np.where(b[:, 0] == 1, np.nan, 3.0))
    with pytest.raises(ValueError, match="cannot reach the goal"):
        st.plots.heatmap(eight, "manhattan", states=[[2, 1, 3, 4, 5, 6, 7, 8, 0]])


def test_grading_given_boards_reports_progress_and_refuses_none(eight):
    boards = eight.sample(20, 30, seed=2)
    seen = []
    eight.grade("manhattan", states=boards, progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1][0] == seen[-1][1]
    with pytest.raises(ValueError, match="no boards to grade"):
        eight.grade("manhattan", states=boards[:0])


def test_grades_drawn_into_one_axes_are_told_apart(eight):
    pytest.importorskip("matplotlib")
    importlib.import_module("matplotlib").use("Agg")
    ax = eight.grade("manhattan").plot()
    eight.grade("misplaced").plot(ax=ax)
    means = [line for line in ax.get_lines() if line.get_label().startswith("mean h")]
    assert [m.get_label() for m in means] == ["mean h (manhattan)", "mean h (misplaced)"]
    assert means[0].get_color() != means[1].get_color()
    assert [line.get_label() for line in ax.get_lines()].count("h = h*") == 1
    assert "manhattan" in ax.get_title() and "misplaced" in ax.get_title()
    with pytest.raises(TypeError, match="must be a slidetable.Grade"):
        st.plots.grade(eight)
    with pytest.raises(TypeError, match="must be a slidetable.Table"):
        st.plots.distribution("table")
    with pytest.raises(TypeError, match="log must be True or False"):
        st.plots.distribution(eight, log="yes")


def test_a_solutions_tiles_turn_blue_as_they_reach_home(eight):
    svg = eight.solve([8, 6, 7, 2, 5, 4, 3, 0, 1]).to_svg()
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    recoloured = {g.get("data-tile") for g in root.iter(f"{ns}g") if g.find(f"{ns}rect/{ns}animate") is not None}
    # every tile ends at home: each that starts away turns blue on its way (5 starts home, leaves, comes back)
    assert recoloured == {"1", "2", "3", "4", "5", "6", "7", "8"}
    for anim in root.iter(f"{ns}animate"):
        assert anim.get("values").split(";")[-1] == "#a5d8ff" or anim.get("values").split(";")[-1].startswith("#")
        assert len(anim.get("values").split(";")) == len(anim.get("keyTimes").split(";"))
    with pytest.raises(ValueError, match="seconds_per_move"):
        eight.solve([8, 6, 7, 2, 5, 4, 3, 0, 1]).to_svg(seconds_per_move=0)
    with pytest.raises(ValueError, match="seconds_per_move"):
        eight.solve([8, 6, 7, 2, 5, 4, 3, 0, 1]).to_svg(seconds_per_move=float("nan"))


def test_odd_arguments_are_refused_when_given_not_when_drawn(eight):
    with pytest.raises(ValueError, match="8 to 1000 pixels"):
        st.picture([1, 2, 3, 4, 5, 6, 7, 8, 0], size=-5)
    with pytest.raises(TypeError, match="whole number of pixels"):
        st.picture([1, 2, 3, 4, 5, 6, 7, 8, 0], size=20.5)
    b = np.array([[8, 6, 7, 2, 5, 4, 3, 0, 1]])
    for w in [-1, float("nan"), 1001]:
        with pytest.raises(ValueError, match="out of range"):
            st.solve_batch(b, eight.puzzle, algorithm="weighted", weight=w)
    with pytest.raises(ValueError, match="three decimals"):
        st.solve_batch(b, eight.puzzle, algorithm="weighted", weight=1.2345)
    # a row of 9 tiles for a 2x3 puzzle is not "a 1x9 board" (no such puzzle)
    with pytest.raises(ValueError, match="9 tiles given, but a 2x3 board has 6 cells"):
        st.grade("manhattan", b, table=st.Table.build(st.Puzzle(2, 3)))


def test_a_share_that_is_not_nothing_never_reads_zero():
    t = st.Table.build(st.Puzzle(2, 4))
    goal = t.puzzle.goal

    def once_over(boards):
        h = t.puzzle.heuristic(boards, "manhattan").astype(float)
        h[(boards == goal).all(axis=1)] = 0
        far = t.distance(boards) == t.max_depth
        h[far] = t.max_depth + 1  # overestimates the farthest board only: 1 of 20,160
        return h

    g = t.grade(once_over)
    assert not g.admissible and "<0.1%" in repr(g) and "&lt;0.1%" in g._repr_html_()


def test_the_third_trials_findings(eight, monkeypatch):
    p = eight.puzzle
    # grades of two lambdas told apart by name=
    g1 = eight.grade(lambda b: p.heuristic(b, "manhattan"), name="manhattan (mine)")
    g2 = st.grade(lambda b: p.heuristic(b, "misplaced"), eight.sample(20, 10, seed=1), name="misplaced (mine)")
    assert (g1.name, g2.name) == ("manhattan (mine)", "misplaced (mine)") and "manhattan (mine)" in repr(g1)
    with pytest.raises(TypeError, match="name must be a non-empty string"):
        eight.grade("manhattan", name="")
    # max_overestimate (uint32) subtracts without wrapping in a frame
    pytest.importorskip("pandas")
    df = eight.grade("nilsson").to_pandas()
    assert df["max_overestimate"].dtype == np.int64 and (df["max_overestimate"] - 5).min() < 0
    # a batch's repr is a summary, whatever its size
    r = st.solve_batch(p.random_boards(300, seed=1), p, heuristic="manhattan")
    assert len(repr(r)) < 400 and "300 boards" in repr(r) and "300 solved" in repr(r)
    # text is pointed to parse
    with pytest.raises(TypeError, match="puzzle.parse"):
        eight.distance("8 6 7 / 2 5 4 / 3 _ 1")
    # a numpy float is a number of seconds; a huge cell is refused
    assert "dur=" in eight.solve([1, 2, 3, 4, 5, 6, 7, 0, 8]).to_svg(seconds_per_move=np.float32(0.25))
    assert "<title>1 move: R</title>" in eight.solve([1, 2, 3, 4, 5, 6, 7, 0, 8]).to_svg()
    with pytest.raises(ValueError, match="8 to 1000 pixels"):
        st.picture([1, 2, 3, 4, 5, 6, 7, 8, 0], size=10**6)


def test_ctrl_c_stops_random_boards_and_walks_without_a_panic():
    # in a fresh process, where no array has been made yet (the panic needed that)
    import subprocess
    import sys

    script = """
import os, signal, sys, threading, time
import slidetable as st
p = st.Puzzle(3, 4)
for call in (lambda: p.random_boards(20_000_000, seed=1), lambda: p.random_walk(4_000_000, 200, seed=1)):
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    started = time.perf_counter()
    try:
        call()
        print("finished", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print(f"stopped {time.perf_counter() - started:.2f}")
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "Panic" not in out.stderr, out.stderr[-2000:]
    took = [float(line.split()[1]) for line in out.stdout.split("\n") if line.startswith("stopped")]
    assert len(took) == 2 and all(t < 2.5 for t in took), out.stdout
