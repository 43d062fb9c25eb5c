"""docs/notebook.ipynb, the tutorial as a notebook, run in a real Jupyter kernel: every cell runs,
and the outputs hold the pictures (SVG), the summaries (HTML) and the plots (PNG) Jupyter users
expect. The committed copy is the one scripts/notebook.py writes, with its outputs (the guide
shows them)."""

import importlib.util
import json
import pathlib
import sys

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")
pytest.importorskip("pandas")

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "docs" / "notebook.ipynb"


def kinds(nb) -> set:
    return {k for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) for k in o.get("data", {})}


def test_the_notebook_runs_in_a_kernel_and_shows_pictures_tables_and_plots(tmp_path, monkeypatch):
    # a kernel of this interpreter (the one with slidetable installed), whatever `python` is on PATH
    spec = tmp_path / "kernels" / "slidetable-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "slidetable test", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    for c in nb.cells:
        if c.cell_type == "code":
            c.outputs = []
    nbclient.NotebookClient(nb, timeout=600, kernel_name="slidetable-test", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    streams = [o.text for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "stream"]
    assert not streams, streams  # no warnings printed into the notebook
    assert {"image/svg+xml", "text/html", "image/png"} <= kinds(nb)
    # the solution's cell shows its animation, the board's cell its SVG
    html = [o.data["text/html"] for c in nb.cells if c.cell_type == "code" and "table.solve" in c.source for o in c.outputs]
    assert html and "animateTransform" in html[0]


def test_the_committed_notebook_is_the_scripts_with_its_outputs():
    path = ROOT / "scripts" / "notebook.py"
    spec = importlib.util.spec_from_file_location("notebook_script", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    built = script.build()
    committed = nbformat.read(NOTEBOOK, as_version=4)
    assert [(c.cell_type, c.source) for c in committed.cells] == [(c.cell_type, c.source) for c in built.cells], (
        "docs/notebook.ipynb is not scripts/notebook.py's: run `python scripts/notebook.py --execute`")
    assert {"image/svg+xml", "text/html", "image/png"} <= kinds(committed), "run it with --execute: the guide shows its outputs"
