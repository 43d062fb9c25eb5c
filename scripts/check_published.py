#!/usr/bin/env python3
"""Checks a finished table's distribution against a published one, depth by depth.

    scripts/check_published.py TABLE PUBLISHED [--table-bin PATH]

TABLE is a table file (`table build`, out of core or on Dask); PUBLISHED a distribution file of
data/published/ ("depth states" lines, # comments): 2x7-tarakanov.txt, 3x5-tarakanov.txt (the 3x5
and 5x3), 4x4-published.txt. The table's histogram is read with `table stats --json` (its
header's, which `table verify` proves). Prints each depth that differs, then one line: the depths
and states compared and whether they all agree; exits 1 when they do not.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path


def published(path: Path) -> list[int]:
    counts: dict[int, int] = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            depth, states = line.split()
            counts[int(depth)] = int(states.replace(",", ""))
    return [counts[d] for d in range(max(counts) + 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", type=Path)
    parser.add_argument("published", type=Path)
    root = Path(__file__).resolve().parent.parent
    parser.add_argument("--table-bin", default=str(root / "target" / "release" / "table"))
    args = parser.parse_args()
    out = subprocess.run([args.table_bin, "stats", "--table", str(args.table), "--json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(out.stderr.strip(), file=sys.stderr)
        return 2
    ours = json.loads(out.stdout)["histogram"]
    theirs = published(args.published)
    bad = 0
    for d in range(max(len(ours), len(theirs))):
        a = ours[d] if d < len(ours) else 0
        b = theirs[d] if d < len(theirs) else 0
        if a != b:
            bad += 1
            print(f"depth {d}: table {a:,}, published {b:,}")
    verdict = "all agree" if bad == 0 else f"{bad} differ"
    print(f"{args.table} against {args.published.name}: {len(theirs)} depths, {sum(theirs):,} states: {verdict}")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
