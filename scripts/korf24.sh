#!/usr/bin/env bash
# The 24-puzzle: Korf & Felner's 50 random instances (data/korf24.tsv), solved optimally by IDA*
# with pattern databases, resumably: one result line per instance is appended to a results file
# as it finishes (Ctrl-C or a kill stops the run, the search in progress too, and loses at most
# that instance; astar-ida saves its progress as it stops; a rerun skips what is done under the
# same configuration), each beside the published effort of the best methods
# (data/korf24-effort.tsv), then totals, means, medians and the ratio to each published column.
# Every length is checked against the published optimum.
#
# Usage: scripts/korf24.sh [options] [ID ...]
#   --easiest N      the N easiest instances by published effort (Clausecker's small-t column),
#                    easiest first (default: 5)
#   --pattern P      the partition or catalogue (default: 6-6-6-6; small-t: Clausecker's 7
#                    partitions); its tables are built when missing
#   --zero           zero-aware tables (built with --zero when missing)
#   --prune L        move pruning: forbid duplicate strings of up to L moves (default: 16; 2 is
#                    the move straight back only; the machine is made when missing)
#   --algorithm A    idastar (default) or astar-ida (A* to --max-memory, then IDA* below its
#                    open list; see `table solve --help`). astar-ida keeps a checkpoint per
#                    instance in --progress, so an instance longer than a session is stopped
#                    and resumed: a search stopped by Ctrl-C or a kill of this script saves its
#                    progress, one killed otherwise loses about a minute
#   --max-memory M   astar-ida's A* budget (default: table solve's, 1G)
#   --order ORDER    estimate (default) or fixed (Korf & Felner's order: with --threads 1
#                    --prune 2 and the classic tables, their published generated counts plus one)
#   --jobs J         instances solved at a time (default: 1), each on --threads threads
#   --threads N      threads for each instance (default: all cores). Both cores on one instance
#                    cost no more than one instance per core: the threads take each iteration's
#                    subtrees in the search's order. Instances 44 25 32 1 37 28 22 took 233.1 s
#                    one after the other on 2 threads, against 235.6 s (half their summed times)
#                    on one thread each, two at a time (Intel Xeon VM, 2026-12-06)
#   --limit SECONDS  give an instance up after this long (default: 7200); it is not recorded
#   --dir DIR        where the tables are kept (default: tables/)
#   --results FILE   the results file (default: data/korf24-results.tsv)
#   --progress DIR   astar-ida's checkpoints, ID.checkpoint, with ID.commits (the commit of each
#                    run of the instance) (default: data/korf24-progress/). A finished instance's
#                    line gives its time over every run (to each run's last save) and its commits
#   --summary        print the summary of the results file only
#   ID ...           instance numbers instead of --easiest
#
# The results file starts with a comment line per run (commit, machine, date) and holds one line
# per instance: id, optimal, moves, expanded, generated, seconds, configuration, commit (commits,
# comma-separated, for an instance resumed across runs).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=tables
results=data/korf24-results.tsv
progress=data/korf24-progress
pattern=6-6-6-6
zero=0
prune=16
order=estimate
algorithm=idastar
max_memory=""
jobs=1
threads=$(nproc)
limit=7200
easiest=5
summary_only=0
ids=()
while [ $# -gt 0 ]; do
  case "$1" in
    --easiest) easiest="$2"; shift 2 ;;
    --pattern) pattern="$2"; shift 2 ;;
    --zero) zero=1; shift ;;
    --prune) prune="$2"; shift 2 ;;
    --order) order="$2"; shift 2 ;;
    --algorithm) algorithm="$2"; shift 2 ;;
    --max-memory) max_memory="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --limit) limit="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    --progress) progress="$2"; shift 2 ;;
    --summary) summary_only=1; shift ;;
    -*) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    *) ids+=("$1"); shift ;;
  esac
done

