#!/usr/bin/env bash
# `table serve` measured against its targets on this machine, over loopback only (127.0.0.1):
#   1. position lookups (3x3, 3x4) at 200 requests/s, open loop (scripts/serve_load.py), alone and
#      while a hard 4x4 solve (80 moves, 6-6-3 pattern tables; started again if it finishes) streams
#      beside them; then at 1000 to 4000 requests/s for the most the server sustains.
#      Target: p99 <= 5 ms at 200/s.
#   2. the page's first load on a cold server (every file it references, gzip/br): in turn over one
#      connection, and browser-like in parallel; and in headless chromium when playwright-core is
#      installed (tests/browser): five fresh servers, each visited by four fresh profiles, the
#      first board timed by the page's own mark. Target: <= 300 ms on the cold server.
#   3. the 3x3 heat map (`/api/heatmap`), cold and cached. Target: drawn in <= 1 s.
#   4. what the `serve` feature costs: build time and binary size with and without it.
# Tables are kept in /tmp/serve-bench (the 3x4 table, 240 MB; the 4x4 6-6-3 pattern tables, 11 MiB),
# built there when missing. Every server is stopped on exit, failure included.
#
# Usage: scripts/serve_bench.sh [--seconds N] [--no-build-cost] [--page-only]
#   --seconds N        seconds of each 200/s run (default 20; the faster runs take half)
#   --no-build-cost    leave out part 4 (about 10 minutes on 2 cores: two clean release builds)
#   --page-only        part 2 alone (two minutes)
set -euo pipefail
cd "$(dirname "$0")/.."

secs=20
build_cost=1
page_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) secs="$2"; shift 2 ;;
        --no-build-cost) build_cost=0; shift ;;
        --page-only) page_only=1; build_cost=0; shift ;;
        *) echo "usage: scripts/serve_bench.sh [--seconds N] [--no-build-cost] [--page-only]" >&2; exit 2 ;;
    esac
done

dir=/tmp/serve-bench
mkdir -p "$dir"
work=$(mktemp -d "$dir/run.XXXXXX")
rows="$work/rows.jsonl"   # one JSON object per measurement, for the summary
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -f "$rows" ] && cp "$rows" "$dir/last-run.jsonl"   # every figure, for a closer look
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

load() { cut -d' ' -f1 /proc/loadavg; }
# Waits (at most a minute) for 2 s in which other processes keep less than a third of a core busy,
# so that a build running beside does not end up in the figures; says so when it never comes.
quiet() {
    local b0 t0 b1 t1
    for _ in $(seq 30); do
        read -r b0 t0 < <(awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat)
        sleep 2
        read -r b1 t1 < <(awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat)
        if [ $(( (b1 - b0) * $(nproc) * 3 )) -lt $(( t1 - t0 )) ]; then return 0; fi
    done
    echo "   (other processes stayed busy for a minute; measured anyway)"
}
row() { echo "$1" >>"$rows"; }

cargo build --release --quiet --bin table
bin=$PWD/target/release/table
echo "slidetable $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.toml Cargo.lock || echo ' (with uncommitted changes in src/)'), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load average $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$page_only" = 0 ] && [ ! -f "$dir/3x4-blank-last.table" ]; then
    echo "building the 3x4 table (240 MB, a minute or two)"
    "$bin" build --board 3x4 -o "$dir/3x4-blank-last.table" --quiet
fi
if [ "$page_only" = 0 ] && ! ls "$dir"/4x4-blank-last-tiles-*.table >/dev/null 2>&1; then
    echo "building the 4x4 6-6-3 pattern tables"
    "$bin" build --board 4x4 --pattern 6-6-3 --dir "$dir" --quiet
fi

