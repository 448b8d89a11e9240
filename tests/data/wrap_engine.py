#!/usr/bin/env python3
"""A Hub engine that misbehaves in one way around a real engine, for the match runner's tests.

Usage: wrap_engine.py MODE COMMAND..., where COMMAND starts the real engine (poolshark hub).
Every `level` line is replaced with `level depth=1`, so moves come at once whatever the
runner asks; the wrapped engine plays legal games. MODE is
  slow-new-game  take 3 s to handle `new-game` (as a large table once did);
  bad-utf8       write an `info` line holding invalid UTF-8 before each `done`;
  long-line      write a 2 MB `info` line when asked for its first move;
  slow-move      wait 1 s before each `go`, whatever the move time;
  log-level      write each `level` line the runner sent to stderr (the engine log);
  plain          nothing (the wrapper alone).
"""
import subprocess
import sys
import threading
import time

mode = sys.argv[1]
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
out = sys.stdout.buffer
lock = threading.Lock()


def say(data):
    with lock:
        out.write(data)
        out.flush()


def forward_output():
    for line in child.stdout:
        if line.startswith(b"done") and mode == "bad-utf8":
            say(b"info depth=1 pv=\"\xff\xfe\xc3\" note=\xe9t\xe9\n")
        say(line)
    sys.stdout.close()


threading.Thread(target=forward_output, daemon=True).start()
asked = 0
for raw in sys.stdin.buffer:
    words = raw.split()
    if not words:
        continue
    if words[0] == b"level":
        if mode == "log-level":
            sys.stderr.buffer.write(b"runner sent: " + raw)
            sys.stderr.flush()
        raw = b"level depth=1\n"
    elif words[0] == b"new-game" and mode == "slow-new-game":
        time.sleep(3)
    elif words[0] == b"go":
        asked += 1
        if mode == "slow-move":
            time.sleep(1)
        if mode == "long-line" and asked == 1:
            say(b"info pv=\"" + b"11-15 " * 350_000 + b"\"\n")
    child.stdin.write(raw)
    child.stdin.flush()
    if words[0] == b"quit":
        break
child.wait()
