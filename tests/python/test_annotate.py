"""`poolshark annotate`'s PDN read by pydraughts' PDNReader, a reader nobody here wrote.

A short match writes games; annotate writes them again with `{[%eval S]}` comments and
`?!`/`?`/`??` marks. pydraughts must find the same games, tags, moves and results in both.
"""

import os
import re
import subprocess
import tempfile

from draughts.PDN import PDNReader

POOLSHARK = os.environ.get("POOLSHARK", "target/release/poolshark")


def test_annotated_pdn_reads_in_pydraughts():
    with tempfile.TemporaryDirectory() as tmp:
        games_path = os.path.join(tmp, "match.pdn")
        out_path = os.path.join(tmp, "annotated.pdn")
        engine = f"{POOLSHARK} hub"
        played = subprocess.run(
            [POOLSHARK, "match", "--engine", engine, "--engine", engine, "--games", "4",
             "--depth", "2", "--pdn", games_path],
            capture_output=True, text=True, timeout=300)
        assert played.returncode == 0, played.stderr
        annotated = subprocess.run(
            [POOLSHARK, "annotate", "--pdn", games_path, "--depth", "4", "--out", out_path],
            capture_output=True, text=True, timeout=600)
        assert annotated.returncode == 0, annotated.stderr
        original = open(games_path).read()
        text = open(out_path).read()
    assert len(annotated.stdout.splitlines()) == 4
    before = PDNReader(pdn_text=original).games
    after = PDNReader(pdn_text=text).games
    assert len(before) == len(after) == 4
    for a, b in zip(after, before):
        assert a.tags == b.tags
        assert a.game_ending == b.game_ending == b.tags["Result"]
        assert a.moves == b.moves
        assert len(a.moves) > 0
    # Every move has its score, and depth-2 games give the marks something to mark.
    moves = sum(len(g.moves) for g in after)
    assert text.count("[%eval ") >= moves
    assert re.search(r"\d(\?\?|\?!|\?)\s", text)
