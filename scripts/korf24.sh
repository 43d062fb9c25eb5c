#!/usr/bin/env bash
# The 24-puzzle: chosen instances of Korf & Felner 2002 (data/korf24.tsv; the first ten are Korf &
# Taylor 1996's), solved optimally by IDA* with the 6-6-6-6 pattern databases and the reflected
# lookup, each under a time limit; lengths checked against the published optima, nodes shown beside
# the published counts. Builds the four tables when they are missing (a few minutes, 2.4 GiB).
#
# Usage: scripts/korf24.sh [--dir DIR] [--limit SECONDS] [--order estimate|fixed] [--threads N] [ID ...]
#   --dir DIR        where the pattern tables are kept (default: tables/)
#   --limit SECONDS  time limit per instance (default: 600)
#   --order ORDER    estimate (default): children with the lowest estimate first;
#                    fixed: up, left, right, down, Korf & Felner's order: with --threads 1 the node
#                    counts are theirs plus one (the start, which we count)
#   --threads N      threads per instance (default: all cores)
#   --walks N        instead of instances: N boards made by random walks of --moves moves (default
#                    60) from the goal, solved the same way (seeded: --seed S, default 1)
#   ID ...           instance numbers (default: the five easiest by published nodes: 38 40 25 32 44)
set -euo pipefail
cd "$(dirname "$0")/.."

dir=tables
limit=600
order=estimate
threads=$(nproc)
ids=()
walks=0
walk_moves=60
seed=1
while [ $# -gt 0 ]; do
  case "$1" in
    --walks) walks="$2"; shift 2 ;;
    --moves) walk_moves="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --limit) limit="$2"; shift 2 ;;
    --order) order="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    -*) echo "usage: scripts/korf24.sh [--dir DIR] [--limit SECONDS] [--order estimate|fixed] [--threads N] [ID ...]" >&2; exit 2 ;;
    *) ids+=("$1"); shift ;;
  esac
done
[ ${#ids[@]} -gt 0 ] || ids=(38 40 25 32 44)

cargo build --release --quiet
table=target/release/table
mkdir -p "$dir"
need=0
for g in $($table build --pattern list | awk '$1 == "5x5" && $2 == "6-6-6-6" { for (i = 3; i <= NF; i++) if ($i != "/") print $i }'); do
  [ -f "$dir/5x5-blank-first-tiles-${g//,/-}.table" ] || need=1
done
if [ $need -eq 1 ]; then
  echo "building the 6-6-6-6 tables into $dir/ ..." >&2
  $table build --board 5x5 --goal blank-first --pattern 6-6-6-6 --dir "$dir" -q >&2
fi

if [ "$walks" -gt 0 ]; then
  # random walks from the goal, never undoing the last move: a reproducible awk generator
  awk -v n="$walks" -v m="$walk_moves" -v seed="$seed" 'BEGIN {
    srand(seed)
    for (k = 0; k < n; k++) {
      for (c = 0; c < 25; c++) b[c] = c
      blank = 0; last = -1; done = 0
      while (done < m) {
        d = int(rand() * 4)
        if (d == 3 - last) continue            # 0 up 1 left 2 right 3 down: 3-d undoes d
        r = int(blank / 5); c = blank % 5
        if (d == 0 && r == 0 || d == 3 && r == 4 || d == 1 && c == 0 || d == 2 && c == 4) continue
        to = blank + (d == 0 ? -5 : d == 3 ? 5 : d == 1 ? -1 : 1)
        b[blank] = b[to]; b[to] = 0; blank = to; last = d; done++
      }
      line = b[0]; for (c = 1; c < 25; c++) line = line " " b[c]; print line
    }
  }' > "$dir/.walks.txt"
  echo "24-puzzle: $walks random walks of $walk_moves moves (seed $seed), IDA* with 6-6-6-6 and the reflected lookup, boards in parallel"
  $table solve --batch --file "$dir/.walks.txt" --goal blank-first -H pdb --pattern 6-6-6-6 --dir "$dir" --order "$order"
  rm -f "$dir/.walks.txt"
  exit 0
fi

echo "24-puzzle, IDA* with 6-6-6-6 and the reflected lookup (order: $order, threads: $threads, limit: ${limit} s)"
printf "%4s  %7s  %5s  %16s  %16s  %8s  %9s  %s\n" id optimal found nodes published ratio seconds status
failed=0
for id in "${ids[@]}"; do
  line=$(awk -F'\t' -v id="$id" '$1 == id' data/korf24.tsv)
  [ -n "$line" ] || { echo "no instance $id in data/korf24.tsv" >&2; exit 2; }
  optimal=$(cut -f2 <<< "$line")
  published=$(cut -f3 <<< "$line")
  board=$(cut -f4 <<< "$line")
  set +e
  json=$(timeout "$limit" $table solve $board --goal blank-first -H pdb --pattern 6-6-6-6 --dir "$dir" \
    --order "$order" --threads "$threads" --json)
  code=$?
  set -e
  if [ $code -eq 124 ]; then
    printf "%4s  %7s  %5s  %16s  %16s  %8s  %9s  %s\n" "$id" "$optimal" - - "$published" - ">$limit" "time limit"
    continue
  elif [ $code -ne 0 ]; then
    echo "instance $id: table solve exited $code" >&2
    failed=1
    continue
  fi
  moves=$(grep -o '"moves":[0-9]*' <<< "$json" | cut -d: -f2)
  nodes=$(grep -o '"generated":[0-9]*' <<< "$json" | cut -d: -f2)
  secs=$(grep -o '"seconds":[0-9.e-]*' <<< "$json" | cut -d: -f2)
  status=ok
  if [ "$moves" != "$optimal" ]; then status="WRONG LENGTH"; failed=1; fi
  printf "%4s  %7s  %5s  %16s  %16s  %8.3f  %9.2f  %s\n" "$id" "$optimal" "$moves" "$nodes" "$published" \
    "$(awk -v a="$nodes" -v b="$published" 'BEGIN { print a / b }')" "$secs" "$status"
done
exit $failed
