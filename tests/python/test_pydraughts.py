"""poolshark driven by a Hub client nobody here wrote: the HubEngine class of pydraughts.

pydraughts has no American pool checkers board (its "american" is English checkers, where
kings do not fly and men do not capture backwards), so the rules come from poolshark's own
`moves` and `show` subcommands, and the games go through HubEngine.go, which takes a Hub
position string and the moves played, exactly what HubEngine.play sends for its boards.
"""

import os
import random
import re
import subprocess
import threading

import pytest
from draughts.engine import HubEngine  # the package imports it from here

POOLSHARK = os.environ.get("POOLSHARK", "target/release/poolshark")
START = "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
HUB_MOVE = re.compile(r"^\d{1,2}([-x]\d{1,2})(x\d{1,2})*$")
MAX_PLIES = 600


def poolshark(*args):
    out = subprocess.run([POOLSHARK, *args], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def legal_moves(moves):
    text = poolshark("moves", "--fen", "startpos", "--moves", " ".join(moves))
    return [line.split()[0] for line in text.splitlines()]


def result(moves):
    text = poolshark("show", "--fen", "startpos", "--moves", " ".join(moves))
    return text.splitlines()[-1].removeprefix("Result: ")


@pytest.fixture
def engine():
    e = HubEngine([os.path.realpath(POOLSHARK), "hub"])
    assert e.id["name"] == "poolshark"
    assert "pool" in e.variants
    assert {"threads", "tt-size", "ponder", "book"} <= e.options
    e.configure({"variant": "pool", "threads": 1, "ponder": True})
    e.init()
    yield e
    e.quit()
    e.p.communicate(timeout=30)
    assert e.p.returncode == 0


def check_info(info, moves, best):
    """The info of the last iteration, as pydraughts parsed it."""
    assert isinstance(info["depth"], int) and info["depth"] >= 1
    assert isinstance(info["nodes"], int)
    assert isinstance(info["time"], float)
    assert isinstance(info["mean-depth"], float)
    score = info["score"]
    assert set(score) <= {"cp", "win"} and len(score) == 1
    pv = info["pv"].strip('"').split()
    assert pv and all(HUB_MOVE.match(m) for m in pv), info["pv"]
    assert pv[0] in legal_moves(moves)


def play_game(engine, engine_side, seed, clock):
    rng = random.Random(seed)
    moves = []
    while len(moves) < MAX_PLIES:
        state = result(moves)
        if state != "ongoing":
            return state, moves
        legal = legal_moves(moves)
        black_to_move = len(moves) % 2 == 0
        if black_to_move == (engine_side == "black"):
            if clock:
                best, ponder = engine.go(START, moves=" ".join(moves), my_time=2.0, inc=0.05)
            else:
                best, ponder = engine.go(START, moves=" ".join(moves), movetime=0.03)
            assert best in legal, f"{best} not legal after {moves}: {legal}"
            if engine.info:
                check_info(engine.info, moves, best)
            if ponder:
                assert ponder in legal_moves(moves + [best]), ponder
            moves.append(best)
        else:
            moves.append(rng.choice(legal))
    pytest.fail(f"no result after {MAX_PLIES} plies: {moves}")


@pytest.mark.parametrize("side,seed,clock", [("black", 1, False), ("white", 2, True)])
def test_whole_game_against_a_random_mover(engine, side, seed, clock):
    state, moves = play_game(engine, side, seed, clock)
    assert "wins" in state or "draw" in state, state
    # Against random moves the engine should not lose.
    opponent = "White" if side == "black" else "Black"
    assert not state.startswith(f"{opponent} wins"), (state, moves)


def test_ponder_hit_and_ponder_miss(engine):
    """Ponder on the expected reply; a ponder-hit turns it into the real search, and a miss
    is stopped and followed by a normal search."""
    rng = random.Random(3)
    moves = []
    hits = misses = 0
    for _ in range(12):
        if result(moves) != "ongoing":
            break
        best, ponder = engine.go(START, moves=" ".join(moves), movetime=0.03)
        moves.append(best)
        if result(moves) != "ongoing":
            break
        legal = legal_moves(moves)
        reply = ponder if ponder and rng.random() < 0.5 else rng.choice(legal)
        if not ponder:
            moves.append(reply)
            continue
        answer = {}

        def think():
            answer["move"] = engine.go(
                START, moves=" ".join(moves + [ponder]), my_time=1.0, inc=0.0, ponder=True
            )

        t = threading.Thread(target=think)
        t.start()
        while engine._last_sent != "go ponder":
            pass
        if reply == ponder:
            engine.ponderhit()
            hits += 1
        else:
            engine.stop()
            misses += 1
        t.join(timeout=60)
        assert not t.is_alive(), "no done after ponder-hit or stop"
        pondered_best = answer["move"][0]
        assert pondered_best in legal_moves(moves + [ponder])
        moves.append(reply)
    assert hits + misses > 0
