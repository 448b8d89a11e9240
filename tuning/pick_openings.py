#!/usr/bin/env python3
"""Pick match openings from self-play positions: FENs with a piece count in a range and the
two sides' counts at most --diff apart, distinct, sampled with a fixed seed.

    python3 tuning/pick_openings.py tuning/selfplay.txt --min 8 --max 12 --count 200 \
        --seed 13 > tuning/egdb-openings.txt

Each input line is `FEN ; result` (as `poolshark selfplay` writes); the output is one FEN a
line, the `--openings` format of `poolshark match`. Standard library only.
"""
import argparse
import random
import sys


def pieces(side):
    """The number of pieces in one side's part of a FEN (`W18,K21,23`)."""
    body = side[1:]
    return len([s for s in body.split(",") if s.strip()]) if body else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data")
    ap.add_argument("--min", type=int, default=8)
    ap.add_argument("--max", type=int, default=12)
    ap.add_argument("--diff", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=13)
    a = ap.parse_args()
    seen, pool = set(), []
    with open(a.data) as f:
        for line in f:
            fen = line.split(";")[0].strip()
            parts = fen.split(":")
            if len(parts) != 3 or fen in seen:
                continue
            w, b = (pieces(p) for p in parts[1:])
            if a.min <= w + b <= a.max and abs(w - b) <= a.diff:
                seen.add(fen)
                pool.append(fen)
    if len(pool) < a.count:
        sys.exit(f"only {len(pool)} positions qualify, {a.count} asked for")
    for fen in random.Random(a.seed).sample(pool, a.count):
        print(fen)


if __name__ == "__main__":
    main()
