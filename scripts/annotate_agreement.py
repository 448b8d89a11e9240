#!/usr/bin/env python3
"""Compare the marks of two `poolshark annotate` outputs of the same games (for instance at
two search budgets): prints how many moves each marks `??` (and `?`, `?!`) and how many
both mark. Usage: annotate_agreement.py A.pdn B.pdn
"""

import re
import sys


def marks(path):
    """{(game, ply): mark} for every marked move of an annotated PDN file."""
    out = {}
    text = open(path).read()
    for g, block in enumerate(b for b in text.split("\n\n") if b.strip()):
        movetext = " ".join(l for l in block.splitlines() if not l.startswith("["))
        movetext = re.sub(r"\{[^}]*\}", " ", movetext)
        tokens = [t for t in movetext.split() if not re.fullmatch(r"\d+\.+", t)][:-1]
        for ply, token in enumerate(tokens, 1):
            m = re.search(r"(\?\?|\?!|\?)$", token)
            if m:
                out[(g + 1, ply)] = m.group(1)
    return out


def main():
    a, b = marks(sys.argv[1]), marks(sys.argv[2])
    for mark in ("??", "?", "?!"):
        sa = {k for k, v in a.items() if v == mark}
        sb = {k for k, v in b.items() if v == mark}
        print(f"{mark} A {len(sa)} B {len(sb)} both {len(sa & sb)}")
    blunders_b = {k for k, v in b.items() if v == "??"}
    # A's blunders that B marks at all (any mark), and B's that A marks at all.
    print(f"?? in A marked in B {sum(1 for k, v in a.items() if v == '??' and k in b)}"
          f" ?? in B marked in A {sum(1 for k in blunders_b if k in a)}")


if __name__ == "__main__":
    main()
