"""The README's Python examples run as shown: every ```python block of the repository's README.md
(written with ``>>>`` prompts) is run by doctest, in order, in one namespace, in a scratch
directory (an example may build pattern tables in ``dir="."``). The shell commands of the README
are run by the Rust suite (``tests/help_examples.rs``)."""

import doctest
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_python_runs(tmp_path, monkeypatch):
    if not README.exists():
        pytest.skip(f"no README.md at {README}: the tests run outside a clone of the repository")
    blocks = re.findall(r"^```python\n(.*?)^```", README.read_text(), flags=re.S | re.M)
    assert blocks, "the README has no ```python block"
    assert all(">>> " in b for b in blocks), "every README Python block is written with >>> prompts"
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"README.md python block {i + 1}", str(README), 0)
        runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted >= 5
    assert failed == 0, f"{failed} of the README's {attempted} Python examples failed (doctest's report above)"
