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
    assert seen[-1] == (181_440, 181_440)
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


def _stopped_by_ctrl_c(call, after=0.2):
    """Runs ``call`` with SIGINT sent ``after`` seconds in: it must raise KeyboardInterrupt
    within five seconds of the start."""
    timer = threading.Timer(after, lambda: os.kill(os.getpid(), signal.SIGINT))
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer.start()
        started = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            call()
        took = time.perf_counter() - started
        assert after <= took < 5, f"stopped {took:.2f} s in"
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="module")
def two_by_six():
    # 239,500,800 states: a balanced sample scans them all (a few tenths of a second)
    return st.Table.build(st.Puzzle(2, 6), progress=False)


def test_a_balanced_sample_counts_the_states_scanned_and_stops_on_ctrl_c(two_by_six, capsys):
    seen = []
    d = st.balanced_sample(two_by_six, 3, depths=[1, 2, 40], progress=lambda done, total: seen.append((done, total)))
    assert d.distances.tolist() == [1, 1, 2, 2, 2, 40, 40, 40]
    # the states scanned, then the 8 boards labelled
    assert len(seen) >= 2 and seen[-1] == (239_500_808, 239_500_808)
    assert [a for a, _ in seen] == sorted(a for a, _ in seen)
    st.balanced_sample(two_by_six, 3, depths=[1, 2], progress=True)
    assert "2x6 balanced sample" in capsys.readouterr().err
    with pytest.raises(TypeError, match="progress must be"):
        st.balanced_sample(two_by_six, 3, progress="yes")

    def sample_again_and_again():
        for seed in range(100):  # whichever scan the signal falls in
            st.balanced_sample(two_by_six, 3, depths=[1, 2], seed=seed, progress=True)

    _stopped_by_ctrl_c(sample_again_and_again, after=0.1)


def test_the_pruning_machine_counts_cells_and_stops_on_ctrl_c(tmp_path, capsys):
    seen = []
    st.PatternDB.build_pruner(st.Puzzle(3, 3), 10, dir=tmp_path, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (9, 9) and all(t == 9 for _, t in seen)
    st.PatternDB.build_pruner(st.Puzzle(3, 3), 8, dir=tmp_path, progress=True)
    assert "3x3 move-pruning machine, 8 moves" in capsys.readouterr().err
    # the 5x5's machine for 14 moves: about 13 s on two cores; stopped, it writes nothing
    bigger = tmp_path / "big"
    bigger.mkdir()
    _stopped_by_ctrl_c(lambda: st.PatternDB.build_pruner(st.Puzzle(5, 5), 14, dir=bigger, progress=True))
    assert list(bigger.iterdir()) == []


def test_grading_boards_counts_estimates_and_searches(capsys):
    p = st.Puzzle(3, 3)
    held_out = st.Table.build(p).sample(20, 100, seed=7)
    seen = []
    st.grade(lambda b: p.heuristic(b, "manhattan"), held_out, batch_size=64, progress=lambda d, t: seen.append((d, t)))
    kids = int(p.expand(held_out)[1].sum())
    assert seen[0] == (64, 200 + kids) and seen[-1] == (200 + kids, 200 + kids)
    seen.clear()
    st.grade("manhattan", held_out[:10], solver=st.Solver(p), progress=lambda d, t: seen.append((d, t)))
    total = seen[-1][1]
    assert seen[-1] == (total, total) and total > 10 + int(p.expand(held_out[:10])[1].sum())
    st.grade("manhattan", held_out, progress=True)
    assert "3x3 grading manhattan" in capsys.readouterr().err
    with pytest.raises(ValueError, match="no boards to grade"):
        st.grade("manhattan", held_out[:0])


def test_ctrl_c_stops_a_batch_labelled_walks_and_pattern_tables_with_their_bars_on(tmp_path):
    p = st.Puzzle(4, 4)
    hard = p.random_walk(20, 301, seed=5)
    _stopped_by_ctrl_c(lambda: st.solve_batch(hard, p, heuristic="manhattan", algorithm="idastar", progress=True))
    solver = st.Solver(p, heuristic="manhattan")
    _stopped_by_ctrl_c(lambda: st.labelled_walks(p, 20, 301, solver=solver, dir=tmp_path, progress=True))
    # the 7-8 tables of the 15-puzzle: a minute's build, stopped at once; no table is left
    tables = tmp_path / "tables"
    tables.mkdir()
    _stopped_by_ctrl_c(lambda: st.PatternDB.build(st.Puzzle(4, 4, "blank-first"), "7-8", dir=tables, progress=True))
    assert list(tables.iterdir()) == []
