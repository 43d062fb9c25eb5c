#!/usr/bin/env bash
# The whole benchmark set of slidetable, whole process, as a user runs it, and the same commands on
# the plain design this work started from (commit 5decea6, the last one before issue 3), side by
# side in one run. Prints one table of medians and ratios.
#
#   3x3: `table build`, `table query` (one board), `table verify`;
#   batch: `table query --batch` on one core (taskset -c 0), boards in the plain `8 6 7 2 5 4 3 0 1`
#          form from a file, output to a file: random arrangements (half unsolvable) and solvable
#          ones only, with and without --solve; the same on the 3x4 table;
#   12 cells: `table build` and `table verify` of 3x4 and 2x6, with peak resident memory.
#
# Usage: scripts/bench.sh [--quick] [--no-baseline]
#   --quick        fewer runs (3x3: 5 instead of 21; 12 cells: 1 instead of 3; 500,000 boards)
#   --no-baseline  skip building and timing the plain design
# Needs python3 (to generate boards) and about 1.5 GiB of disk and memory; about 5 minutes on 2
# cores with the baseline, 2 without.
set -euo pipefail
runs_small=21; runs_big=3; boards=2000000; baseline=1
for arg in "$@"; do
  case $arg in
    --quick) runs_small=5; runs_big=1; boards=500000 ;;
    --no-baseline) baseline=0 ;;
    *) echo "usage: scripts/bench.sh [--quick] [--no-baseline]" >&2; exit 2 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
base_commit=5decea62f0b1c83e2b10c93c4dbbbb3dfcace1eb
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
new="$root/target/release/table"
old=""
if [ "$baseline" = 1 ]; then
  # the plain design, built once into target/ from its commit (no checkout of the work tree)
  base="$root/target/baseline-5decea6"
  if [ ! -x "$base/target/release/table" ]; then
    rm -rf "$base"
    mkdir -p "$base"
    git -C "$root" archive "$base_commit" | tar -x -C "$base"
    echo "building the baseline (commit ${base_commit:0:7}) in $base ..." >&2
    cargo build --release --quiet --manifest-path "$base/Cargo.toml"
  fi
  old="$base/target/release/table"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

pin=()
if command -v taskset >/dev/null && taskset -c 0 true 2>/dev/null; then pin=(taskset -c 0); fi
timer=()
if [ -x /usr/bin/time ]; then timer=(/usr/bin/time -f "%e %M" -o "$work/time.out"); fi

# median FILE: the median of the numbers in FILE, one per line
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# ms RUNS CMD...: median wall time in ms of RUNS runs of CMD (after one warm-up), output discarded
ms() {
  local runs=$1; shift
  "$@" >/dev/null 2>&1
  : >"$work/samples"
  for _ in $(seq "$runs"); do
    local t0=$EPOCHREALTIME
    "$@" >/dev/null 2>&1
    local t1=$EPOCHREALTIME
    echo "($t1 - $t0) * 1000" | bc -l >>"$work/samples"
  done
  median "$work/samples"
}

# rate BIN TABLE FILE ARGS...: median boards per second of `query --batch` on one core
rate() {
  local bin=$1 table=$2 file=$3; shift 3
  local n
  n=$(wc -l <"$file")
  "${pin[@]}" "$bin" query --batch --table "$table" --file "$file" "$@" >"$work/answers" 2>/dev/null || true
  [ "$(wc -l <"$work/answers")" -eq "$n" ] || { echo "bench: $bin gave the wrong number of answers" >&2; exit 1; }
  : >"$work/samples"
  for _ in $(seq 3); do
    local t0=$EPOCHREALTIME
    "${pin[@]}" "$bin" query --batch --table "$table" --file "$file" "$@" >"$work/answers" 2>/dev/null || true
    local t1=$EPOCHREALTIME
    echo "$n / ($t1 - $t0)" | bc -l >>"$work/samples"
  done
  median "$work/samples"
}