# Starts a server on a free port; sets $url and $server (its pid).
start_server() {
    local log="$work/serve.$RANDOM.log"
    "$bin" serve --port 0 --dir "$dir" >"$log" 2>&1 &
    server=$!
    pids+=("$server")
    url=""
    for _ in $(seq 100); do
        url=$(sed -n 's/^listening on \(http:\/\/127\.0\.0\.1:[0-9]*\)$/\1/p' "$log" | head -1)
        [ -n "$url" ] && return 0
        kill -0 "$server" 2>/dev/null || break
        sleep 0.05
    done
    echo "table serve did not start:" >&2
    cat "$log" >&2
    exit 1
}
stop_server() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
post_time() {  # PATH BODY -> "ms status bytes"
    curl -s -o "$work/body" -w '%{time_total} %{http_code} %{size_download}\n' \
        -H "Host: ${url#http://}" -H 'Content-Type: application/json' -d "$2" "$url$1" |
        awk '{printf "%.1f %s %s\n", $1 * 1000, $2, $3}'
}

echo
quiet
echo "== 2. first load of the page, cold server each time (load average $(load)) =="
for run in 1 2 3; do
    for mode in seq par; do
        start_server
        rm -f "$work/out.json"
        python3 scripts/serve_load.py --url "$url" --page "$mode" --json-out "$work/out.json"
        stop_server
        row "{\"part\": \"page\", \"run\": $run, \"load\": $(load), \"figures\": $(cat "$work/out.json")}"
    done
done
if [ -f tests/browser/node_modules/playwright-core/index.mjs ] && [ -x /usr/bin/chromium ]; then
    echo "chromium, fresh profile each visit, four visits to each of five fresh servers (the first on a cold server):"
    for run in 1 2 3 4 5; do
    start_server
    cat >"$work/load.mjs" <<EOF
import { chromium } from '$PWD/tests/browser/node_modules/playwright-core/index.mjs';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
try {
  for (let i = 0; i < 4; i++) {
    const ctx = await browser.newContext();  // a fresh profile: nothing cached
    const page = await ctx.newPage();
    await page.goto('$url/');
    await page.waitForFunction(() => performance.getEntriesByName('slidetable:first-board').length, null, { timeout: 30000 });
    // board_ms: the page's own mark, set when it drew the first board with its position;
    // seen_ms: when this script saw it (polling and the round trip to the browser added)
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      return { load_ms: nav.loadEventEnd, board_ms: performance.getEntriesByName('slidetable:first-board')[0].startTime, seen_ms: performance.now(), bytes: performance.getEntriesByType('resource').reduce((s, r) => s + r.transferSize, nav.transferSize) };
    });
    console.log(JSON.stringify({ run: $run, visit: i + 1, cold_server: i === 0, ...t }));
    await ctx.close();
  }
} finally {
  await browser.close();
}
EOF
    if timeout 120 node "$work/load.mjs" >"$work/chromium.jsonl"; then
        while read -r line; do
            echo "  $line"
            row "{\"part\": \"chromium\", \"load\": $(load), \"figures\": $line}"
        done <"$work/chromium.jsonl"
    else
        echo "  (the chromium run failed; left out)"
    fi
    stop_server
    done
fi

if [ "$page_only" = 0 ]; then

echo
quiet
echo "== 3. the 3x3 heat map (load average $(load)) =="
heat() {  # CASE HEURISTIC: three calls in a row, the first cold
    local t1 t2 t3
    t1=$(post_time /api/heatmap "{\"heuristic\":\"$2\"}")
    t2=$(post_time /api/heatmap "{\"heuristic\":\"$2\"}")
    t3=$(post_time /api/heatmap "{\"heuristic\":\"$2\"}")
    read -r ms status bytes <<<"$t1"
    echo "$2, $1: first $ms ms (status $status, $bytes bytes), then ${t2%% *} and ${t3%% *} ms"
    row "{\"part\": \"heatmap\", \"case\": \"$1\", \"heuristic\": \"$2\", \"first_ms\": $ms, \"status\": $status, \"bytes\": $bytes, \"cached_ms\": [${t2%% *}, ${t3%% *}]}"
}
start_server
heat "fresh server, its first request (the 3x3 table built in memory too)" manhattan
stop_server
start_server
post_time /api/position '{"board":"1 2 3 4 5 6 7 0 8","shape":"3x3"}' >/dev/null
for h in manhattan linear-conflict pdb; do heat "3x3 table already built" "$h"; done
stop_server

