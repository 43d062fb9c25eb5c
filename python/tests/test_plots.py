"""Plots with matplotlib's Agg backend: each returns its Axes, draws into one given, and saves to
a file of some size; without matplotlib, a clear word."""

import sys

import numpy as np
import pytest

import slidetable as st

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")


@pytest.fixture(scope="module")
def table():
    return st.Table.build(st.Puzzle(3, 3))


def saved(ax, path) -> int:
    ax.figure.savefig(path, dpi=80)
    plt.close(ax.figure)
    return path.stat().st_size


def test_the_distribution_is_a_bar_a_depth_linear_or_log(table, tmp_path):
    ax = table.plot()
    heights = [int(round(p.get_height())) for p in ax.patches]
    assert heights == table.histogram().tolist() and ax.get_yscale() == "linear"
    assert "181,440 states" in ax.get_title()
    assert saved(ax, tmp_path / "d.png") > 5_000
    fig, axes = plt.subplots(1, 2)
    got = st.plots.distribution(table, log=True, ax=axes[1])
    assert got is axes[1] and got.get_yscale() == "log" and not axes[0].patches
    plt.close(fig)


def test_a_grade_plots_its_mean_estimate_per_depth_against_the_diagonal(table, tmp_path):
    g = table.grade("manhattan")
    ax = g.plot()
    line = [l for l in ax.get_lines() if l.get_label().startswith("mean h")][0]
    assert np.allclose(line.get_ydata(), g.mean_h) and list(line.get_xdata()) == list(range(32))
    assert ax.collections, "the band of the error"
    assert "admissible" in ax.get_title()
    assert saved(ax, tmp_path / "g.png") > 5_000


def test_nodes_by_depth_a_line_per_search(table, tmp_path):
    depths = np.repeat([6, 10, 14], 4)
    boards = np.concatenate([table.sample(d, 4, seed=3) for d in (6, 10, 14)])
    runs = {h: st.solve_batch(boards, table.puzzle, heuristic=h, algorithm="astar") for h in ("misplaced", "manhattan")}
    ax = st.plots.nodes(runs, depths)
    lines = {l.get_label(): l for l in ax.get_lines()}
    assert set(lines) == {"misplaced", "manhattan"} and list(lines["manhattan"].get_xdata()) == [6, 10, 14]
    # Manhattan generates fewer nodes than misplaced tiles at depth 14
    assert lines["manhattan"].get_ydata()[-1] < lines["misplaced"].get_ydata()[-1]
    assert saved(ax, tmp_path / "n.png") > 5_000
    with pytest.raises(ValueError, match="12 boards, but 11 depths"):
        st.plots.nodes({"x": runs["manhattan"]}, depths[:11])


def test_the_heat_map_counts_every_state(table, tmp_path):
    ax = st.plots.heatmap(table, "manhattan")
    counts = ax.images[0].get_array()
    assert int(counts.sum()) == 181_440 and counts.shape == (32, 32)
    assert "admissible" in ax.get_title()
    nil = st.plots.heatmap(table, "nilsson")
    assert "overestimates" in nil.get_title()
    learned = st.plots.heatmap(table, lambda b: table.puzzle.heuristic(b, "misplaced") * 1.5)
    assert learned.images[0].get_array().sum() == 181_440
    assert saved(ax, tmp_path / "h.png") > 5_000
    with pytest.raises(ValueError, match="past max_states=1,000.*draw a sample, states="):
        st.plots.heatmap(table, max_states=1000)


def test_a_fractional_heuristic_counts_its_overestimates_as_the_grade_does(table):
    def learned(b):
        return 1.2 * table.puzzle.heuristic(b, "manhattan")

    ax = st.plots.heatmap(table, learned, name="1.2 x Manhattan")
    over = table.grade(learned).total_overestimates
    assert f"{over:,} overestimates of all 181,440 states" in ax.get_title() and ax.get_title().startswith("1.2 x Manhattan")
    assert "nearest whole number" in ax.get_xlabel()
    sample = table.unrank(np.random.default_rng(0).integers(0, len(table), 5000))
    part = st.plots.heatmap(table, "manhattan", states=sample)
    assert part.images[0].get_array().sum() == 5000 and "5,000 boards" in part.get_title()


def test_without_matplotlib_a_plot_says_how_to_install_it(table, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"plots need matplotlib: pip install matplotlib"):
        table.plot()
