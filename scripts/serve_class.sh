#!/usr/bin/env bash
# A classroom on `table serve`, over loopback only (127.0.0.1): a fresh release server in an empty
# temporary --dir (so the 3x4 table is built in memory and the 4x4 6-6-3 pattern tables at first
# use, as on a teacher's laptop), 40 students playing and comparing beside one 80-move 4x4 solve
# (scripts/serve_load.py --class), then the figures. Targets: lookup p99 <= 50 ms, no 409 for a
# student without a job, peak RSS <= 1 GiB.
#
# Usage: scripts/serve_class.sh [--seconds N] [--students N] [--jobs N] [--max-memory SIZE] [--json-out FILE] [--bin PATH]
#   --seconds N        the measured run (default 300)
#   --students N       (default 40)
#   --jobs N, --max-memory SIZE   passed to `table serve` (defaults: the server's)
#   --json-out FILE    append the figures to FILE as one JSON line
#   --bin PATH         run this `table` binary instead of building target/release/table
set -euo pipefail
cd "$(dirname "$0")/.."

secs=300
students=40
serve_args=()
out_args=()
bin=""
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) secs="$2"; shift 2 ;;
        --students) students="$2"; shift 2 ;;
        --jobs|--max-memory) serve_args+=("$1" "$2"); shift 2 ;;
        --json-out) out_args+=(--json-out "$2"); shift 2 ;;
        --bin) bin="$2"; shift 2 ;;
        *) echo "usage: scripts/serve_class.sh [--seconds N] [--students N] [--jobs N] [--max-memory SIZE] [--json-out FILE] [--bin PATH]" >&2; exit 2 ;;
    esac
done

if [ -z "$bin" ]; then
    cargo build --release --quiet --bin table
    bin=$PWD/target/release/table
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/serve-class.XXXXXX")
server=""
cleanup() {
    [ -n "$server" ] && { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "slidetable $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.toml Cargo.lock || echo ' (with uncommitted changes in src/)'), $bin, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin" serve --port 0 --dir "$dir" "${serve_args[@]}" >"$dir/serve.log" 2>&1 &
server=$!
url=""
for _ in $(seq 100); do
    url=$(sed -n 's/^listening on \(http:\/\/127\.0\.0\.1:[0-9]*\)$/\1/p' "$dir/serve.log" | head -1)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.05
done
if [ -z "$url" ]; then
    echo "table serve did not start:" >&2
    cat "$dir/serve.log" >&2
    exit 1
fi
board80="0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"   # 80 moves: minutes of IDA* on one core
python3 scripts/serve_load.py --url "$url" --class "$students" --seconds "$secs" --solve "$board80" \
    --server-pid "$server" "${out_args[@]}"