echo
echo "== 1. position lookups, open loop =="
board80="0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"   # 80 moves; 20 to 30 s with 6-6-3 on one core
start_server
post_time /api/position '{"board":"1 2 3 4 5 6 7 8 9 10 0 11","shape":"3x4"}' >/dev/null   # the 3x4 table opened
run() {  # LABEL ARGS...
    local label=$1
    shift
    quiet
    echo "-- $label (load average $(load))"
    rm -f "$work/out.json"
    python3 scripts/serve_load.py --url "$url" --server-pid "$server" --json-out "$work/out.json" "$@"
    row "{\"part\": \"position\", \"label\": \"$label\", \"load\": $(load), \"figures\": $(cat "$work/out.json")}"
}
run "3x3 alone" --shape 3x3 --rate 200 --seconds "$secs"
run "3x4 alone" --shape 3x4 --rate 200 --seconds "$secs"
run "3x3 beside the 4x4 solve" --shape 3x3 --rate 200 --seconds "$secs" --solve "$board80"
run "3x4 beside the 4x4 solve" --shape 3x4 --rate 200 --seconds "$secs" --solve "$board80"
half=$(( (secs + 1) / 2 ))
run "3x3 beside the 4x4 solve" --shape 3x3 --rate 1000 --seconds "$half" --threads 16 --solve "$board80"
run "3x4 beside the 4x4 solve" --shape 3x4 --rate 1000 --seconds "$half" --threads 16 --solve "$board80"
run "3x3 beside the 4x4 solve" --shape 3x3 --rate 2000 --seconds "$half" --threads 32 --solve "$board80"
# past about 4000/s this Python client takes most of a core and is late itself (its late sends grow)
run "3x3 beside the 4x4 solve" --shape 3x3 --rate 4000 --seconds "$half" --threads 32 --solve "$board80"
run "3x3 alone" --shape 3x3 --rate 4000 --seconds "$half" --threads 32
stop_server

fi

if [ "$build_cost" = 1 ]; then
    echo
    echo "== 4. the serve feature's cost (load average $(load)) =="
    timed_build() {  # LABEL TARGET_DIR CARGO_ARGS... : wall, user and sys seconds, crates compiled
        local label=$1 target=$2
        shift 2
        local t0 t1
        quiet
        t0=$(date +%s.%N)
        CARGO_TARGET_DIR=$target /usr/bin/time -f '%U %S' -o "$work/time" cargo build --release --bin table "$@" 2>"$work/build.log"
        t1=$(date +%s.%N)
        local crates waited
        crates=$(grep -c '^ *Compiling ' "$work/build.log" || true)
        waited=$(grep -c 'Blocking waiting' "$work/build.log" || true)
        read -r user sys <"$work/time"
        local wall
        wall=$(echo "$t1 - $t0" | bc -l)
        printf '%s: %.1f s wall, %.1f s user, %.1f s sys, %s crates compiled%s\n' "$label" "$wall" "$user" "$sys" "$crates" \
            "$([ "$waited" = 0 ] || echo ", WAITED for the target directory's lock")"
        row "{\"part\": \"build\", \"label\": \"$label\", \"wall_s\": $wall, \"user_s\": $user, \"sys_s\": $sys, \"crates\": $crates, \"lock_waits\": $waited, \"load\": $(load)}"
    }
    size_row() {  # LABEL BINARY
        local stripped
        strip -o "$work/stripped" "$2"
        stripped=$(stat -c %s "$work/stripped")
        printf '%s: %s bytes, %s stripped\n' "$1" "$(stat -c %s "$2")" "$stripped"
        row "{\"part\": \"size\", \"label\": \"$1\", \"bytes\": $(stat -c %s "$2"), \"stripped\": $stripped}"
    }
    noserve=$dir/target-noserve
    clean=$dir/target-clean
    rm -rf "$noserve" "$clean"
    timed_build "clean build, default features (serve on)" "$clean"
    rm -rf "$clean"
    timed_build "clean build, -p slidetable-cli --no-default-features (serve off)" "$noserve" -p slidetable-cli --no-default-features
    cargo build --release --quiet --bin table   # up to date before the relink is timed
    touch cli/src/main.rs
    timed_build "relink after touching cli/src/main.rs, serve on" "$PWD/target"
    touch cli/src/main.rs
    timed_build "relink after touching cli/src/main.rs, serve off" "$noserve" -p slidetable-cli --no-default-features
    size_row "binary, serve on" target/release/table
    size_row "binary, serve off" "$noserve/release/table"
