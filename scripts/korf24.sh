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
#   ID ...           instance numbers (default: the five easiest by published nodes: 38 40 25 32 44)
set -euo pipefail
cd "$(dirname "$0")/.."

dir=tables
limit=600
order=estimate
threads=$(nproc)
ids=()
while [ $# -gt 0 ]; do
  case "$1" in
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
