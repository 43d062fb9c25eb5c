"""Grading a heuristic: every measure against a plain numpy formula over every 3x3 state, the
given-set grading against the whole table's, the text, and every bad input."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import slidetable as st

P = st.Puzzle(3, 3)


@pytest.fixture(scope="module")
def eight() -> st.Table:
    return st.Table.build(P)


@pytest.fixture(scope="module")
def every(eight):
    """Every state: its board, true distance, and its children's ranks (-1 off the board)."""
    boards = eight.unrank(np.arange(len(eight), dtype=np.uint64))
    d = eight.as_array().astype(np.int64)
    kids, valid = P.expand(boards)
    ranks = np.full((len(boards), 4), -1, dtype=np.int64)
    ranks[valid] = eight.rank(kids[valid])
    return boards, d, ranks, valid


def fractional(boards: np.ndarray) -> np.ndarray:
    """A learned-looking heuristic: Manhattan scaled with a board-dependent fraction added, so it
    overestimates some states, ties rarely and breaks consistency on some edges."""
    m = P.heuristic(boards, "manhattan").astype(np.float64)
    return 1.3 * m + 0.25 * (boards[:, 0] % 3) - 0.4


def reference(h: np.ndarray, d: np.ndarray, ranks: np.ndarray, valid: np.ndarray) -> dict:
    """Every measure by its plain formula (module doc of src/lab/grade.rs) on all states."""
    err = d - h
    hk = np.where(valid, h[np.maximum(ranks, 0)], np.inf)
    dk = np.where(valid, d[np.maximum(ranks, 0)], -1)
    # an edge once, at its shallower end
    edge = valid & (dk == d[:, None] + 1)
    diff = np.abs(h[:, None] - hk)
    tied = hk == hk.min(axis=1, keepdims=True)
    credit = (tied & (dk == d[:, None] - 1)).sum(axis=1) / tied.sum(axis=1)
    moving = d > 0
    return {
        "mae": np.abs(err).mean(),
        "rmse": np.sqrt((err**2).mean()),
        "signed": err.mean(),
        "under": (h < d).mean(),
        "over": (h > d).mean(),
        "exact": (h == d).mean(),
        "overestimates": int((h > d).sum()),
        "worst": max(0.0, float((h - d).max())),
        "edges": int(edge.sum()),
        "inconsistent": int((edge & (diff > 1)).sum()),
        "max_diff": float(diff[edge].max()),
        "policy": credit[moving].mean(),
        "policy_states": int(moving.sum()),
        "credit": credit,
        "edge": edge,
        "diff": diff,
    }


def check(g: st.Grade, r: dict) -> None:
    assert g.total_states == 181_440
    assert g.total_mae == pytest.approx(r["mae"], rel=1e-12)
    assert g.total_rmse == pytest.approx(r["rmse"], rel=1e-12)
    assert g.total_mean_error == pytest.approx(r["signed"], rel=1e-12, abs=1e-12)
    assert (g.total_under_share, g.total_over_share, g.total_exact_share) == pytest.approx(
        (r["under"], r["over"], r["exact"]), abs=1e-15
    )
    assert g.total_overestimates == r["overestimates"]
    assert g.total_worst_overestimate == pytest.approx(r["worst"])
    assert g.total_edges == r["edges"]
    assert g.total_inconsistent_edges == r["inconsistent"]
    assert g.total_max_edge_difference == pytest.approx(r["max_diff"])
    assert g.total_policy_accuracy == pytest.approx(r["policy"], rel=1e-12)
    assert g.total_policy_states == r["policy_states"]


@pytest.mark.parametrize("name", ["misplaced", "manhattan", "nilsson", "fractional"])
def test_every_measure_matches_its_formula_on_every_3x3_state(eight, every, name):
    boards, d, ranks, valid = every
    if name == "fractional":
        h, g = fractional(boards), eight.grade(fractional)
    else:
        h, g = P.heuristic(boards, name).astype(np.float64), eight.grade(name)
    r = reference(h, d, ranks, valid)
    check(g, r)
    # per depth, against the same formulas grouped by depth
    for k in range(len(g.states)):
        at = d == k
        err = d[at] - h[at]
        assert g.states[k] == at.sum()
        assert g.mae[k] == pytest.approx(np.abs(err).mean(), rel=1e-12)
        assert g.rmse[k] == pytest.approx(np.sqrt((err**2).mean()), rel=1e-12)
        assert g.mean_error[k] == pytest.approx(err.mean(), rel=1e-12, abs=1e-12)
        assert g.mean_h[k] == pytest.approx(h[at].mean(), rel=1e-12, abs=1e-12)
        assert g.under_share[k] == pytest.approx((err > 0).mean())
        assert g.over_share[k] == pytest.approx((err < 0).mean())
        assert g.inconsistent_edges[k] == (r["edge"][at] & (r["diff"][at] > 1)).sum()
        if k == 0:
            assert np.isnan(g.policy_accuracy[k])
        else:
            assert g.policy_accuracy[k] == pytest.approx(r["credit"][at].mean(), rel=1e-12)


