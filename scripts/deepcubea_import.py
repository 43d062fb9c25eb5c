#!/usr/bin/env python3
"""Import DeepCubeA's public 35-puzzle and 48-puzzle test sets as plain text.

Source: https://github.com/forestagostinelli/DeepCubeA (MIT licence).

Reads, from a bare git mirror of that repository (HEAD):
  data/puzzle{35,48}/test/data_0.pkl   pickled dict {'states': [NPuzzleState], 'num_back_steps': [int]}
  results/puzzle{35,48}/output.txt     per-board A* log lines
        "State: i, SolnCost: c, # Moves: m, # Nodes Gen: n, Time: t"
  LICENSE

and writes, into OUT_DIR (default: data/ next to this script's parent):
  deepcubea35.tsv, deepcubea48.tsv  columns: id, board, dca_length, dca_seconds, scramble
  DeepCubeA-LICENSE.txt             verbatim copy of their LICENSE

Board convention (DeepCubeA environments/n_puzzle.py): NPuzzleState.tiles is a
flat array of length N = dim*dim; tiles[k] is the tile number at row k // dim,
column k % dim (row-major), 0 = blank.  Goal is
np.concatenate((np.arange(1, N), [0])), i.e. 1..N-1 then the blank last.

The pickles are loaded with a restricted Unpickler that maps DeepCubeA's
environments.n_puzzle.NPuzzleState to a stand-in class (so DeepCubeA/torch
are not needed) and only allows the numpy reconstruction helpers.  Needs numpy.

Usage: python3 deepcubea_import.py MIRROR_GIT_DIR [OUT_DIR]
"""

import io
import math
import os
import pickle
import re
import subprocess
import sys

import numpy as np

REPO = "forestagostinelli/DeepCubeA"
SIZES = {35: 6, 48: 7}


class NPuzzleStateStub:
    """Stand-in for environments.n_puzzle.NPuzzleState (attributes tiles, hash)."""


class StubUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if module == "environments.n_puzzle" and name == "NPuzzleState":
            return NPuzzleStateStub
        if module in ("numpy.core.multiarray", "numpy._core.multiarray") and name in (
            "_reconstruct",
            "scalar",
        ):
            return getattr(np._core.multiarray if hasattr(np, "_core") else np.core.multiarray, name)
        if module == "numpy" and name in ("ndarray", "dtype"):
            return getattr(np, name)
        raise pickle.UnpicklingError("refusing to load %s.%s" % (module, name))


def git(gitdir, *args):
    return subprocess.run(["git", "--git-dir", gitdir, *args], check=True, capture_output=True).stdout


def is_lfs_pointer(blob):
    return blob.startswith(b"version https://git-lfs")


def load_boards(blob, n):
    if is_lfs_pointer(blob):
        raise SystemExit("data file is a Git LFS pointer")
    data = StubUnpickler(io.BytesIO(blob)).load()
    boards = [[int(x) for x in np.asarray(s.tiles).ravel()] for s in data["states"]]
    for b in boards:
        assert sorted(b) == list(range(n)), "not a permutation of 0..N-1"
    scr = data.get("num_back_steps")
    return boards, ([int(x) for x in scr] if scr is not None else None)


LINE = re.compile(
    r"State: (\d+), SolnCost: ([\d.]+), # Moves: (\d+), # Nodes Gen: ([\d,]+), Time: ([\d.]+)"
)


def load_results(text):
    res = {}
    for line in text.splitlines():
        m = LINE.match(line.strip())
        if m:
            i, cost, moves, _nodes, t = m.groups()
            assert float(cost) == int(moves)
            res[int(i)] = (int(moves), t)
    return res


def solvable(board, dim):
    tiles = [t for t in board if t != 0]
    inv = sum(1 for i in range(len(tiles)) for j in range(i + 1, len(tiles)) if tiles[i] > tiles[j])
    if dim % 2 == 1:
        return inv % 2 == 0
    # goal has blank in the bottom row: row of blank counted from the bottom (0 = bottom)
    blank_row_from_bottom = dim - 1 - board.index(0) // dim
    return (inv + blank_row_from_bottom) % 2 == 0


