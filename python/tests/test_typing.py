"""The package's types, as a type checker sees them: mypy on the package itself, and on the
cases in tests/typing/ (``assert_type`` for what a call must return, ``# type: ignore[code]`` on
each line a checker must refuse: ``--warn-unused-ignores`` fails a line it accepts)."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("mypy")

HERE = os.path.dirname(os.path.abspath(__file__))


def mypy(*args: str, cwd: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", *args], capture_output=True, text=True, cwd=cwd)


def test_the_package_type_checks(tmp_path):
    # from a scratch directory, so the installed package is what is checked
    r = mypy("--config-file", os.path.join(HERE, "typing", "mypy.ini"), "-p", "slidetable", cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr


def test_what_a_checker_accepts_and_refuses(tmp_path):
    cases = sorted(os.path.join(HERE, "typing", f) for f in os.listdir(os.path.join(HERE, "typing")) if f.endswith(".py"))
    assert cases
    r = mypy("--config-file", os.path.join(HERE, "typing", "mypy.ini"), "--strict", "--warn-unused-ignores", *cases, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
