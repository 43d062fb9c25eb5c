#!/usr/bin/env bash
# Two-bit perfect tables (issue 40): the 12-cell boards at a byte and at two bits, then the 2x7
# (and with --7x2 the 7x2) built, checked against OEIS A346736, queried and verified.
#
#   scripts/two_bit.sh [--quick] [--7x2] [--dir DIR]
#
# --quick: only the 12-cell comparison. DIR (default target/tables14, 11 GB free needed) holds the 14-cell tables,
# 10.9 GB each (target/ is not in the repository). A 14-cell build needs about 16 GiB: it is skipped, with a
# line saying so, when `free` shows less than 19 GiB available. Prints every figure with the load
# average beside it; timings are whole-process, /usr/bin/time for the peak resident memory.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0; seven_two=0; dir=target/tables14
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --7x2) seven_two=1 ;;
    --dir) dir="$2"; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
cargo build --release -q
T="$PWD/target/release/table"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { printf '%s  [load %s]\n' "$*" "$(cut -d' ' -f1-3 /proc/loadavg)"; }
timed() { # label, command...: prints seconds and peak RSS
  local label="$1"; shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out" 2> "$work/err" || { cat "$work/err" >&2; return 1; }
  read -r secs kib < "$work/time"
  say "$(printf '%-44s %8.2f s  %7.0f MiB' "$label" "$secs" "$((kib / 1024))")"
}

echo "== 12 cells: a byte against two bits (3 runs each)"
for board in 3x4 2x6; do
  for bits in 8 2; do
    for run in 1 2 3; do
      timed "build --board $board --bits $bits (run $run)" "$T" build --board "$board" --bits "$bits" -o "$work/$board.$bits.table" -q
    done
    timed "verify $board at $bits bits" "$T" verify --table "$work/$board.$bits.table"
  done
  "$T" stats --table "$work/$board.8.table" --json > "$work/a.json"
  "$T" stats --table "$work/$board.2.table" --json > "$work/b.json"
  if cmp -s "$work/a.json" "$work/b.json"; then say "$board: the distributions agree"; else say "$board: DISTRIBUTIONS DIFFER"; exit 1; fi
done
[ "$quick" = 1 ] && exit 0

boards=(2x7)
[ "$seven_two" = 1 ] && boards+=(7x2)
mkdir -p "$dir"
for board in "${boards[@]}"; do
  echo "== $board at two bits"
  table="$dir/$board-blank-last.table"
  avail=$(awk '/MemAvailable/ {print int($2 / 1048576)}' /proc/meminfo)
  if [ ! -f "$table" ]; then
    if [ "$avail" -lt 19 ]; then say "skipped the $board build: $avail GiB available, 19 wanted"; continue; fi
    uptime
    /usr/bin/time -v "$T" build --board "$board" -o "$table" > "$work/build.out" 2> "$work/build.err"
    grep -E "Elapsed|Maximum resident" "$work/build.err"
    uptime
  fi
  "$T" stats --table "$table" --csv | awk -F, 'NR > 1 {print $1, $2}' > "$work/dist"
  if [ "$board" = 2x7 ] || [ "$board" = 7x2 ]; then
    if grep -v '^#' data/oeis/A346736.txt | diff - <(head -39 "$work/dist") > /dev/null; then
      say "$board: depths 0..38 equal OEIS A346736"
    else
      say "$board: the distribution DIFFERS from OEIS A346736"; exit 1
    fi
    if grep -v '^#' data/published/2x7-tarakanov.txt | diff - "$work/dist" > /dev/null; then
      say "$board: depths 0..108 equal Tarakanov's complete search (data/published/2x7-tarakanov.txt)"
    else
      say "$board: the distribution DIFFERS from Tarakanov's complete search"; exit 1
    fi
    say "$board: max depth $(tail -1 "$work/dist")"
  fi
  # one query, the table in the page cache: median of 11
  cat "$table" > /dev/null
  for i in $(seq 11); do
    s=$(date +%s%N); "$T" query --table "$table" --json 7 6 12 4 3 9 1 13 5 11 10 2 8 0 > /dev/null; e=$(date +%s%N)
    echo $(( (e - s) / 1000 ))
  done | sort -n | sed -n 6p | xargs -I{} sh -c 'echo "one query, median of 11: {} us"'
  # random boards, the solvable half kept (the table tells which): 1,000,000 and 200,000 of them
  python3 - "$board" > "$work/random" <<'PY'
import random, sys
r, c = map(int, sys.argv[1].split("x"))
n = r * c
random.seed(40)
for _ in range(2400000):
    p = list(range(n))
    random.shuffle(p)
    print(" ".join(map(str, p)))
PY
  "$T" query --table "$table" --batch --file "$work/random" | paste -d'|' - "$work/random" \
    | grep -v '^unsolvable' | cut -d'|' -f2 > "$work/solvable"
  head -1000000 "$work/solvable" > "$work/boards"
  head -200000 "$work/solvable" > "$work/boards200"
  timed "query --batch, 1,000,000 random solvable boards" "$T" query --table "$table" --batch --file "$work/boards"
  timed "query --batch --solve, 200,000 random solvable boards" "$T" query --table "$table" --batch --solve --file "$work/boards200"
  timed "verify $board" "$T" verify --table "$table"
done
