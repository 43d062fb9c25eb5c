#!/usr/bin/env bash
# Russell & Norvig's table reproduced: `table experiment --preset rn --per-depth 1000`, timed over
# several runs (median wall time), and the ratio of ours to the book checked at every depth up to
# 22 for A* with h1 and h2 (the target: within 10%). Depth 24 for h2 is known to sit about a third
# above the printed 1,641, and is reported, not checked.
#
#   scripts/textbook.sh [RUNS]     default 5 runs
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --locked -q
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
table=$PWD/target/release/table
times=()
for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    (cd "$dir" && "$table" experiment --preset rn --per-depth 1000 --csv 2>/dev/null) >"$dir/rn.csv"
    times+=("$(echo "$(date +%s.%N) - $start" | bc)")
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "table experiment --preset rn --per-depth 1000: median ${median} s over $runs runs ($(nproc) cores)"
# columns: depth,problems, then per search nodes,bstar,expanded,book,ratio: IDS, A*(hamming), A*(manhattan)
grep -v '^#' "$dir/rn.csv" | awk -F, 'NR > 1 {
    printf "depth %2d  IDS %s  A*(h1) %.3f  A*(h2) %.3f\n", $1, ($7 == "" ? "-" : sprintf("%.3f", $7)), $12, $17
    if ($1 <= 22 && ($12 < 0.9 || $12 > 1.1 || $17 < 0.9 || $17 > 1.1)) { bad++ }
} END {
    if (bad) { print bad " depths outside 10% of the book"; exit 1 } else { print "every depth up to 22 within 10% of the book, for both heuristics" }
}'