config="pattern=$pattern zero=$zero prune=$prune order=$order threads=$threads"
# the default algorithm keeps the configuration of earlier results
[ "$algorithm" != idastar ] && config="$config algorithm=$algorithm${max_memory:+ max-memory=$max_memory}"
if [ $summary_only -eq 0 ]; then
  cargo build --release --quiet
  table=target/release/table
  mkdir -p "$dir" "$progress"
  if [ ${#ids[@]} -eq 0 ]; then
    mapfile -t ids < <(awk -F'\t' '$1 ~ /^[0-9]+$/' data/korf24-effort.tsv | sort -t$'\t' -k6,6n | head -n "$easiest" | cut -f1)
  fi
  # the tables and the machine, made once
  zflag=()
  [ $zero -eq 1 ] && zflag=(--zero)
  infix=""
  [ $zero -eq 1 ] && infix="zero-"
  # A group that is a mirror or rotation of another is looked up in that one's table and has no
  # file of its own, so the build's list of the files it wrote (the lines ending in `-> FILE`) is
  # kept beside them, and the tables are built again only when that list or one of its files is
  # missing.
  built="$dir/5x5-blank-first-${infix}${pattern}.built"
  need=0
  if [ -f "$built" ]; then
    while read -r file; do [ -f "$file" ] || need=1; done < "$built"
  else
    need=1
  fi
  if [ $need -eq 1 ]; then
    echo "building the $pattern ${infix}tables into $dir/ ..." >&2
    rm -f "$built"
    $table build --board 5x5 --goal blank-first --pattern "$pattern" "${zflag[@]}" --dir "$dir" -q |
      tee /dev/stderr | sed -n 's/.* -> //p' > "$built.tmp"
    [ -s "$built.tmp" ] || { echo "korf24.sh: the build wrote no table" >&2; exit 1; }
    mv "$built.tmp" "$built"
  fi
  if [ "$prune" -gt 2 ] && [ ! -f "$dir/5x5-moves-$prune.fsm" ]; then
    echo "making the move-pruning machine for strings of up to $prune moves ..." >&2
    $table build --board 5x5 --prune "$prune" --dir "$dir" >&2
  fi
  commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src cli Cargo.toml Cargo.lock || echo "+dirty")
  machine="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
  [ -f "$results" ] || printf "# id\toptimal\tmoves\texpanded\tgenerated\tseconds\tconfiguration\tcommit\n" > "$results"
  printf "# run %s: commit %s, %s, %s\n" "$(date -u +%Y-%m-%dT%H:%MZ)" "$commit" "$machine" "$config" >> "$results"
  todo=()
  for id in "${ids[@]}"; do
    if awk -F'\t' -v id="$id" -v c="$config" '$1 == id && $7 == c { found = 1 } END { exit !found }' "$results"; then
      echo "instance $id: done already ($config)" >&2
    else
      awk -F'\t' -v id="$id" '$1 == id { found = 1 } END { exit !found }' data/korf24.tsv ||
        { echo "no instance $id in data/korf24.tsv" >&2; exit 2; }
      todo+=("$id")
    fi
  done
  # one instance: solved, checked, and its line appended (a single short write, whole)
  solve_one() {
    local id=$1 line optimal board json code moves expanded generated secs checkpoint=() commits=$commit
    line=$(awk -F'\t' -v id="$id" '$1 == id' data/korf24.tsv)
    optimal=$(cut -f2 <<< "$line")
    board=$(cut -f4 <<< "$line")
    if [ "$algorithm" = astar-ida ]; then
      # one checkpoint per instance and configuration
      local stem
      stem="$progress/$id-$(printf '%s' "$config" | cksum | cut -d' ' -f1)"
      if [ -f "$stem.checkpoint" ]; then
        echo "instance $id (optimal $optimal): resuming $stem.checkpoint ($(grep -E '^(bound|done|seconds) ' "$stem.checkpoint" | tr '\n' ' '))" >&2
      else
        echo "instance $id (optimal $optimal) ..." >&2
        : > "$stem.commits"
      fi
      grep -qx "$commit" "$stem.commits" 2>/dev/null || echo "$commit" >> "$stem.commits"
      commits=$(paste -sd, "$stem.commits")
      checkpoint=(--checkpoint "$stem.checkpoint")
    else
      echo "instance $id (optimal $optimal) ..." >&2
    fi
    set +e
    json=$(timeout "$limit" $table solve $board --goal blank-first -H pdb --pattern "$pattern" --dir "$dir" \
      --prune "$prune" --order "$order" --threads "$threads" --algorithm "$algorithm" \
      ${max_memory:+--max-memory "$max_memory"} "${checkpoint[@]}" --json)
    code=$?
    set -e
    if [ $code -eq 124 ]; then
      if [ ${#checkpoint[@]} -gt 0 ]; then
        echo "instance $id: over the limit of $limit s; its checkpoint is kept, and a rerun goes on from it" >&2
      else
        echo "instance $id: over the limit of $limit s, not recorded" >&2
      fi
      return 0
    elif [ $code -gt 128 ]; then
      # killed (by a signal, its number 128 less): the run stops here rather than go on to the
      # next instance (xargs stops at a 255)
      echo "instance $id: table solve stopped by signal $((code - 128)); the run stops (a rerun resumes it)" >&2
      return 255
    elif [ $code -ne 0 ]; then
      echo "instance $id: table solve exited $code" >&2
      return 1
    fi
    moves=$(grep -o '"moves":[0-9]*' <<< "$json" | cut -d: -f2)
    expanded=$(grep -o '"expanded":[0-9]*' <<< "$json" | cut -d: -f2)
    generated=$(grep -o '"generated":[0-9]*' <<< "$json" | cut -d: -f2)
    secs=$(grep -o '"seconds":[0-9.e-]*' <<< "$json" | cut -d: -f2)
    if [ "$moves" != "$optimal" ]; then
      echo "instance $id: $moves moves, but the optimum is $optimal: WRONG" >&2
      return 1
    fi
    printf "%s\t%s\t%s\t%s\t%s\t%.3f\t%s\t%s\n" "$id" "$optimal" "$moves" "$expanded" "$generated" "$secs" "$config" "$commits" >> "$results"
    [ ${#checkpoint[@]} -eq 0 ] || rm -f "${checkpoint[1]%.checkpoint}.commits"
    echo "instance $id: $moves moves, $expanded expanded, $secs s" >&2
  }
  export -f solve_one
  export table dir pattern prune order threads limit config commit results algorithm max_memory progress
  if [ ${#todo[@]} -gt 0 ]; then
    # in the background, waited for: a TERM or INT to this script (kill, Ctrl-C) then stops the
    # instances in progress and every one after them, where xargs would go on alone
    printf "%s\n" "${todo[@]}" | xargs -P "$jobs" -I{} bash -c 'solve_one {}' &
    xargs_pid=$!
    stop_run() {
      local tree=() p
      descendants() { local c; for c in $(pgrep -P "$1"); do tree+=("$c"); descendants "$c"; done; }
      descendants "$xargs_pid"
      kill "$xargs_pid" 2>/dev/null
      # each search through its timeout, which passes the signal on once: astar-ida saves its
      # progress at the first, and a second would end it before that
      for p in "${tree[@]}"; do
        [ "$(ps -o comm= -p "$p")" = timeout ] && kill "$p" 2>/dev/null
      done
      wait 2>/dev/null
      echo "korf24.sh: stopped; the instances finished are in $results, and a rerun with the same options goes on$([ "$algorithm" = astar-ida ] && echo " from the checkpoints in $progress")" >&2
      exit 130
    }
    trap stop_run INT TERM
    wait "$xargs_pid"
    trap - INT TERM
  fi
fi

# the summary: every configuration in the results file, beside the published columns
python3 - "$results" data/korf24-effort.tsv <<'PY'
import statistics, sys
from collections import defaultdict

results, effort = sys.argv[1], sys.argv[2]
pub = {}
cols = ["kf_gen_6666r", "kf_apdb_exp", "kf_zpdb_exp", "smallt_zpdb_exp", "smallc_fsm20_exp", "doebbelin_maxof"]
for line in open(effort):
    if line.startswith("#") or line.startswith("id"):
        continue
    f = line.rstrip("\n").split("\t")
    pub[int(f[0])] = dict(zip(cols, map(int, f[2:8])))
runs = defaultdict(list)
for line in open(results):
    if line.startswith("#"):
        continue
    f = line.rstrip("\n").split("\t")
    runs[f[6]].append((int(f[0]), int(f[3]), int(f[4]), float(f[5])))
for config, rows in runs.items():
    rows.sort(key=lambda r: pub[r[0]]["smallt_zpdb_exp"])
    print(f"\n{config}: {len(rows)} instances")
    print(f"{'id':>4} {'expanded':>16} {'generated':>16} {'seconds':>10} {'small-t exp':>16} {'ratio':>7} {'K&F gen':>16}  target")
    for i, e, g, s in rows:
        p = pub[i]
        ok = "met" if e <= p["smallt_zpdb_exp"] else "MISSED"
        print(f"{i:>4} {e:>16,} {g:>16,} {s:>10.1f} {p['smallt_zpdb_exp']:>16,} {e / p['smallt_zpdb_exp']:>7.3f} {p['kf_gen_6666r']:>16,}  {ok}")
    exp = [r[1] for r in rows]
    gen = [r[2] for r in rows]
    sec = [r[3] for r in rows]
    print(f"total: {sum(exp):,} expanded, {sum(gen):,} generated, {sum(sec):,.1f} s; "
          f"mean {statistics.mean(exp):,.0f} expanded, {statistics.mean(sec):,.1f} s; "
          f"median {statistics.median(exp):,.0f} expanded, {statistics.median(sec):,.1f} s")
    print("ratio to each published column over these instances (sum of ours / sum of theirs; geometric mean of the per-instance ratios):")
    for c in cols:
        ours = gen if c == "kf_gen_6666r" else exp
        theirs = [pub[r[0]][c] for r in rows]
        geo = statistics.geometric_mean([a / b for a, b in zip(ours, theirs)])
        kind = "generated" if c == "kf_gen_6666r" else "expanded"
        print(f"  {c:<18} ({kind:>9}): {sum(ours) / sum(theirs):8.4f}  geo {geo:8.4f}")
    missed = sum(1 for r in rows if r[1] > pub[r[0]]["smallt_zpdb_exp"])
    print(f"target (expanded <= small-t zero-aware on every instance run): {'met' if missed == 0 else f'missed on {missed}'}")
PY