def test_signs_and_verdicts(eight):
    m, n = eight.grade("manhattan"), eight.grade("nilsson")
    # h* - h: positive for an underestimate (admissible), negative where h overestimates on average
    assert m.total_mean_error > 0 and m.total_mean_error == pytest.approx(m.total_mae)
    assert m.admissible and m.consistent and m.total_max_edge_difference == 1
    assert n.total_mean_error < 0 and not n.admissible and not n.consistent
    assert n.total_worst_overestimate > 0 and n.total_over_share > 0.5
    # errors cancel in the signed mean, not in the absolute one
    mixed = eight.grade(fractional)
    assert abs(mixed.total_mean_error) < mixed.total_mae
    # a constant heuristic: every child ties, so the policy scores a random move's accuracy
    const = eight.grade(lambda b: np.ones(len(b)))
    assert 0.4 < const.total_policy_accuracy < 0.7
    # the perfect heuristic is exact and its policy always optimal
    perfect = eight.grade(lambda b: eight.distance(b))
    assert perfect.total_mae == 0 and perfect.total_exact_share == 1 and perfect.total_policy_accuracy == 1


def test_the_depths_add_up_to_the_totals(eight):
    for h in ("manhattan", "nilsson", fractional):
        g = eight.grade(h)
        w = g.states.astype(np.float64)
        assert g.states.sum() == g.total_states == len(eight)
        assert (w * g.mae).sum() / w.sum() == pytest.approx(g.total_mae)
        assert np.sqrt((w * g.rmse**2).sum() / w.sum()) == pytest.approx(g.total_rmse)
        assert (w * g.mean_error).sum() / w.sum() == pytest.approx(g.total_mean_error)
        for share in ("under_share", "over_share", "exact_share"):
            assert (w * getattr(g, share)).sum() / w.sum() == pytest.approx(getattr(g, "total_" + share))
        np.testing.assert_allclose(g.under_share + g.over_share + g.exact_share, 1)
        assert g.overestimates.sum() == g.total_overestimates
        assert g.edges.sum() == g.total_edges and g.inconsistent_edges.sum() == g.total_inconsistent_edges
        assert g.worst_overestimate.max() == g.total_worst_overestimate
        moving = w[1:]
        assert (moving * g.policy_accuracy[1:]).sum() / moving.sum() == pytest.approx(g.total_policy_accuracy)


def test_summary_and_repr(eight):
    g = eight.grade("nilsson")
    r = repr(g)
    assert "\n" not in r and len(r) < 220, r
    for part in ("'nilsson'", "181,440", f"MAE {g.total_mae:.3f}", f"RMSE {g.total_rmse:.3f}",
                 f"h*-h {g.total_mean_error:+.3f}", "not admissible", "policy"):
        assert part in r, (part, r)
    s = g.summary()
    lines = s.splitlines()
    # nine headline lines, a blank line, the header, one row per depth, the total
    assert len(lines) == 9 + 1 + 1 + len(g.states) + 1
    assert "positive where h underestimates" in lines[0]
    assert f"{g.total_mae:.3f}" in lines[1] and f"{g.total_rmse:.3f}" in lines[2]
    assert f"{g.total_mean_error:+.3f}" in lines[3]
    assert f"{g.total_overestimates:,} boards with h > h*" in s
    assert f"{g.total_inconsistent_edges:,} of {g.total_edges:,} edges" in s
    assert "j/k" in s
    assert lines[-1].split()[:2] == ["all", "181,440"]
    assert lines[11].split()[:2] == ["0", "1"] and lines[-2].split()[:2] == ["31", "2"]  # the goal; the two hardest
    assert max(len(line) for line in lines) < 120
    # the old attributes still work, with the same meaning
    assert g.total_overestimates == g.overestimates.sum() and g.at_goal == 0
    np.testing.assert_allclose(g.mean_error, g.mean_exact - g.mean_h, atol=1e-12)


