"""Progress on the long calls: a tqdm bar by default (shown after a second), none with
progress=False, the caller's function instead; Ctrl-C still stops the call with a bar on."""

import os
import signal
import threading
import time

import pytest

import slidetable as st

pytest.importorskip("tqdm")


def test_a_function_gets_every_depth_and_replaces_the_bar(capsys):
    seen = []
    st.Table.build(st.Puzzle(3, 3), progress=seen.append)
    assert [p["depth"] for p in seen] == list(range(32)) and seen[-1]["reached"] == seen[-1]["total"] == 181_440
    assert capsys.readouterr().err == ""


def test_the_bar_shows_states_and_depth_and_short_calls_print_nothing(capsys):
    st.Table.build(st.Puzzle(3, 3), progress=True)
    err = capsys.readouterr().err
    assert "3x3 table" in err and "181k/181k" in err and "depth=31" in err and "states/s" in err
    # the default shows a bar only past a second: the 8-puzzle's build (milliseconds) says nothing
    st.Table.build(st.Puzzle(3, 3))
    st.Table.build(st.Puzzle(3, 3), progress=False)
    assert capsys.readouterr().err == ""


def test_what_progress_cannot_be_is_refused():
    for bad in ["yes", 3, [1]]:
        with pytest.raises(TypeError, match="progress must be True, False, None"):
            st.Table.build(st.Puzzle(2, 2), progress=bad)
        with pytest.raises(TypeError, match="progress must be"):
            st.labelled_walks(st.Puzzle(2, 3), 4, 5, progress=bad)


def test_pattern_tables_get_a_bar_each(tmp_path, capsys):
    seen = []
    st.PatternDB.build(st.Puzzle(4, 4, "blank-first"), "1,2,3/4,5,6", dir=tmp_path, progress=seen.append)
    assert sorted({p["table"] for p in seen}) == [1, 2]
    st.PatternDB.build(st.Puzzle(4, 4, "blank-first"), "1,2,3/4,5,6", dir=tmp_path, progress=True)
    err = capsys.readouterr().err
    assert "table 1 of 2" in err and "table 2 of 2" in err


def test_labelled_walks_count_boards(capsys):
    seen = []
    st.labelled_walks(st.Puzzle(3, 3), 10, 8, chunk=4, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(4, 10), (8, 10), (10, 10)]
    st.labelled_walks(st.Puzzle(3, 3), 10, 8, chunk=4, progress=True)
    assert "boards labelled" in capsys.readouterr().err


def test_ctrl_c_stops_a_build_with_its_bar_on(capsys):
    # the 2x6 (239,500,800 states): seconds of work; SIGINT a tenth of a second in
    timer = threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGINT))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer.start()
        started = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            st.Table.build(st.Puzzle(2, 6), progress=True)
        assert time.perf_counter() - started < 5
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # the bar was closed: the next build's bar starts at zero, on its own line
    st.Table.build(st.Puzzle(2, 3), progress=True)
    assert "2x3 table" in capsys.readouterr().err


def test_grading_a_function_over_every_state_counts_states(capsys):
    t = st.Table.build(st.Puzzle(3, 3))
    seen = []
    t.grade(lambda b: t.puzzle.heuristic(b, "manhattan"), batch_size=50_000, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(50_000, 181_440), (100_000, 181_440), (150_000, 181_440), (181_440, 181_440)]
    t.grade(lambda b: t.puzzle.heuristic(b, "manhattan"), progress=True)
    assert "grading <lambda>" in capsys.readouterr().err
    with pytest.raises(TypeError, match="progress must be"):
        t.grade("manhattan", progress="yes")


def test_a_batch_counts_boards_as_they_finish(capsys):
    p = st.Puzzle(3, 3)
    boards = st.Table.build(p).sample(22, 40, seed=4)
    seen = []
    r = st.solve_batch(boards, p, heuristic="misplaced", algorithm="astar", progress=lambda done, total: seen.append((done, total)))
    assert (r.lengths == 22).all()
    assert seen and seen[-1] == (40, 40) and all(t == 40 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    st.solve_batch(boards[:4], p, progress=True)
    assert "boards solved" in capsys.readouterr().err
    # the batch searches (a function as the heuristic) count too
    seen.clear()
    st.Solver(p, heuristic=lambda b: p.heuristic(b, "manhattan")).solve_batch(boards[:5], progress=lambda d, t: seen.append(d))
    assert seen[-1] == 5


def test_grading_by_name_reports_and_stops_on_ctrl_c():
    t = st.Table.build(st.Puzzle(3, 3))
    seen = []
    t.grade("manhattan", progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (2 * 181_440, 2 * 181_440)
    # the 2x5's 1,814,400 states twice over: stopped a moment in
    big = st.Table.build(st.Puzzle(2, 5))
    timer = threading.Timer(0.05, lambda: os.kill(os.getpid(), signal.SIGINT))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer.start()
        started = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            for _ in range(50):  # whichever grade the signal falls in
                big.grade("linear-conflict")
        assert time.perf_counter() - started < 5
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
