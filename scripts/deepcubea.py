#!/usr/bin/env python3
"""DeepCubeA's 35- and 48-puzzle test sets (data/deepcubea35.tsv, data/deepcubea48.tsv) solved by
`table solve --within W`, board by board, resumably.

Usage:
  scripts/deepcubea.py 35 [--within 1.25] [--time-limit 10] [--count N] [--label NAME] [--table PATH] [-- EXTRA...]

Each board is one whole process, `table solve --board 6x6 --within W --time-limit T --json`
plus EXTRA (for example `-H pdb --pattern auto --dir tables`), timed from outside with its peak
memory (/usr/bin/time when present). Each result is appended to data/deepcubea35-results.tsv
as it finishes, with the configuration, commit and machine in a `# run` line; a rerun with the
same configuration skips the boards already there, so a stopped run picks up where it stopped.
Prints the summary of the configuration's rows beside DeepCubeA's: boards solved, mean length
against theirs, boards no longer than theirs, the proven ratios, mean seconds.
"""
import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def boards(n: int):
    path = os.path.join(ROOT, "data", f"deepcubea{n}.tsv")
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("id\t") or not line.strip():
                continue
            i, board, length, seconds = line.rstrip("\n").split("\t")[:4]
            rows.append((int(i), board, int(length), float(seconds)))
    return rows


def commit() -> str:
    try:
        out = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        return out.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def read_done(path: str, config: str, key) -> dict:
    """The rows of a results file made with `config` (its first column), by `key(columns)`:
    what a rerun skips."""
    done = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                cols = line.rstrip("\n").split("\t")
                if cols[0] == config:
                    done[key(cols)] = cols
    return done


def machine() -> str:
    cores = os.cpu_count()
    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError):
        mem = 0
    return f"{platform.machine()} {cores} cores {mem:.0f} GiB"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("set", choices=["35", "48"])
    p.add_argument("--within", default="1.25", help="the factor, or `none` to give the search in EXTRA (e.g. -- --algorithm weighted --weight 2)")
    p.add_argument("--time-limit", default="10")
    p.add_argument("--count", type=int, default=None, help="only the first N boards")
    p.add_argument("--table", default=os.path.join(ROOT, "target", "release", "table"))
    p.add_argument("--label", default="", help="a name put before the configuration, to tell a run of newer code from older rows")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    a = p.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    a.extra = extra
    n = int(a.set)
    side = {35: 6, 48: 7}[n]
    out_path = os.path.join(ROOT, "data", f"deepcubea{n}-results.tsv")
    factor = [] if a.within == "none" else ["--within", a.within]
    config = " ".join([*([f"[{a.label}]"] if a.label else []), *factor, "--time-limit", a.time_limit, *a.extra]).strip()
    done = read_done(out_path, config, lambda cols: int(cols[1]))
    rows = boards(n)[: a.count]
    timer = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)
    new = not os.path.exists(out_path)
    with open(out_path, "a") as out:
        if new:
            out.write(
                "# DeepCubeA's test boards solved by table solve; one row per board and configuration.\n"
                "# config\tid\tmoves\tlower_bound\twithin\tstopped\tseconds\tpeak_kib\tdca_length\tdca_seconds\n"
            )
        todo = [r for r in rows if r[0] not in done]
        if todo:
            out.write(f"# run {time.strftime('%Y-%m-%d %H:%M')} commit {commit()} machine {machine()}: {config}\n")
            out.flush()
        for i, board, dca_len, dca_s in todo:
            cmd = [a.table, "solve", "--board", f"{side}x{side}", *factor,
                   "--time-limit", a.time_limit, "--json", *a.extra, board]
            with tempfile.NamedTemporaryFile("r") as tf:
                full = [timer, "-f", "%M", "-o", tf.name, *cmd] if timer else cmd
                t0 = time.perf_counter()
                r = subprocess.run(full, capture_output=True, text=True)
                secs = time.perf_counter() - t0
                peak = tf.read().strip().splitlines()[-1] if timer else ""
            try:
                d = json.loads(r.stdout)
                moves, lb, within = d.get("moves", ""), d.get("lower_bound", ""), d.get("within", "")
                stopped = d.get("stopped", "") or ""
            except json.JSONDecodeError:
                moves, lb, within, stopped = "", "", "", (r.stderr.strip().splitlines() or ["failed"])[-1][:200]
            cols = [config, str(i), str(moves), str(lb), str(within), stopped, f"{secs:.3f}", peak, str(dca_len), f"{dca_s:.2f}"]
            out.write("\t".join(cols) + "\n")
            out.flush()
            done[i] = cols
            print(f"board {i}: {moves or 'no solution'} moves (DeepCubeA {dca_len}), lower bound {lb}, within {within}, {secs:.2f} s {stopped}", flush=True)
    # the summary of this configuration
    mine = [done[r[0]] for r in rows if r[0] in done]
    solved = [c for c in mine if c[2]]
    print(f"\n{config}: {len(solved)} of {len(mine)} boards solved")
    if solved:
        lens = [int(c[2]) for c in solved]
        theirs = [int(c[8]) for c in solved]
        ratios = [float(c[4]) for c in solved if c[4]]
        secs = [float(c[6]) for c in mine]
        print(f"  mean length {sum(lens)/len(lens):.2f} (DeepCubeA on the same boards {sum(theirs)/len(theirs):.2f})")
        print(f"  no longer than DeepCubeA's: {sum(1 for x, y in zip(lens, theirs) if x <= y)} of {len(solved)}")
        if ratios:
            inside = "" if a.within == "none" else f"; within {a.within}: {sum(1 for r in ratios if r <= float(a.within))}"
            print(f"  proven ratio: mean {sum(ratios)/len(ratios):.4f}, max {max(ratios):.4f}{inside}")
        print(f"  seconds a board (whole process): mean {sum(secs)/len(secs):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