fi

echo
echo "== summary =="
python3 - "$rows" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("| measurement | figures |")
print("|---|---|")
for r in (r for r in rows if r["part"] == "position"):
    f = r["figures"]
    solve = ""
    if "solve_board" in f:
        ok = f["solve_info_samples_without_job"] == 0 and f["solve_job_at_end"]
        again = f", {f['solve_finished_during_run']} finished and started again" if f["solve_finished_during_run"] else ""
        solve = (f"; a solve running at all {f['solve_info_samples']} /api/info samples: "
                 f"{'yes' if ok else 'NO, ' + str(f['solve_info_samples_without_job']) + ' without'}{again}")
    print(f"| {r['label']}, {f['rate']:.0f}/s for {f['seconds']:g} s | p50 {f['p50_ms']:.2f} ms, p99 {f['p99_ms']:.2f} ms "
          f"(from the actual send {f['service_p99_ms']:.2f} ms), max {f['max_ms']:.1f} ms; {f['throughput']:.0f}/s achieved, "
          f"{f['errors']} errors{solve}; other processes {f['other_cpu']:.0%} of a core |")
pages = [r["figures"] for r in rows if r["part"] == "page"]
for mode in ("seq", "par"):
    ms = [p["ms"] for p in pages if p["mode"] == mode]
    if ms:
        p = next(p for p in pages if p["mode"] == mode)
        print(f"| first load, cold server, {'one connection' if mode == 'seq' else 'parallel'} ({len(ms)} runs) | "
              f"{' / '.join(f'{m:.1f}' for m in ms)} ms; {p['files']} files, {p['wire_bytes']:,} bytes received "
              f"({'/'.join(p['encodings'])}) against {p['uncompressed_bytes']:,} uncompressed |")
for cold in (True, False):
    fs = [r["figures"] for r in rows if r["part"] == "chromium" and r["figures"]["cold_server"] == cold]
    if fs:
        board = sorted(f["board_ms"] for f in fs)
        seen = sorted(f.get("seen_ms", f["board_ms"]) for f in fs)
        each = " / ".join(f"{f['board_ms']:.0f}" for f in fs)
        load = sorted(f["load_ms"] for f in fs)
        print(f"| chromium, {'cold server' if cold else 'warm server'} ({len(fs)} visits) | first board drawn: median "
              f"{board[len(board) // 2]:.0f} ms ({each}); seen by the script {seen[len(seen) // 2]:.0f} ms; "
              f"load event median {load[len(load) // 2]:.0f} ms; {fs[0]['bytes']:,} bytes transferred |")
for r in (r for r in rows if r["part"] == "heatmap"):
    print(f"| heat map, {r['heuristic']}, 3x3, {r['case']} | first {r['first_ms']} ms ({r['bytes']:,} bytes), "
          f"then {' and '.join(map(str, r['cached_ms']))} ms |")
for r in (r for r in rows if r["part"] in ("build", "size")):
    if r["part"] == "build":
        print(f"| {r['label']} | {r['wall_s']:.0f} s wall ({r['user_s']:.0f} s user), {r['crates']} crate{'s' if r['crates'] != 1 else ''} compiled |")
    else:
        print(f"| {r['label']} | {r['bytes']:,} bytes, {r['stripped']:,} stripped |")
EOF
