#!/usr/bin/env python3
"""How often an independent deeper search agrees with puzzles' first moves (issue 68):
`poolshark analyze` at --nodes N (default 20,000,000, one thread, a fresh process per
puzzle) on each puzzle's position; its best move against the solution's first, compared by
origin and destination squares. Prints one line per disagreement, then
`agree A of N (P%) at NODES nodes`.

    scripts/puzzles-agreement.py PUZZLES.pdn [--nodes N] [--bin target/release/poolshark]
"""
import argparse
import re
import subprocess
import sys


def puzzles(path):
    text = open(path, encoding="utf-8").read()
    for block in re.split(r"\n\s*\n(?=\[)", text):
        fen = re.search(r'^\[FEN "([^"]+)"\]', block, re.M)
        pid = re.search(r'^\[Puzzle "([^"]+)"\]', block, re.M)
        moves = [l for l in block.splitlines() if l and not l.startswith("[")]
        if not (fen and pid and moves):
            continue
        first = re.search(r"\d+\.\s*(?:\.\.\.\s*)?(\d+(?:[-x]\d+)+)", " ".join(moves))
        yield pid.group(1), fen.group(1), first.group(1)


def ends(move):
    squares = re.split(r"[-x]", move)
    return squares[0], squares[-1]


def hub_ends(move):
    squares = re.split(r"[-x]", move)
    return squares[0], squares[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdn")
    ap.add_argument("--nodes", type=int, default=20_000_000)
    ap.add_argument("--bin", default="target/release/poolshark")
    a = ap.parse_args()
    agree = n = 0
    for pid, fen, first in puzzles(a.pdn):
        out = subprocess.run([a.bin, "analyze", "--fen", fen, "--nodes", str(a.nodes), "--threads", "1"],
                             capture_output=True, text=True, check=True).stdout
        best = re.search(r"^bestmove (\S+) score (\S+)", out, re.M)
        n += 1
        if best and hub_ends(best.group(1)) == ends(first):
            agree += 1
        else:
            print(f"{pid}: solution {first}, deeper search {best.group(1) if best else '?'} "
                  f"score {best.group(2) if best else '?'}", flush=True)
    print(f"agree {agree} of {n} ({100.0 * agree / max(n, 1):.1f}%) at {a.nodes} nodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