# big BIN ARGS...: median wall seconds and the peak resident memory (MiB) of RUNS_BIG runs
big() {
  local bin=$1; shift
  : >"$work/samples"; : >"$work/peaks"
  for _ in $(seq "$runs_big"); do
    if [ ${#timer[@]} -gt 0 ]; then
      "${timer[@]}" "$bin" "$@" >/dev/null
      read -r secs kib <"$work/time.out"
      echo "$secs" >>"$work/samples"; echo "$kib / 1024" | bc -l >>"$work/peaks"
    else
      local t0=$EPOCHREALTIME
      "$bin" "$@" >/dev/null
      local t1=$EPOCHREALTIME
      echo "$t1 - $t0" | bc -l >>"$work/samples"; echo 0 >>"$work/peaks"
    fi
  done
  echo "$(median "$work/samples") $(sort -g "$work/peaks" | tail -1)"
}

# boards SHAPE COUNT SOLVABLE_ONLY: random boards, fixed seed, one per line
boards() {
  python3 - "$@" <<'EOF'
import random, sys
rows, cols = map(int, sys.argv[1].split("x"))
count, solvable_only = int(sys.argv[2]), sys.argv[3] == "1"
n = rows * cols
rng = random.Random(20261122)
def solvable(cells):
    # to the blank-last goal: inversions of the tiles, plus (odd widths aside) the blank's row from the bottom
    tiles = [t for t in cells if t]
    inv = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])
    if cols % 2 == 1:
        return inv % 2 == 0
    return (inv + rows - 1 - cells.index(0) // cols) % 2 == 0
cells = list(range(n))
out = []
while len(out) < count:
    rng.shuffle(cells)
    if not solvable_only or solvable(cells):
        out.append(" ".join(map(str, cells)))
sys.stdout.write("\n".join(out) + "\n")
EOF
}

row() { printf '| %-44s | %14s | %14s | %8s |\n' "$@"; }
ratio() { if [ -n "$2" ] && [ "$2" != "-" ]; then echo "scale=2; $1 / $2" | bc -l | sed 's/^\./0./'; else echo "-"; fi; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB, $(date -u +%F)"
echo "runs: 3x3 median of $runs_small; 12 cells median of $runs_big; batch median of 3 on one core, $boards boards"
echo
row "measurement" "now" "baseline" "speedup"
row "--------------------------------------------" "--------------" "--------------" "--------"

# 3x3, whole process; the floor is what starting any process costs here
mkdir -p new old
row "start a process (/bin/true), ms" "$(printf %.2f "$(ms "$runs_small" /bin/true)")" "" ""
a=$(ms "$runs_small" "$new" --version); b=-
[ -n "$old" ] && b=$(ms "$runs_small" "$old" --version)
row "table --version (start-up alone), ms" "$(printf %.2f "$a")" "$( [ "$b" = - ] && echo - || printf %.2f "$b")" "$(ratio "$b" "$a")"
a=$(cd new && ms "$runs_small" "$new" build -q); b=-
[ -n "$old" ] && b=$(cd old && ms "$runs_small" "$old" build -q)
row "table build (3x3), ms" "$(printf %.2f "$a")" "$( [ "$b" = - ] && echo - || printf %.2f "$b")" "$(ratio "$b" "$a")"
a=$(cd new && ms "$runs_small" "$new" query 8 6 7 2 5 4 3 0 1); b=-
[ -n "$old" ] && b=$(cd old && ms "$runs_small" "$old" query 8 6 7 2 5 4 3 0 1)
row "table query 8 6 7 2 5 4 3 0 1, ms" "$(printf %.2f "$a")" "$( [ "$b" = - ] && echo - || printf %.2f "$b")" "$(ratio "$b" "$a")"
a=$(cd new && ms "$runs_small" "$new" verify); b=-
[ -n "$old" ] && b=$(cd old && ms "$runs_small" "$old" verify)
row "table verify (3x3), ms" "$(printf %.2f "$a")" "$( [ "$b" = - ] && echo - || printf %.2f "$b")" "$(ratio "$b" "$a")"

# batch throughput on one core
boards 3x3 "$boards" 0 >mixed.txt
boards 3x3 "$boards" 1 >solvable.txt
for input in mixed solvable; do
  for solve in "" --solve; do
    a=$(rate "$new" new/eight.table $input.txt $solve); b=-
    [ -n "$old" ] && b=$(rate "$old" old/eight.table $input.txt $solve)
    row "query --batch $solve (3x3, $input), boards/s" "$(printf %.0f "$a")" "$( [ "$b" = - ] && echo - || printf %.0f "$b")" "$(ratio "$a" "$b")"
  done
done

# 12 cells
for board in 3x4 2x6; do
  read -r a am <<<"$(big "$new" build -q --board "$board" -o "new/$board.table")"
  b=-; bm=-
  [ -n "$old" ] && read -r b bm <<<"$(big "$old" build -q --board "$board" -o "old/$board.table")"
  row "table build --board $board, s" "$a" "$b" "$(ratio "$b" "$a")"
  row "  peak resident, MiB" "$(printf %.0f "$am")" "$( [ "$bm" = - ] && echo - || printf %.0f "$bm")" ""
  read -r a am <<<"$(big "$new" verify --table "new/$board.table")"
  b=-; bm=-
  [ -n "$old" ] && read -r b bm <<<"$(big "$old" verify --table "old/$board.table")"
  row "table verify ($board), s" "$a" "$b" "$(ratio "$b" "$a")"
  [ -n "$old" ] && { cmp -s "new/$board.table" "old/$board.table" || { echo "bench: the $board tables differ" >&2; exit 1; }; }
  if [ "$board" = 3x4 ]; then
    boards 3x4 $((boards / 4)) 1 >solvable12.txt
    "$new" query --batch --table new/3x4.table --file solvable12.txt >/dev/null  # warm the pages
    for solve in "" --solve; do
      a=$(rate "$new" new/3x4.table solvable12.txt $solve); b=-
      [ -n "$old" ] && b=$(rate "$old" new/3x4.table solvable12.txt $solve)
      row "query --batch $solve (3x4, solvable), boards/s" "$(printf %.0f "$a")" "$( [ "$b" = - ] && echo - || printf %.0f "$b")" "$(ratio "$a" "$b")"
    done
  fi
  rm -f "new/$board.table" "old/$board.table"
done
echo
echo "table size for 12 cells: 239,500,800 entries + 4 KiB header = $((239504896 / 1048576)) MiB"
