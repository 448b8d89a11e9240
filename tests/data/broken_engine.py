#!/usr/bin/env python3
"""A deliberately broken Hub engine for the match runner's tests.

Usage: broken_engine.py MODE, where MODE is
  illegal  answer every `go` with an illegal move;
  exit     exit when asked for its first move, saying why on stderr;
  silent   never answer `go`;
  fail     answer every `go` as poolshark does when its search cannot run: an `error`
           line and an empty `done` (docs/PROTOCOL.md).
It hand-shakes correctly so that the failure comes in the middle of a game.
"""
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    cmd = raw.split()
    if not cmd:
        continue
    if cmd[0] == "hub":
        say("id name=broken-" + mode + " version=0 author=test country=none")
        say("wait")
    elif cmd[0] == "init":
        say("ready")
    elif cmd[0] == "ping":
        say("pong")
    elif cmd[0] == "go":
        if mode == "illegal":
            say("done move=1-2")
        elif mode == "fail":
            say('error message="internal error in the search: out of cheese"')
            say("done")
        elif mode == "exit":
            sys.stderr.write("broken-exit: out of cheese, giving up\n")
            sys.exit(3)
        # silent: say nothing
    elif cmd[0] == "quit":
        break
