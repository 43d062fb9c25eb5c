#!/usr/bin/env bash
# Times the 8-puzzle build and a single query, whole process, as a user runs them.
# Usage: scripts/bench.sh [RUNS]   (default 21 runs; prints the median, min and max in ms)
set -euo pipefail
runs=${1:-21}
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/table"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# time_ms CMD...: wall time of one run in ms, measured in-shell (no fork for the clock).
time_ms() {
  local t0=$EPOCHREALTIME
  "$@" >/dev/null 2>&1
  local t1=$EPOCHREALTIME
  echo "($t1 - $t0) * 1000" | bc -l 2>/dev/null || python3 -c "print(($t1 - $t0) * 1000)"
}

# stats LABEL CMD...: runs CMD $runs times and prints median / min / max.
stats() {
  local label=$1; shift
  "$@" >/dev/null 2>&1  # warm-up: page cache, binary
  local samples=()
  for _ in $(seq "$runs"); do samples+=("$(time_ms "$@")"); done
  printf '%s\n' "${samples[@]}" | sort -g | awk -v label="$label" -v n="$runs" '
    { v[NR] = $1 }
    END { printf "%-40s median %7.2f ms   min %7.2f   max %7.2f   (%d runs)\n", label, v[int((n + 1) / 2)], v[1], v[n], n }'
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(date -u +%F)"
stats "table build (3x3, whole process)" "$bin" build -q
stats "table query 8 6 7 2 5 4 3 0 1" "$bin" query 8 6 7 2 5 4 3 0 1
stats "table query --json (3x3)" "$bin" query --json 8 6 7 2 5 4 3 0 1
stats "table stats (3x3)" "$bin" stats
stats "table verify (3x3)" "$bin" verify
