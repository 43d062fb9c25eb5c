#!/usr/bin/env bash
# Tables bigger than memory (issue 48): the out-of-core build against the in-memory one, byte for
# byte, with the figures the issue asks for. Each run appends a line to data/out-of-core-runs.tsv
# (commit, machine, run, seconds, peak RSS, disk read and written, identical or not), so a
# measurement cut short goes on where it stopped.
#
#   scripts/out_of_core.sh [--quick] [--board 2x7] [--dir DIR] [RUN...]
#
# RUNs (default: all of them, in this order):
#   small     the 12-cell boards (3x4, 2x6) in memory and out of core with --max-memory 64M
#   memory    BOARD in memory (the reference file; needs about 16 GiB for the 2x7)
#   budget    BOARD out of core with --max-memory 4G
#   laptop    BOARD with no flag inside a memory control group of 6 GiB (page cache included, as
#             on an 8 GB laptop: cgroup v1 memory.limit_in_bytes, as root), which must go out of
#             core by itself
# --quick is `small` alone. DIR (default target/ooc) holds the tables: 11 GB each for the 2x7,
# and the work directories (27 GB at the peak). Timings are whole-process (/usr/bin/time); disk
# traffic is what the kernel counted for the process (/proc/PID/io: read_bytes, what came from the
# disk rather than the page cache; write_bytes less cancelled_write_bytes, what was written and not
# deleted before it could reach the disk) beside what the build itself says it read and wrote.
# The out-of-core runs keep the build's line a level (time, disk read and written so far) in
# DIR/RUN.err: scripts/level_traffic.py makes the per-level table of docs/scale.md from it.
set -euo pipefail
cd "$(dirname "$0")/.."
board=2x7; dir=target/ooc; runs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) runs=(small) ;;
    --board) board="$2"; shift ;;
    --dir) dir="$2"; shift ;;
    small|memory|budget|laptop) runs+=("$1") ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[ ${#runs[@]} -eq 0 ] && runs=(small memory budget laptop)
cargo build --release -q --bin table
T="$PWD/target/release/table"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log=data/out-of-core-runs.tsv
[ -f "$log" ] || printf 'date\tcommit\tmachine\trun\tseconds\tpeak_rss_mib\tdisk_read_gb\tdisk_written_gb\tbuild_says\tidentical\n' > "$log"
commit=$(git rev-parse --short HEAD)$(git diff --quiet || echo +)
machine="$(nproc) cores $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
say() { printf '%s  [load %s]\n' "$*" "$(cut -d' ' -f1-3 /proc/loadavg)"; }

# watch DIR FILE: the largest DIR grows to, in bytes, written to FILE every 5 s (until killed)
watch_du() {
  local max=0 now
  while true; do
    now=$(du -sb "$1" 2>/dev/null | cut -f1) || true
    now=${now:-0}
    if [ "$now" -gt "$max" ]; then max=$now; echo "$max" > "$2"; fi
    sleep 5
  done
}

# run LABEL REFERENCE OUTPUT command...: times it, reads its disk counters, compares its output;
# with WORK set, the largest that work directory grew to
run() {
  local label="$1" reference="$2" output="$3"; shift 3
  local times="$dir/$label.time" io="$dir/$label.io"
  rm -f "$output" "$dir/$label.du"
  local watcher=""
  if [ -n "${WORK:-}" ]; then watch_du "$WORK" "$dir/$label.du" & watcher=$!; fi
  # the command's own disk counters, read by a wrapper shell just before it exits
  /usr/bin/time -f "%e %M" -o "$times" bash -c '"$@" > "'"$dir/$label.out"'"; status=$?; cat /proc/$$/io > "'"$io"'"; exit $status' _ "$@" \
    2> "$dir/$label.err" || { [ -z "$watcher" ] || kill "$watcher" 2>/dev/null || true; tail -3 "$dir/$label.err" >&2; return 1; }
  if [ -n "$watcher" ]; then kill "$watcher" 2>/dev/null || true; fi
  local peak=""
  [ -f "$dir/$label.du" ] && peak=", work directory at most $(awk '{printf "%.1f GB", $1/1e9}' "$dir/$label.du")"
  read -r secs kib < "$times"
  local rb wb
  rb=$(awk '/^read_bytes/ {printf "%.1f", $2/1e9}' "$io")
  # written: what was dirtied, less what was deleted before it reached the disk
  wb=$(awk '/^write_bytes/ {w=$2} /^cancelled_write_bytes/ {c=$2} END {printf "%.1f", (w-c)/1e9}' "$io")
  local says
  says=$(grep -o 'out of core in .*' "$dir/$label.out" | sed 's/.*: //' || true)
  local same=reference
  if [ -n "$reference" ]; then
    if cmp -s "$reference" "$output"; then same=yes; else same=NO; fi
  fi
  say "$(printf '%-10s %8.1f s  %7.0f MiB  disk %s GB read, %s GB written  (%s%s)  identical: %s' \
    "$label" "$secs" "$((kib / 1024))" "$rb" "$wb" "${says:-in memory}" "$peak" "$same")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$commit" "$machine" "$label" "$secs" \
    "$((kib / 1024))" "$rb" "$wb" "${says:-in memory}$peak" "$same" >> "$log"
  [ "$same" != NO ]
}

for r in "${runs[@]}"; do
  case "$r" in
    small)
      for b in 3x4 2x6; do
        run "$b-memory" "" "$dir/$b.mem.table" "$T" build --board "$b" --bits 2 -q -o "$dir/$b.mem.table"
        run "$b-64M" "$dir/$b.mem.table" "$dir/$b.ooc.table" \
          "$T" build --board "$b" --bits 2 --max-memory 64M --work-dir "$dir/$b.work" -q -o "$dir/$b.ooc.table"
      done ;;
    memory)
      run "$board-memory" "" "$dir/$board.mem.table" "$T" build --board "$board" -q -o "$dir/$board.mem.table" ;;
    budget)
      WORK="$dir/$board.work" run "$board-4G" "$dir/$board.mem.table" "$dir/$board.ooc.table" \
        "$T" build --board "$board" --max-memory 4G --work-dir "$dir/$board.work" -o "$dir/$board.ooc.table"
      rm -f "$dir/$board.ooc.table" ;;
    laptop)
      cg=/sys/fs/cgroup/memory/slidetable-laptop
      if [ ! -w /sys/fs/cgroup/memory ]; then say "skipped the laptop run: no writable cgroup v1 memory controller"; continue; fi
      mkdir -p "$cg"
      echo $((6 << 30)) > "$cg/memory.limit_in_bytes"
      # the page cache of the files written before counts against the group only once touched;
      # dropped first so that every run starts alike
      sync; echo 3 > /proc/sys/vm/drop_caches
      WORK="$dir/$board.laptop.table.work" run "$board-6GiB-cgroup" "$dir/$board.mem.table" "$dir/$board.laptop.table" \
        bash -c 'echo $$ > '"$cg"'/cgroup.procs; exec "$@"' _ "$T" build --board "$board" -o "$dir/$board.laptop.table"
      say "cgroup peak: $(awk '{printf "%.1f GiB", $1/1073741824}' "$cg/memory.max_usage_in_bytes")"
      rm -f "$dir/$board.laptop.table" ;;
  esac
done
