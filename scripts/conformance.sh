#!/usr/bin/env bash
# Conformance run: every COS 226 sample file in ../shared/cos226 that a perfect table covers (2x2,
# 3x3) against the expected move counts in EXPECTED.tsv. Prints one line per file and a summary;
# exits non-zero on any mismatch. Larger boards need the heuristic solvers and are listed as skipped.
# Usage: scripts/conformance.sh [COS226_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/../shared/cos226}
[ -f "$dir/EXPECTED.tsv" ] || { echo "conformance: no EXPECTED.tsv in $dir" >&2; exit 2; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/release/table"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && "$bin" build -q >/dev/null && "$bin" build -q --board 2x2 >/dev/null)

pass=0; fail=0; skip=0
while IFS=$'\t' read -r file size expected; do
  [ "$file" = file ] && continue
  if [ "$size" != 2 ] && [ "$size" != 3 ]; then
    skip=$((skip + 1)); continue
  fi
  set +e
  got=$(cd "$work" && "$bin" query --json --file "$dir/$file" 2>&1)
  rc=$?
  set -e
  if [ $rc -eq 1 ]; then
    answer=unsolvable
  else
    answer=$(printf '%s' "$got" | sed -n 's/.*"distance":\([0-9]*\).*/\1/p')
    [ -n "$answer" ] || answer="error: $got"
  fi
  if [ "$answer" = "$expected" ]; then
    pass=$((pass + 1)); printf '%-30s %sx%s  expected %-10s got %-10s ok\n' "$file" "$size" "$size" "$expected" "$answer"
  else
    fail=$((fail + 1)); printf '%-30s %sx%s  expected %-10s got %-10s MISMATCH\n' "$file" "$size" "$size" "$expected" "$answer"
  fi
done < "$dir/EXPECTED.tsv"
echo "conformance: $pass passed, $fail failed, $skip skipped (boards larger than 3x3 need a heuristic solver)"
[ $fail -eq 0 ]
