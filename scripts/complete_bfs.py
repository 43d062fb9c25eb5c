#!/usr/bin/env python3
"""The first levels of a board too big for this machine's disk, searched here and checked against a
published complete search (issue 61): `table build --max-depth` out of core, its distribution
compared depth by depth with Tarakanov's counts (``data/published/BOARD-tarakanov.txt``, or
``--reference``).

    scripts/complete_bfs.py [--board 3x5] [--max-depth 40] [--dir target/bfs] [--max-memory SIZE]

The build keeps its levels in DIR/BOARD.work and stops after MAX_DEPTH; run again, it goes on from
its last complete level (a session cut short loses at most the level under way), and with a larger
--max-depth it searches deeper. Each run appends a line to data/complete-bfs-runs.tsv (date, commit,
machine, board, depths, whole-process seconds, peak memory, the work directory's peak and final
disk, the build's traffic, how many levels equal the published counts) and writes
data/complete-bfs-BOARD.tsv (every depth: our count, the published one, equal or not) and
data/complete-bfs-BOARD-levels.tsv (each level's time and traffic, from the build's log, for the
levels this run found). Exit status 1 when a level differs.

Needs GNU time (/usr/bin/time) for the peak memory; the 3x5 to depth 40 needs about 16 GiB of
memory and 30 GB of disk.
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def allocated(path: Path) -> int:
    """Bytes the files under ``path`` take on their disk (a sparse file counts what it holds)."""
    total = 0
    for dirpath, _, files in os.walk(path):
        for f in files:
            try:
                total += os.stat(os.path.join(dirpath, f)).st_blocks * 512
            except FileNotFoundError:
                pass  # a temporary file renamed meanwhile
    return total


def reference_counts(path: Path) -> dict[int, int]:
    counts = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            depth, states = line.split()
            counts[int(depth)] = int(states.replace(",", ""))
    return counts


def machine() -> str:
    mem = next(int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal"))
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    return f"{os.cpu_count()} cores {mem / 1048576:.0f} GiB {model}"


def commit() -> str:
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    dirty = subprocess.run(["git", "diff", "--quiet"], cwd=ROOT).returncode != 0
    return head.strip() + ("+" if dirty else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", default="3x5")
    ap.add_argument("--max-depth", type=int, default=40)
    ap.add_argument("--dir", default="target/bfs", help="where the work directory goes (default target/bfs)")
    ap.add_argument("--max-memory", help="passed to table build (default: what it finds available)")
    ap.add_argument("--reference", help="the published counts (default data/published/BOARD-tarakanov.txt)")
    ap.add_argument("--bin", help="the table binary to run (default: cargo build --release's), for a run of hours "
                    "that later builds must not replace")
    args = ap.parse_args()
    made_by = commit()

    reference = Path(args.reference) if args.reference else ROOT / "data" / "published" / f"{args.board}-tarakanov.txt"
    if not reference.exists():
        print(f"no published counts at {reference}: give --reference", file=sys.stderr)
        return 2
    published = reference_counts(reference)
    if args.bin:
        table = Path(args.bin).resolve()
    else:
        subprocess.run(["cargo", "build", "--release", "-q", "--bin", "table"], cwd=ROOT, check=True)
        table = ROOT / "target" / "release" / "table"
    out_dir = (ROOT / args.dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    work = out_dir / f"{args.board}.work"
    log = out_dir / f"{args.board}.err"
    times = out_dir / f"{args.board}.time"

    command = [str(table), "build", "--board", args.board, "--max-depth", str(args.max_depth), "--json",
               "--work-dir", str(work), "-o", str(out_dir / f"{args.board}.table")]
    if args.max_memory:
        command += ["--max-memory", args.max_memory]
    print(" ".join(command), flush=True)

    peak_disk = [allocated(work) if work.exists() else 0]
    done = threading.Event()

    def watch() -> None:
        while not done.wait(5):
            peak_disk[0] = max(peak_disk[0], allocated(work) if work.exists() else 0)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    started = time.time()
    with open(log, "w") as err:
        run = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", str(times)] + command,
                             stdout=subprocess.PIPE, stderr=err, text=True)
    done.set()
    watcher.join()
    final_disk = allocated(work) if work.exists() else 0
    peak_disk[0] = max(peak_disk[0], final_disk)
    if run.returncode != 0:
        print(log.read_text()[-2000:], file=sys.stderr)
        print(f"table build failed ({run.returncode}) after {time.time() - started:.0f} s; run again to resume",
              file=sys.stderr)
        return run.returncode
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    seconds, peak_kib = open(times).read().split()[-2:]
    histogram = summary["histogram"]

    # every depth against the published count
    equal = 0
    with open(ROOT / "data" / f"complete-bfs-{args.board}.tsv", "w") as f:
        f.write(f"# {args.board}: states at each depth found by `table build --max-depth` "
                f"(scripts/complete_bfs.py, {made_by}), against {reference.name}'s published counts\n")
        f.write("depth\tstates\tpublished\tequal\n")
        for depth, n in enumerate(histogram):
            same = published.get(depth) == n
            equal += same
            f.write(f"{depth}\t{n}\t{published.get(depth, '')}\t{'yes' if same else 'NO'}\n")
            if not same:
                print(f"depth {depth}: {n} states, published {published.get(depth)}", file=sys.stderr)

    # each level's time and traffic, from the build's log (a line a level)
    level = re.compile(r"depth +(\d+): ([\d,]+) states at it, ([\d,]+) of [\d,]+ in ([\d.]+) s.*?"
                       r"(?:disk ([\d.]+ [GM]B) read, ([\d.]+ [GM]B) written)?$")
    rows = []
    for line in log.read_text().splitlines():
        m = level.search(line)
        if m:
            rows.append("\t".join(g.replace(",", "") if g else "" for g in m.groups()))
    levels = ROOT / "data" / f"complete-bfs-{args.board}-levels.tsv"
    if rows:
        new = not levels.exists() or summary["resumed_after"] is None
        with open(levels, "w" if new else "a") as f:
            if new:
                f.write("depth\tstates\treached\tseconds_since_start\tdisk_read\tdisk_written\n")
            f.write(f"# {made_by}, {machine()}, resumed after {summary['resumed_after']}\n")
            f.write("\n".join(rows) + "\n")

    runs = ROOT / "data" / "complete-bfs-runs.tsv"
    if not runs.exists():
        runs.write_text("date\tcommit\tmachine\tboard\tresumed_after\tdepth\tseconds\tpeak_rss_gib\t"
                        "peak_disk_gb\tfinal_disk_gb\tdisk_read_gb\tdisk_written_gb\tlevels_equal\n")
    with open(runs, "a") as f:
        f.write("\t".join(map(str, [
            datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), made_by, machine(),
            args.board, summary["resumed_after"] if summary["resumed_after"] is not None else "",
            summary["depth"], seconds, f"{int(peak_kib) / 1048576:.2f}", f"{peak_disk[0] / 1e9:.1f}",
            f"{final_disk / 1e9:.1f}", f"{summary['disk_read'] / 1e9:.1f}", f"{summary['disk_written'] / 1e9:.1f}",
            f"{equal}/{len(histogram)}",
        ])) + "\n")
    print(f"{args.board} to depth {summary['depth']}: {equal} of {len(histogram)} levels equal the published "
          f"counts; {float(seconds):.0f} s, peak {int(peak_kib) / 1048576:.2f} GiB, disk at most "
          f"{peak_disk[0] / 1e9:.1f} GB")
    return 0 if equal == len(histogram) else 1


if __name__ == "__main__":
    sys.exit(main())
