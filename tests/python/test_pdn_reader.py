"""The match runner's PDN read by a standard PDN reader nobody here wrote: pydraughts' PDNReader.

A short poolshark-vs-poolshark match writes a PDN file; pydraughts must find every game with
its tags (GameType 23 is "american pool" to it) and the same moves, in the same order, as the
movetext poolshark wrote (which poolshark's own reader replays in tests/arena.rs).
"""

import os
import re
import subprocess
import tempfile

from draughts.PDN import PDNReader

POOLSHARK = os.environ.get("POOLSHARK", "target/release/poolshark")


def test_match_pdn_reads_in_pydraughts():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "match.pdn")
        engine = f"{POOLSHARK} hub"
        out = subprocess.run(
            [POOLSHARK, "match", "--engine", engine, "--engine", engine, "--games", "6",
             "--depth", "2", "--pdn", path],
            capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        text = open(path).read()
    games = PDNReader(pdn_text=text).games
    assert len(games) == 6
    # Our own view of each game's moves: the movetext tokens that are not numbers, results or
    # comments (each move's time, `{time 0.102s}`).
    assert "s}" in text
    ours = []
    for block in text.strip().split("\n\n"):
        movetext = " ".join(l for l in block.splitlines() if not l.startswith("["))
        movetext = re.sub(r"\{[^}]*\}", " ", movetext)
        tokens = [t for t in movetext.split() if not t.endswith(".")]
        ours.append(tokens[:-1])
    for game, moves in zip(games, ours):
        assert game.variant == "american pool"
        assert game.tags["GameType"] == "23"
        assert game.tags["Result"] in ("1-0", "0-1", "1/2-1/2")
        assert game.game_ending == game.tags["Result"]
        assert game.moves == moves, (game.moves[:6], moves[:6])
        assert len(moves) > 0