def manhattan(board, dim):
    d = 0
    for k, t in enumerate(board):
        if t:
            g = t - 1
            d += abs(k // dim - g // dim) + abs(k % dim - g % dim)
    return d


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    gitdir = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
    commit = git(gitdir, "rev-parse", "HEAD").decode().strip()
    lic = git(gitdir, "show", "HEAD:LICENSE").decode()
    copyright_line = next(l for l in lic.splitlines() if l.startswith("Copyright"))
    with open(os.path.join(out, "DeepCubeA-LICENSE.txt"), "w") as f:
        f.write(lic)

    for n1, dim in SIZES.items():
        n = dim * dim
        dpath = "data/puzzle%d/test/data_0.pkl" % n1
        rpath = "results/puzzle%d/output.txt" % n1
        boards, scr = load_boards(git(gitdir, "show", "HEAD:" + dpath), n)
        rblob = git(gitdir, "show", "HEAD:" + rpath)
        res = load_results(rblob.decode()) if not is_lfs_pointer(rblob) else {}
        have_res = len(res) == len(boards) and sorted(res) == list(range(len(boards)))
        for b in boards:
            assert solvable(b, dim), "unsolvable board"
        cols = ["id", "board"] + (["dca_length", "dca_seconds"] if have_res else []) + (["scramble"] if scr else [])
        man = [manhattan(b, dim) for b in boards]
        fname = os.path.join(out, "deepcubea%d.tsv" % n1)
        with open(fname, "w") as f:
            f.write("# DeepCubeA %d-puzzle (%dx%d) test set, %d boards.\n" % (n1, dim, dim, len(boards)))
            f.write("# Source: https://github.com/%s commit %s\n" % (REPO, commit))
            f.write("#   boards: %s (dict 'states' -> NPuzzleState.tiles)\n" % dpath)
            if have_res:
                f.write("#   results: %s (DeepCubeA batch-weighted A*, lines 'State: i, ... # Moves: m, ..., Time: t')\n" % rpath)
            f.write("# Licence: MIT, %s (full text: DeepCubeA-LICENSE.txt)\n" % copyright_line)
            f.write("# Convention: board = %d tiles row-major (index k -> row k//%d, col k%%%d), 0 = blank;\n" % (n, dim, dim))
            f.write("#   goal = 1..%d then blank last (DeepCubeA environments/n_puzzle.py goal_tiles).\n" % (n - 1))
            f.write("# Columns: id = index in data_0.pkl (0-based); board = comma-separated tiles;\n")
            if have_res:
                f.write("#   dca_length = DeepCubeA solution length (moves); dca_seconds = DeepCubeA solve time (s, as logged);\n")
            if scr:
                f.write("#   scramble = num_back_steps (random backward moves from goal used to generate the board).\n")
            f.write("\t".join(cols) + "\n")
            for i, b in enumerate(boards):
                row = [str(i), ",".join(map(str, b))]
                if have_res:
                    row += [str(res[i][0]), res[i][1]]
                if scr:
                    row.append(str(scr[i]))
                f.write("\t".join(row) + "\n")
        print("%s: %d boards, all solvable; results per board: %s" % (fname, len(boards), have_res))
        if have_res:
            print("  mean dca_length %.2f  mean dca_seconds %.2f" % (
                sum(r[0] for r in res.values()) / len(res),
                sum(float(r[1]) for r in res.values()) / len(res)))
            shorter = sum(1 for i in range(len(boards)) if res[i][0] < man[i])
            assert shorter == 0, "solution shorter than Manhattan distance"
            # every move changes the Manhattan distance by exactly 1
            assert all((res[i][0] - man[i]) % 2 == 0 for i in range(len(boards))), "length/Manhattan parity mismatch"
        print("  Manhattan mean %.2f min %d max %d" % (sum(man) / len(man), min(man), max(man)))
        if scr:
            print("  scramble mean %.1f min %d max %d" % (sum(scr) / len(scr), min(scr), max(scr)))


if __name__ == "__main__":
    main()