def test_a_given_set_is_graded_as_the_table_restricted_to_it(eight, every):
    boards, d, ranks, valid = every
    for h in ("nilsson", fractional):
        whole = eight.grade(h)
        # every state as a given set: the same measures, each edge seen from both ends
        all_given = st.grade(h, boards, table=eight)
        assert all_given.scope == "boards" and whole.scope == "table"
        for k in ("total_states", "total_mae", "total_rmse", "total_mean_error", "total_under_share",
                  "total_over_share", "total_exact_share", "total_overestimates", "total_worst_overestimate",
                  "total_policy_accuracy", "total_policy_states", "total_max_edge_difference", "at_goal"):
            assert getattr(all_given, k) == pytest.approx(getattr(whole, k), rel=1e-12), k
        assert all_given.total_edges == 2 * whole.total_edges
        assert all_given.total_inconsistent_edges == 2 * whole.total_inconsistent_edges
        for k in ("states", "mae", "rmse", "mean_error", "under_share", "over_share", "policy_accuracy"):
            np.testing.assert_allclose(getattr(all_given, k), getattr(whole, k), rtol=1e-12, err_msg=k)
        # the states at one depth: that depth's row of the whole table
        at20 = boards[d == 20]
        one = eight.grade(h, states=at20)
        assert one.states.sum() == one.states[20] == len(at20) == whole.states[20]
        for k in ("mae", "rmse", "mean_error", "under_share", "over_share", "exact_share", "policy_accuracy"):
            assert getattr(one, k)[20] == pytest.approx(getattr(whole, k)[20], rel=1e-12), k
    # a random held-out set against the numpy formulas on its rows
    rng = np.random.default_rng(5)
    pick = rng.choice(len(boards), 3000, replace=False)
    h = fractional(boards)
    g = st.grade(fractional, boards[pick])  # a table built in memory: 9 cells
    err = (d - h)[pick]
    assert g.total_mae == pytest.approx(np.abs(err).mean()) and g.total_mean_error == pytest.approx(err.mean())
    hk = np.where(valid, h[np.maximum(ranks, 0)], np.inf)[pick]
    assert g.total_edges == valid[pick].sum()
    assert g.total_inconsistent_edges == (valid[pick] & (np.abs(h[pick, None] - hk) > 1)).sum()
    assert g.total_max_edge_difference == pytest.approx(np.abs(h[pick, None] - hk)[valid[pick]].max())
    # the same distances from a solver's optimal searches (as grids: (N, 3, 3))
    few = boards[pick[:40]]
    by_solver = st.grade("manhattan", few.reshape(-1, 3, 3), solver=st.Solver(P, heuristic="linear-conflict"))
    by_table = eight.grade("manhattan", states=few)
    for k in ("total_mae", "total_rmse", "total_policy_accuracy", "total_edges", "total_inconsistent_edges"):
        assert getattr(by_solver, k) == pytest.approx(getattr(by_table, k)), k


def test_bad_input(eight):
    boards = eight.sample(10, 5, seed=1)
    with pytest.raises(ValueError, match="8 tiles given"):
        st.grade("manhattan", boards[:, :8], table=eight)
    with pytest.raises(ValueError, match="table is for"):
        st.grade("manhattan", boards, puzzle=st.Puzzle(2, 3), table=eight)
    with pytest.raises(ValueError, match="but this puzzle is 3x3"):
        eight.grade("manhattan", states=np.zeros((2, 2, 3), dtype=np.uint8))
    def nan_at_board_2(b):
        return np.where((b == boards[2]).all(axis=1), np.nan, 1.0)

    with pytest.raises(ValueError, match=r"board 2: the estimate is NaN: h must return finite numbers"):
        st.grade(nan_at_board_2, boards, table=eight)
    with pytest.raises(ValueError, match=r"board 0: the estimate of its child by move [UDLR] is inf"):
        st.grade(lambda b: np.where((b == boards[2]).all(axis=1), 1.0, np.inf), boards[2:3], table=eight)
    with pytest.raises(ValueError, match="is NaN: estimates must be finite"):
        eight.grade(lambda b: np.full(len(b), np.nan))
    with pytest.raises(ValueError, match="one number per board"):
        st.grade(lambda b: np.zeros(len(b) + 1), boards)
    with pytest.raises(TypeError, match="must return (real )?numbers"):
        st.grade(lambda b: ["x"] * len(b), boards)
    with pytest.raises(TypeError, match="name or a function"):
        st.grade(3, boards)
    with pytest.raises(ValueError, match="unknown heuristic"):
        st.grade("euclid", boards)
    unsolvable = np.array([[2, 1, 3, 4, 5, 6, 7, 8, 0]], dtype=np.uint8)
    with pytest.raises(ValueError, match="board 0: .*cannot reach the goal"):
        st.grade("manhattan", unsolvable, table=eight)
    with pytest.raises(ValueError, match="board 0: bad board"):
        st.grade("manhattan", np.array([[1, 1, 2, 3, 4, 5, 6, 7, 0]]), table=eight)
    with pytest.raises(ValueError, match="pass table= .* or solver="):
        st.grade("manhattan", st.Puzzle(4, 4).goal[None, :])
    with pytest.raises(ValueError, match="not both"):
        st.grade("manhattan", boards, table=eight, solver=st.Solver(P))
    with pytest.raises(TypeError, match="table must be"):
        st.grade("manhattan", boards, table="eight.table")


def test_docstring_examples_run():
    for obj in (st.Grade, st.Grade.summary, st.Table.grade, st.grade):
        finder = doctest.DocTestFinder(recurse=False)
        runner = doctest.DocTestRunner()
        for test in finder.find(obj, globs={}):
            runner.run(test)
        assert runner.failures == 0, obj
