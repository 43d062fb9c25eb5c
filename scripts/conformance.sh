#!/usr/bin/env bash
# Conformance run over the COS 226 sample files: every file in EXPECTED.tsv is solved with
# `table solve` (A* with linear conflict, or ALGORITHM from the environment) and its number of moves
# compared with the expected one; the 2x2 and 3x3 files are also answered by the perfect tables
# (`table query`). Prints one line per file with the time taken, and a summary. A file the search
# cannot finish within TIMEOUT seconds (default 60) or the memory limit is reported as "gave up",
# which is not a failure; a wrong answer is. Exits non-zero on any mismatch.
# Usage: scripts/conformance.sh [COS226_DIR]     env: TIMEOUT=60 ALGORITHM=astar HEURISTIC=linear-conflict
# COS226_DIR defaults to data/cos226, the 150 sample files the repository ships.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/data/cos226}
[ -d "$dir" ] || { echo "conformance: no directory $dir" >&2; exit 2; }
dir=$(cd "$dir" && pwd) # the files are read from a scratch directory
timeout_s=${TIMEOUT:-60}
algorithm=${ALGORITHM:-astar}
heuristic=${HEURISTIC:-linear-conflict}
[ -f "$dir/EXPECTED.tsv" ] || { echo "conformance: no EXPECTED.tsv in $dir" >&2; exit 2; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/table"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && "$bin" build -q >/dev/null && "$bin" build -q --board 2x2 >/dev/null)

# the number of moves in a JSON answer, `unsolvable` for exit status 1, or what went wrong
answer() {
  local field=$1; shift
  local got rc
  set +e
  got=$(cd "$work" && timeout "$timeout_s" "$@" 2>&1)
  rc=$?
  set -e
  case $rc in
    0) printf '%s' "$got" | sed -n "s/.*\"$field\":\([0-9]*\).*/\1/p" ;;
    1) echo unsolvable ;;
    4 | 124) echo "gave-up" ;;
    *) echo "error($rc): $got" | head -c 200 ;;
  esac
}

pass=0; fail=0; gave_up=0
printf '%-28s %-6s %-10s %-10s %-10s %s\n' file size expected solve table seconds
while IFS=$'\t' read -r file size expected; do
  [ "$file" = file ] && continue
  start=$(date +%s.%N)
  got=$(answer moves "$bin" solve --json --algorithm "$algorithm" --heuristic "$heuristic" --max-memory 6G --file "$dir/$file")
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  exact=-
  if [ "$size" = 2 ] || [ "$size" = 3 ]; then
    exact=$(answer distance "$bin" query --json --file "$dir/$file")
  fi
  verdict=ok
  if [ "$got" = gave-up ]; then
    verdict="gave up (not a failure)"; gave_up=$((gave_up + 1))
  elif [ "$got" != "$expected" ] || { [ "$exact" != - ] && [ "$exact" != "$expected" ]; }; then
    verdict=MISMATCH; fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
  printf '%-28s %-6s %-10s %-10s %-10s %6.2f  %s\n' "$file" "${size}x$size" "$expected" "$got" "$exact" "$secs" "$verdict"
done < "$dir/EXPECTED.tsv"
echo "conformance ($algorithm, $heuristic, ${timeout_s}s each): $pass passed, $fail failed, $gave_up gave up"
[ $fail -eq 0 ]
