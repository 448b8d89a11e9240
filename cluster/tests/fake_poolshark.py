#!/usr/bin/env python3
"""A stand-in for the poolshark binary's `match --shard`, `selfplay --shard` and `stats`
(SHARD-API.md), with results fixed by the pair index, so the driver's plumbing (merging,
retries, failure reports) is tested without playing games. FAKE_FAIL_SHARD=I makes shard I
always exit with status 3.
"""
import os
import sys


def opt(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def result(pair, game):
    return ["1-0", "1/2-1/2", "0-1"][(pair * 2 + game) % 3]


def main(argv):
    cmd = argv[0]
    if cmd in ("match", "selfplay"):
        i, k = map(int, opt(argv, "--shard").split("/"))
        if os.environ.get("FAKE_FAIL_SHARD") == str(i):
            print("error: fake failure", file=sys.stderr)
            return 3
        n = int(opt(argv, "--games"))
        if cmd == "match":
            games = [g for g in range(n) if (g // 2) % k == i]
            with open(opt(argv, "--pdn"), "w") as f:
                for g in games:
                    f.write(f'[Event "fake"]\n[Round "{g // 2 + 1}.{g % 2 + 1}"]\n'
                            f'[Result "{result(g // 2, g % 2)}"]\n\n*\n\n')
                    print(f"game {g + 1}/{n}: fake")
        else:
            # Each game meets a position of its own and one that every game meets; like
            # selfplay, a shard writes games in index order and a position's first line only.
            games = [g for g in range(n) if g % k == i]
            lines = []
            for g in games:
                lines.append(f"game {g} ; 0 ; - ; 1-{g}\n")
                if g == games[0]:
                    lines.append(f"common ; 0.5 ; - ; 1-{g}\n")
            with open(opt(argv, "--out"), "w") as f:
                f.writelines(lines)
            print(f"games {len(games)} positions {len(lines)} file {opt(argv, '--out')}")
        return 0
    if cmd == "stats":
        files = [a for a in argv[1:] if a.endswith(".pdn")]
        res = []
        for path in files:
            res += [l.split('"')[1] for l in open(path) if l.startswith("[Result ")]
        w, d, l = res.count("1-0"), res.count("1/2-1/2"), res.count("0-1")
        print(f"score of fake: wins {w} draws {d} losses {l}")
        print("elo: +0.0 (95% interval -1.0 to +1.0)")
        if "--sprt" in argv:
            decided = "H1 accepted" if len(res) >= 8 else "undecided"
            print(f"sprt: elo0=0 elo1=5 alpha=0.05 beta=0.05 llr {len(res) / 4:.3f} "
                  f"bounds [-2.944, 2.944] {decided}")
        print(f"pairs: {len(res) // 2}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
