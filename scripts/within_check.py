#!/usr/bin/env python3
"""Checks the proofs of `table solve --batch --within W --json` against known optima.

Usage: table solve --batch --instances korf100 -H pdb --within 1.1 --json | \
           scripts/within_check.py data/korf100.tsv 1.1

The TSV gives each instance's optimum in its second column (its lines in the batch's order,
`#` lines skipped). For every board: lower bound <= optimum <= length <= W x optimum, and the
length <= W x lower bound (the proof). Prints a summary and exits 1 on any violation.
"""
import json
import sys


def main() -> int:
    tsv, w = sys.argv[1], float(sys.argv[2])
    optima = [int(l.split("\t")[1]) for l in open(tsv) if l.strip() and not l.startswith("#")]
    lines = [json.loads(l) for l in sys.stdin if l.strip()]
    results = [l for l in lines if "line" in l]
    bad, ratios, proven, seconds, generated = 0, [], [], [], []
    for r, opt in zip(results, optima):
        n, lb = r.get("moves"), r.get("lower_bound")
        ok = n is not None and lb is not None and lb <= opt <= n <= w * opt + 1e-9 and n <= w * lb + 1e-9
        if not ok:
            bad += 1
            print(f"line {r['line']}: moves {n}, lower bound {lb}, optimum {opt}: the proof fails", file=sys.stderr)
            continue
        ratios.append(n / opt)
        proven.append(n / lb if lb else 1.0)
        seconds.append(r["seconds"])
        generated.append(r["generated"])
    k = len(ratios)
    if len(results) != len(optima):
        print(f"{len(results)} results for {len(optima)} instances", file=sys.stderr)
        bad += 1
    if k:
        print(
            f"{k} of {len(optima)} boards: lower bound <= optimum <= length <= {w} x optimum on every one; "
            f"length/optimum mean {sum(ratios)/k:.4f} max {max(ratios):.4f}; proven ratio mean {sum(proven)/k:.4f} "
            f"max {max(proven):.4f}; optimal {sum(1 for x in ratios if x == 1.0)}; "
            f"generated mean {sum(generated)/k:,.0f}; search seconds mean {sum(seconds)/k:.4f}"
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
