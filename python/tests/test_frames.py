"""Data frames of grades, batch results and data sets: typed columns for pandas and polars, and
the package working without either (or matplotlib, or tqdm) installed."""

import subprocess
import sys

import numpy as np
import pytest

import slidetable as st

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")


@pytest.fixture(scope="module")
def table():
    return st.Table.build(st.Puzzle(3, 3))


def test_a_grade_is_a_row_per_depth_with_the_arrays_dtypes(table):
    g = table.grade("manhattan")
    df = g.to_pandas()
    assert len(df) == 32 and df["depth"].tolist() == list(range(32))
    assert df["states"].sum() == 181_440 and df["states"].dtype == np.int64 and df["depth"].dtype == np.int16
    assert df["mae"].dtype == np.float64 and df["overestimates"].dtype == np.int64
    # counts subtract without wrapping round
    assert (df["overestimates"] - df["states"]).min() == -int(g.states.max())
    assert np.allclose(df["mean_h"].to_numpy(), g.mean_h)
    assert df.loc[0, "mean_h"] == 0.0
    p = g.to_polars()
    assert p.height == 32 and p["states"].dtype == pl.Int64 and p["policy_accuracy"].dtype == pl.Float64
    assert p.columns == list(df.columns)
    # a held-out set's empty depths are not rows of zeros
    held = st.grade("manhattan", table.sample(20, 50, seed=1))
    assert held.to_pandas()["depth"].tolist() == [20] and held.to_polars().height == 1


def test_a_batch_is_a_row_per_board_in_input_order():
    r = st.solve_batch([[1, 2, 3, 4, 5, 6, 0, 7, 8], [2, 1, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 0, 8]], puzzle=st.Puzzle(3, 3))
    df = r.to_pandas()
    assert df["length"].tolist() == [2, -1, 1] and df["length"].dtype == np.int32
    assert df["moves"].tolist()[0] == "RR" and df["moves"].isna().tolist() == [False, True, False]
    assert df["error"].isna().all() and df["optimal"].dtype == bool and df["generated"].dtype == np.int64
    # each board's proven bound: the length of an optimal search's solution, -1 for none
    assert df["lower_bound"].tolist() == [2, -1, 1] and df["lower_bound"].dtype == np.int32
    p = r.to_polars()
    assert p["moves"].to_list() == ["RR", None, "R"] and p["length"].dtype == pl.Int32


def test_a_dataset_is_a_row_per_board_its_cells_as_columns(table):
    d = st.balanced_sample(table, 3, seed=2)
    df = d.to_pandas()
    assert list(df.columns[:9]) == [f"c{i}" for i in range(9)] and df["c0"].dtype == d.boards.dtype
    assert (df[[f"c{i}" for i in range(9)]].to_numpy() == d.boards).all()
    assert df["distance"].tolist() == d.distances.tolist() and df["first_move"].dtype == np.int8
    assert df["optimal_R"].dtype == bool and (df[["optimal_U", "optimal_D", "optimal_L", "optimal_R"]].to_numpy() == d.optimal_moves).all()
    assert d.to_polars().height == len(d)
    w = st.labelled_walks(st.Puzzle(3, 3), 5, 10, seed=1)
    assert w.to_pandas()["walk_length"].tolist() == w.walk_lengths.tolist()


def test_without_pandas_the_call_says_how_to_install_it(table, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    monkeypatch.setitem(sys.modules, "polars", None)
    with pytest.raises(ImportError, match=r"to_pandas\(\) needs pandas: pip install pandas"):
        table.grade("misplaced").to_pandas()
    with pytest.raises(ImportError, match=r"Dataset.to_polars\(\) needs polars"):
        st.balanced_sample(table, 1).to_polars()


def test_the_package_works_without_the_optional_libraries():
    # a fresh interpreter where pandas, polars, matplotlib and tqdm cannot be imported
    code = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('pandas', 'polars', 'matplotlib', 'tqdm'):
            raise ImportError(f'{name} blocked')
sys.meta_path.insert(0, Block())
import slidetable as st
t = st.Table.build(st.Puzzle(3, 3))
sol = t.solve([8, 6, 7, 2, 5, 4, 3, 0, 1])
assert sol._repr_html_() and st.picture(sol.start)._repr_svg_() and t.grade('manhattan')._repr_html_()
assert not any(m.split('.')[0] in ('pandas', 'polars', 'matplotlib', 'tqdm') for m in sys.modules)
print('ok')
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
