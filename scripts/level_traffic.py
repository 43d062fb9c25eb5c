#!/usr/bin/env python3
"""Per-level time and disk traffic of an out-of-core build, from the lines `table build` prints
when its standard error is not a terminal (one a level: "depth  61: 1,631,318,167 states at it,
... in 217.8 s ..., disk 33.3 GB read, 29.9 GB written"), as scripts/out_of_core.sh keeps them
in DIR/RUN.err.

    scripts/level_traffic.py target/ooc/2x7-4G.err [--blocks 14] [--every 10]

Prints, for each level (or every N-th with --every, and the busiest ones), the states found, the
seconds, the states a second, and what was read and written in that level; then the levels with
a merge (a block's frontier files written into its codes) against those without. A level's
targets are half the blocks, so a target block's share is the level's time over blocks / 2.
"""

import argparse
import re
import sys
from pathlib import Path

LINE = re.compile(
    r"depth\s+(\d+): ([\d,]+) states at it, .* in ([\d.]+) s .*disk ([\d.]+) ([KMGT]?B) read, ([\d.]+) ([KMGT]?B) written"
)
UNIT = {"B": 1e-9, "KB": 1e-6, "MB": 1e-3, "GB": 1.0, "TB": 1e3}


def levels(path: Path) -> list[tuple[int, int, float, float, float]]:
    """(depth, states, seconds, GB read, GB written) of each level, from the cumulative lines."""
    out = []
    last = (0.0, 0.0, 0.0)
    for line in path.read_text().splitlines():
        m = LINE.search(line)
        if not m:
            continue
        depth, states = int(m[1]), int(m[2].replace(",", ""))
        t, r, w = float(m[3]), float(m[4]) * UNIT[m[5]], float(m[6]) * UNIT[m[7]]
        out.append((depth, states, t - last[0], r - last[1], w - last[2]))
        last = (t, r, w)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("log", type=Path)
    p.add_argument("--blocks", type=int, default=14, help="blank blocks (cells) of the board")
    p.add_argument("--every", type=int, default=1, help="show every N-th level (and the busiest)")
    args = p.parse_args()
    rows = levels(args.log)
    if not rows:
        print(f"{args.log}: no level lines (was standard error a terminal?)", file=sys.stderr)
        return 1
    busiest = {d for d, *_ in sorted(rows, key=lambda r: -r[1])[:3]}
    print("| depth | states found | seconds | M states/s | GB read | GB written | s a target block |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for depth, states, secs, read, written in rows:
        if depth % args.every == 0 or depth in busiest:
            rate = states / secs / 1e6 if secs > 0 else float("nan")
            per_target = secs / (args.blocks / 2)
            print(f"| {depth} | {states:,} | {secs:.1f} | {rate:.1f} | {read:.1f} | {written:.1f} | {per_target:.2f} |")
    # a merge reads and writes a block's codes: a level that wrote more than its frontier files
    # could hold (a byte a state, the densest encoding's bound) had one; the first level's
    # writing is the codes' first fill ("unreached"), not a merge
    merged = [r for r in rows if r[0] > 1 and r[4] > r[1] / 1e9 * 1.2 + 0.2]
    plain = [r for r in rows if r not in merged and r[1] > 1e8]
    for name, group in (("levels with a merge", merged), ("levels of over 1e8 states without", plain)):
        if group:
            states = sum(r[1] for r in group)
            secs = sum(r[2] for r in group)
            print(
                f"{name}: {len(group)}, {states / 1e9:.1f} G states in {secs:.1f} s "
                f"({states / secs / 1e6:.1f} M states/s), {sum(r[3] for r in group):.1f} GB read, "
                f"{sum(r[4] for r in group):.1f} GB written"
            )
    total = rows[-1]
    print(f"in all: {len(rows)} levels, {sum(r[2] for r in rows):.1f} s, "
          f"{sum(r[3] for r in rows):.1f} GB read, {sum(r[4] for r in rows):.1f} GB written (last depth {total[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
