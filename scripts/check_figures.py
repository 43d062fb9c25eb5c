#!/usr/bin/env python3
"""One figure, one value: each measured figure that the README, the guide or `--help` repeat is
read from the page where it was measured (Results, Benchmarks, the scale and pattern pages, with
the command and machine beside it) and must appear there, written the same way, wherever it is
repeated. A figure measured again is then changed in one place, and this check (run by .ci/run)
names every page still quoting the old value.

    python3 scripts/check_figures.py        # exit 1, a line a stale or missing figure

Whitespace (line breaks included) counts as one space, so a figure may wrap across lines.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

# (what, source page, regex with the figure's groups, [(page, template with {0}, {1}, ...)])
FIGURES = [
    (
        "the 2x7's in-memory build: time and peak memory",
        "docs/scale.md",
        r"\| in memory \(`table build --board 2x7`\) \| \w+ \| ([\d.]+ s) \([\d.]+ s of search\) \| ([\d.]+ GiB) \|",
        [
            ("README.md", "[{0}, {1} at the peak](docs/scale.md)"),
            ("docs/tables.md", "needs {1} at the peak for the 2x7, and {0} on two cores"),
            ("docs/tables.md", "# two bits by default; {1} of memory at the peak"),
            ("cli/src/cli/build.rs", "one-bit-a-state frontier ({1} at the peak)"),
            ("docs/cli.md", "one-bit-a-state frontier ({1} at the peak)"),
        ],
    ),
    (
        "the 2x7 out of core within 4 GiB",
        "docs/scale.md",
        r"\| out of core, `--max-memory 4G` \| \w+ \| ([\d.]+ s) = \*\*",
        [("README.md", "the 2x7 within 4 GiB in [{0}](docs/scale.md)")],
    ),
    (
        "the 7-8 pattern tables' size",
        "docs/patterns.md",
        r"\| 4x4 \| `7-8` \| [^|]+ \| ([\d.]+ MiB) \|",
        [
            ("docs/patterns.md", "--pattern 7-8 # long: {0}"),
            ("docs/python-tutorial.md", "`7-8` (about 100 s, {0} on disk)"),
            ("cli/src/cli/build.rs", "58 M + 519 M entries, {0}"),
            ("docs/cli.md", "58 M + 519 M entries, {0}"),
        ],
    ),
    (
        "the 8-puzzle table's build",
        "docs/results.md",
        r"the 8-puzzle table builds in ([\d.]+ ms), whole process",
        [("README.md", "the 8-puzzle's in [{0}](docs/benchmarks.md#results)")],
    ),
    (
        "the 12-cell builds",
        "docs/results.md",
        r"\| ([\d.]+ to [\d.]+ s) a build, 4 to 5 times faster \|",
        [("README.md", "a 12-cell one in [{0}](docs/results.md#speed)")],
    ),
    (
        "boards a second in a batch",
        "docs/results.md",
        r"`query --batch` answers (\d+ to \d+ million boards a second) on one core",
        [("README.md", "[{0}](docs/results.md#speed)")],
    ),
    (
        "the hardest 8-puzzle by A* with linear conflict",
        "docs/results.md",
        r"with Manhattan A\\\*, ([\d.]+ ms) with linear conflict",
        [("README.md", "the hardest 8-puzzle in [{0}](docs/results.md#speed) (A\\*, linear conflict)")],
    ),
    (
        "Korf's 100 with the best 15-puzzle tables",
        "docs/results.md",
        r"in ([\d.]+)-([\d.]+) s of wall time",
        [("README.md", "Korf's 100 in [{0} to {1} s](docs/results.md#korfs-100-15-puzzles) of search")],
    ),
    (
        "Korf & Felner's 50 24-puzzles",
        "docs/results.md",
        r"of search, ([\d.]+ h), counting instance 45",
        [("README.md", "all optimal, in [{0}](docs/results.md#korf-and-felners-50-24-puzzles)")],
    ),
    (
        "a million 3x3 distances from Python",
        "docs/python.md",
        r"1,000,000 random 3x3 boards from a numpy array in ([\d.]+ ms)",
        [("README.md", "1,000,000 3x3 distances in [{0}](docs/python.md)")],
    ),
    (
        "a class of 40 on the teaching page",
        "docs/benchmarks.md",
        r"\*\*p99 ([\d.]+ ms)\*\*",
        [("README.md", "lookups at [p99 {0}](docs/benchmarks.md#table-serve-for-a-class)")],
    ),
]


def text(page: str) -> str:
    return re.sub(r"\s+", " ", (ROOT / page).read_text())


def main() -> int:
    failures = []
    for what, source, pattern, repeats in FIGURES:
        found = re.search(pattern, text(source))
        if not found:
            failures.append(f"{source}: {what}: not found where it is measured (pattern {pattern!r})")
            continue
        for page, template in repeats:
            want = template.format(*found.groups())
            if want not in text(page):
                failures.append(f"{page}: {what}: should read `{want}`, as {source} has it")
    for line in failures:
        print(line)
    if not failures:
        print(f"{sum(len(r) for *_, r in FIGURES)} repeated figures agree with the {len(FIGURES)} pages they were measured on")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
