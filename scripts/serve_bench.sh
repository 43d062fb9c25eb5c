#!/usr/bin/env bash
# `table serve` measured against its targets, on this machine (loopback only):
#   1. position lookups on 3x3 and 3x4 at 200 requests/s (open loop, scripts/serve_load.py) while a
#      4x4 solve runs beside them, then at higher rates for the most the server sustains;
#   2. the page's first load (all its files, compressed), by curl and in chromium;
#   3. the 3x3 heat map, cold and cached.
# Tables go to /tmp/serve-bench (the 3x4 table, 240 MB, and the 4x4 6-6-3 pattern tables).
# Usage: scripts/serve_bench.sh [SECONDS_PER_RUN]   (default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
dir=/tmp/serve-bench
mkdir -p "$dir"
cargo build --release --quiet --bin table
bin=$PWD/target/release/table
[ -f "$dir/3x4-blank-last.table" ] || "$bin" build --board 3x4 -o "$dir/3x4-blank-last.table" >/dev/null
[ -f "$dir/4x4-blank-last-tiles-1-2-3.table" ] || "$bin" build --board 4x4 --pattern 6-6-3 --dir "$dir" >/dev/null

out=$(mktemp -d)
"$bin" serve --port 0 --dir "$dir" >"$out/serve.log" 2>&1 &
server=$!
solver=""
trap 'kill $server $solver 2>/dev/null || true; rm -rf "$out"' EXIT
for _ in $(seq 50); do [ -s "$out/serve.log" ] && break; sleep 0.1; done
url=$(head -1 "$out/serve.log" | sed 's/^listening on //')
host=${url#http://}
echo "server: $url ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
post() { curl -s -H "Content-Type: application/json" -d "$2" "$url$1"; }

echo
echo "== first load of the page (cold server, all files, gzip/br) =="
files=$(curl -s "$url/" | grep -o '/assets/[a-z]*\.\(js\|css\)' | sort -u)
modules=$(for f in $files; do curl -s "$url$f" | { grep -o "from '\./[a-z]*\.js'" || true; } | sed "s/from '\.\//\/assets\//; s/'//"; done | sort -u)
all=$(printf '%s\n' / $files $modules | sort -u)
raw=0; wire=0
for f in $all; do
    raw=$((raw + $(curl -s "$url$f" | wc -c)))
    wire=$((wire + $(curl -s -H 'Accept-Encoding: br, gzip' "$url$f" | wc -c)))
done
echo "$(echo "$all" | wc -l) files: $raw bytes, $wire on the wire compressed"
args=()
for f in $all; do args+=(-H 'Accept-Encoding: br, gzip' -o /dev/null "$url$f"); done
for run in 1 2 3; do
    t0=$(date +%s.%N); curl -s "${args[@]}"; t1=$(date +%s.%N)
    t2=$(date +%s.%N); curl -s --parallel --no-progress-meter "${args[@]}" 2>/dev/null; t3=$(date +%s.%N)
    echo "run $run: one connection in turn $(echo "($t1 - $t0) * 1000" | bc -l | cut -c1-5) ms, in parallel $(echo "($t3 - $t2) * 1000" | bc -l | cut -c1-5) ms"
done
if [ -d tests/browser/node_modules/playwright-core ] && command -v chromium >/dev/null; then
    cat >"$out/load.mjs" <<EOF
import { chromium } from '$PWD/tests/browser/node_modules/playwright-core/index.mjs';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (let i = 0; i < 5; i++) {
  const ctx = await b.newContext();
  const p = await ctx.newPage();
  await p.goto('$url/');
  await p.waitForFunction(() => document.querySelector('#distance').dataset.distance);
  const t = await p.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    return { load: n.loadEventEnd, board: performance.now() };
  });
  console.log('chromium, fresh profile: load event ' + t.load.toFixed(0) + ' ms, board drawn ' + t.board.toFixed(0) + ' ms');
  await ctx.close();
}
await b.close();
EOF
    node "$out/load.mjs"
fi

echo
echo "== the 3x3 heat map =="
for h in manhattan manhattan linear-conflict; do
    t=$(curl -s -o /dev/null -w '%{time_total}' -H "Content-Type: application/json" -d "{\"heuristic\":\"$h\"}" "$url/api/heatmap")
    echo "$h: $(echo "$t * 1000" | bc -l | cut -c1-6) ms"
done

echo
echo "== position lookups, alone =="
post /api/position '{"board":"1 2 3 4 5 6 7 8 9 10 0 11","shape":"3x4"}' >/dev/null   # the 3x4 table opened
for shape in 3x3 3x4; do python3 scripts/serve_load.py --url "$url" --shape $shape --rate 200 --seconds "$secs"; done

echo
echo "== position lookups while a 4x4 solve runs =="
# IDA* with misplaced tiles on a board 56 moves from the goal: far longer than the runs below
# (with Manhattan it takes 1 s, with the pattern tables milliseconds)
board=$(python3 -c "import sys; sys.path.insert(0, 'scripts'); from serve_load import walk_boards; print(walk_boards('4x4', 1, 1, 1000)[0])")
curl -sN -H "Content-Type: application/json" \
    -d "{\"board\":\"$board\",\"shape\":\"4x4\",\"heuristic\":\"hamming\"}" "$url/api/jobs/solve" >"$out/solve.log" &
solver=$!
sleep 1
echo "job running: $(curl -s "$url/api/info" | python3 -c 'import json,sys; print(json.load(sys.stdin)["job"])')"
for shape in 3x3 3x4; do python3 scripts/serve_load.py --url "$url" --shape $shape --rate 200 --seconds "$secs"; done
for rate in 1000 2000; do python3 scripts/serve_load.py --url "$url" --shape 3x3 --rate $rate --seconds 10 --threads 16; done
echo "job still running: $(curl -s "$url/api/info" | python3 -c 'import json,sys; print(json.load(sys.stdin)["job"])')"
echo "progress events received by the solve's client: $(grep -c '^event: progress' "$out/solve.log"), the last: $(grep '^data: {"generated"' "$out/solve.log" | tail -1)"
echo "cancelled: $(post /api/jobs/cancel '{}')"
