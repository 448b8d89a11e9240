#!/usr/bin/env python3
"""Time a Hub session with a large transposition table (issue 11, defects 1 and 2).

Usage: scripts/hub_table_timing.py BINARY [TT_SIZE] [SEARCHES]

Prints the time from `set-param name=tt-size` to `ready` (after `init`), whether `ping` was
answered while the table was being prepared, the time from `new-game` to `pong`, the depth
of each `level move-time=0.1` / `go think` search (with how long it took), and the time from
closing stdin to the process's exit. At tt-size=29 the table is 8 GiB: run it alone.
"""

import subprocess
import sys
import threading
import time
import queue


def main():
    binary = sys.argv[1]
    tt_size = sys.argv[2] if len(sys.argv) > 2 else "29"
    searches = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    proc = subprocess.Popen([binary, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    lines = queue.Queue()

    def reader():
        for line in proc.stdout:
            lines.put((time.monotonic(), line.rstrip("\n")))
        lines.put((time.monotonic(), None))

    threading.Thread(target=reader, daemon=True).start()

    def send(text):
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    def until(word, timeout=120):
        seen = []
        while True:
            t, line = lines.get(timeout=timeout)
            if line is None:
                raise SystemExit("engine closed its output")
            seen.append((t, line))
            if line.split(" ")[0] == word:
                return seen

    send("hub")
    until("wait")
    send("set-param name=book value=false")
    send("init")
    until("ready")

    start = time.monotonic()
    send(f"set-param name=tt-size value={tt_size}")
    send("init")
    send("ping")
    got = {}
    while "ready" not in got or "pong" not in got:
        t, line = lines.get(timeout=600)
        if line is None:
            raise SystemExit("engine closed its output")
        if line.startswith("error"):
            raise SystemExit(line)
        got.setdefault(line.split(" ")[0], t - start)
    print(f"tt-size={tt_size}: set-param -> ready {got['ready']:.3f} s; "
          f"ping (sent after init) -> pong {got['pong']:.3f} s")

    start = time.monotonic()
    send("new-game")
    send("ping")
    t, _ = until("pong")[-1]
    print(f"new-game -> pong {1e3 * (t - start):.3f} ms")

    for i in range(searches):
        send("pos start")
        send("level move-time=0.1")
        start = time.monotonic()
        send("go think")
        seen = until("done")
        depths = [l.split("depth=")[1].split(" ")[0] for _, l in seen if l.startswith("info")]
        took = seen[-1][0] - start
        print(f"search {i + 1}: depth {depths[-1] if depths else 0} in {took:.3f} s")
        if i == 0:
            start = time.monotonic()
            send("new-game")
            send("ping")
            t, _ = until("pong")[-1]
            print(f"new-game (after a search) -> pong {1e3 * (t - start):.3f} ms")

    start = time.monotonic()
    proc.stdin.close()
    proc.wait(timeout=120)
    print(f"end of input -> exit {time.monotonic() - start:.3f} s (status {proc.returncode})")


if __name__ == "__main__":
    main()
