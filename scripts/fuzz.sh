#!/usr/bin/env bash
# Coverage-guided fuzzing (cargo-fuzz, libFuzzer) of the four targets in fuzz/: the header
# parser, the table loaders, the board parsers and the batch reader. Their checks live in
# tests/fuzz_targets, which CI also runs through proptest (tests/fuzz.rs).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default: 600 s each, all four targets
#
# Needs the nightly toolchain (`rustup toolchain install nightly`); installs cargo-fuzz when it is
# missing. Seeds each corpus with real tables and boards, runs each target for SECONDS on one core,
# and prints one line per target: runs, seconds, corpus size, and whether it found a crash (kept in
# fuzz/artifacts/TARGET/; replay it with `cargo +nightly fuzz run TARGET FILE`, then add it to
# tests/fuzz.rs as a regression test).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(header table board batch)

if ! rustup toolchain list | grep -q '^nightly'; then
    echo "fuzz.sh: cargo-fuzz needs the nightly toolchain: rustup toolchain install nightly" >&2
    exit 2
fi
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

# Seeds: real tables of both kinds, boards in every syntax, batch input.
cargo build --release --locked -q
table=target/release/table
mkdir -p fuzz/corpus/{header,table,board,batch}
for spec in "2x2 blank-last" "2x3 blank-first" "3x2 snail" "2x4 blank-last"; do
    set -- $spec
    $table build --board "$1" --goal "$2" -o "fuzz/corpus/table/$1-$2.table" -q >/dev/null
done
$table build --board 3x3 --pattern 1,2 -o fuzz/corpus/table/3x3-tiles-1-2.table -q >/dev/null
$table build --board 2x4 --pattern 3 -o fuzz/corpus/table/2x4-tile-3.table -q >/dev/null
cp fuzz/corpus/table/*.table fuzz/corpus/header/
# the board target's first byte picks the shape: 0x05 is 3x3, 0x0a is 4x4, 0xf0 is 10x2
printf '\x058 6 7 2 5 4 3 0 1' >fuzz/corpus/board/spaces
printf '\x058,6,7/2,5,4/3,_,1' >fuzz/corpus/board/slashes
printf '\x05867254301' >fuzz/corpus/board/digits
printf '\x0515 2 1 12 8 5 6 11 4 9 10 7 3 14 13 0' >fuzz/corpus/board/wrong-size
printf '\x0a4\n 1  2  3  4\n 5  6  7  8\n 9 10 11 12\n13 14 15  0\n' >fuzz/corpus/board/cos226
printf '\x0a1,2,3,4,5/6,7,8,9,10/11,12,13,14,15' >fuzz/corpus/board/partition
printf '\x0a5-5-5' >fuzz/corpus/board/named
printf '\x05blank-first' >fuzz/corpus/board/goal
printf '\xf01 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 0' >fuzz/corpus/board/tall
# the batch target's first byte picks the table (0 3x3, 1 3x3 snail, 2 2x3, 3 2x4) and the mode
printf '\x008 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 8 0\n2 1 3 4 5 6 7 8 0\n867254301\r\n8,6,7/2,5,4/3,_,1' >fuzz/corpus/batch/3x3
printf '\x82123450\n1 2 3\n4 5 0\n\n0 1 2 3 4 5\n' >fuzz/corpus/batch/2x3-solve

printf '%-8s %12s %8s %8s  %s\n' target runs seconds corpus result
for t in "${targets[@]}"; do
    log=fuzz/$t.log
    status=0
    cargo +nightly fuzz run -O "$t" "fuzz/corpus/$t" -- -max_total_time="$seconds" -print_final_stats=1 \
        -max_len=8192 -rss_limit_mb=4096 >"$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    secs=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    [ "$secs" = '?' ] || [ "$runs" = '?' ] || secs=$(( runs / (secs > 0 ? secs : 1) ))
    corpus=$(find "fuzz/corpus/$t" -type f | wc -l)
    if [ "$status" -eq 0 ]; then result="no crash"; else result="CRASH (exit $status): see $log and fuzz/artifacts/$t/"; fi
    printf '%-8s %12s %8s %8s  %s\n' "$t" "$runs" "$secs" "$corpus" "$result"
done
