#!/usr/bin/env bash
# The 12-cell tables (239,500,800 states each): builds 3x4, 4x3, 2x6 and 6x2 in the library, checks
# the known answers (3x4: max depth 53 reached by 18 states; 2x6: max depth 80 reached by 2; each
# equal to its transpose) and verifies each; then times the command-line build of 3x4 and 2x6 with
# peak memory. Needs about 1 GiB of memory and a few minutes on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo test --release --test integration big:: -- --ignored --test-threads 1
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for board in 3x4 2x6; do
  /usr/bin/time -f "$board: %e s wall, %M KiB peak resident" target/release/table build -q --board "$board" -o "$work/$board.table" >/dev/null
  /usr/bin/time -f "$board verify: %e s wall, %M KiB peak resident" target/release/table verify --table "$work/$board.table"
done
