#!/usr/bin/env python3
"""A short Hub game (docs/PROTOCOL.md) against an engine command, each move it plays checked
against the legal moves another poolshark lists (`poolshark moves`).

    hub_session.py NATIVE_POOLSHARK ENGINE_COMMAND...

The engine plays both sides for PLIES moves from the start, book off, to a fixed depth.
Prints one line per move and `hub moves: m1 m2 ...`; exits 1 on an illegal move, a
protocol error or a silent engine (TIMEOUT seconds per line).
"""
import queue
import subprocess
import sys
import threading

PLIES = 4
DEPTH = 8
TIMEOUT = 120


def legal_moves(native, moves):
    out = subprocess.run(
        [native, "moves", "--fen", "startpos", "--moves", " ".join(moves)],
        check=True, capture_output=True, text=True,
    ).stdout
    return {line.split(" ")[0] for line in out.splitlines() if line}


def main():
    native, command = sys.argv[1], sys.argv[2:]
    engine = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
    )
    lines = queue.Queue()
    threading.Thread(
        target=lambda: [lines.put(l.rstrip("\r\n")) for l in engine.stdout] + [lines.put(None)],
        daemon=True,
    ).start()

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(word):
        while True:
            try:
                line = lines.get(timeout=TIMEOUT)
            except queue.Empty:
                sys.exit(f"hub: no answer within {TIMEOUT} s while waiting for {word}")
            if line is None:
                sys.exit(f"hub: the engine ended while waiting for {word}")
            if line.startswith("error"):
                sys.exit(f"hub: the engine answered {line}")
            if line.split(" ")[0] == word:
                return line

    try:
        send("hub")
        until("wait")
        send("set-param name=book value=false")
        send("init")
        until("ready")
        moves = []
        for _ in range(PLIES):
            send(f'pos start moves="{" ".join(moves)}"')
            send(f"level depth={DEPTH}")
            send("go think")
            done = until("done")
            fields = dict(f.split("=", 1) for f in done.split(" ")[1:] if "=" in f)
            move = fields.get("move", "")
            legal = legal_moves(native, moves)
            if move not in legal:
                sys.exit(f"hub: {done!r} after {moves}: not one of the legal {sorted(legal)}")
            print(f"hub move {len(moves) + 1}: {move} (legal: {' '.join(sorted(legal))})")
            moves.append(move)
        send("quit")
        engine.wait(timeout=TIMEOUT)
        print(f"hub moves: {' '.join(moves)}")
    finally:
        if engine.poll() is None:
            engine.kill()


if __name__ == "__main__":
    main()
