#!/usr/bin/env bash
# Throughput of `table query --batch` on one core: boards per second, with and without --solve.
# Usage: scripts/batch-bench.sh [BOARDS] [RUNS]   (default 2,000,000 boards, 5 runs; prints the median)
# The boards are random 3x3 arrangements in the plain `8 6 7 2 5 4 3 0 1` form, about half of them
# unsolvable, from a fixed seed, so every run of the script reads the same file.
set -euo pipefail
boards=${1:-2000000}
runs=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/table"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

python3 - "$boards" >boards.txt <<'EOF'
import random, sys
rng = random.Random(20240611)
cells = list(range(9))
out = []
for _ in range(int(sys.argv[1])):
    rng.shuffle(cells)
    out.append(" ".join(map(str, cells)))
sys.stdout.write("\n".join(out) + "\n")
EOF
"$bin" build -q >/dev/null

# One core, when taskset is there: the figure is per core.
pin=()
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then pin=(taskset -c 0); fi

# rate LABEL ARGS...: runs `table query --batch --file boards.txt ARGS` $runs times (after one
# warm-up) with stdout to a file, checks the line count, prints the median boards per second.
rate() {
  local label=$1; shift
  "${pin[@]}" "$bin" query --batch --file boards.txt "$@" >out.txt
  local samples=()
  for _ in $(seq "$runs"); do
    local t0=$EPOCHREALTIME
    "${pin[@]}" "$bin" query --batch --file boards.txt "$@" >out.txt
    local t1=$EPOCHREALTIME
    samples+=("$(python3 -c "print($boards / ($t1 - $t0))")")
  done
  local lines
  lines=$(wc -l <out.txt)
  if [ "$lines" -ne "$boards" ]; then echo "$label: $lines lines of output for $boards boards" >&2; exit 1; fi
  printf '%s\n' "${samples[@]}" | sort -g | awk -v label="$label" -v n="$runs" '
    { v[NR] = $1 }
    END { printf "%-34s median %12.0f boards/s   min %12.0f   max %12.0f   (%d runs)\n", label, v[int((n + 1) / 2)], v[1], v[n], n }'
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(date -u +%F)"
echo "input:   $boards boards, $(wc -c <boards.txt) bytes; pinned: ${pin[*]:-no}"
rate "table query --batch"
rate "table query --batch --solve" --solve
