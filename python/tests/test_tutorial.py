"""Every code block of docs/python-tutorial.md runs as written, in order, in a scratch directory."""

from __future__ import annotations

import os
import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python-tutorial.md"


def test_the_tutorial_runs(tmp_path, monkeypatch, capsys):
    if not DOC.exists():
        pytest.fail(f"{DOC} is missing")
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(blocks) >= 5
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{DOC.name} block {i + 1}", "exec"), scope)
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "31"
    assert "all optimal: True" in out
    assert "True True" in out  # linear conflict: admissible and consistent
    assert os.listdir(tmp_path), "the 6-6-3 tables were saved where the tutorial said"
