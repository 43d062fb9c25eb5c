#!/usr/bin/env bash
# What fat link-time optimisation buys at run time: the `table` binary built twice from this
# checkout, with the release profile (opt-level 3, 16 codegen units, no LTO across crates) and
# with fat LTO and one codegen unit (the profile the project shipped with before issue 51); each
# workload then runs alternately on the two, and the medians are printed.
#
#   3x3-build   `table build` of the 8-puzzle (seconds, whole process), 15 runs each
#   3x4-build   `table build --board 3x4` (239.5 M states), 5 runs each
#   korf100     `table solve --batch --instances korf100 -H pdb --pattern 6-6-3`, 3 runs each:
#               the searches' summed seconds from its `# total` line
#   2x7-build   `table build --board 2x7` (43.6 G states at two bits: a 10.9 GB file, about 16
#               GiB of memory, about 6 minutes a run), only when named in WORKLOADS
#
# Usage: scripts/lto_bench.sh [DIR]   (DIR for the work, default target/lto-bench; about 15
# minutes on 2 cores, most of it the two optimised builds). WORKLOADS picks the workloads and
# their runs each, default "3x3-build:15 3x4-build:5 korf100:3"; WORKLOADS="2x7-build:1" for the
# 2x7 (about 25 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-target/lto-bench}
mkdir -p "$out"
echo "== building without LTO (the release profile) and with fat LTO ($(date +%T))" >&2
cargo build --release --locked --quiet --bin table
CARGO_TARGET_DIR="$out/target-lto" CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
  cargo build --release --locked --quiet --bin table
none=$root/target/release/table
fat=$(cd "$out" && pwd)/target-lto/release/table
cd "$out"
"$none" build --board 4x4 --goal blank-first --pattern 6-6-3 -q > /dev/null

seconds() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
korf() { "$1" solve --batch --instances korf100 -H pdb --pattern 6-6-3 | tail -1 | sed 's/.*search \([0-9.]*\) s summed.*/\1/'; }
measure() { # workload binary -> one figure
  case $1 in
    3x3-build) seconds "$2" build -q -o x.table ;;
    3x4-build) seconds "$2" build --board 3x4 -q -o x.table ;;
    2x7-build) seconds "$2" build --board 2x7 -q -o x.table ;;
    korf100) korf "$2" ;;
  esac
}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); commit $(git -C "$root" rev-parse --short HEAD)"
for spec in ${WORKLOADS:-3x3-build:15 3x4-build:5 korf100:3}; do
  name=${spec%%:*}; runs=${spec##*:}
  : > "$name.none"; : > "$name.fat"
  for _ in $(seq "$runs"); do
    measure "$name" "$none" >> "$name.none"
    measure "$name" "$fat" >> "$name.fat"
  done
  a=$(median < "$name.none"); b=$(median < "$name.fat")
  printf '%-10s runs %2d   no LTO %8.4f s   fat LTO %8.4f s   fat / none %.3f\n' "$name" "$runs" "$a" "$b" "$(echo "$b / $a" | bc -l)"
done
rm -f x.table
