#!/usr/bin/env python3
"""Measurements of the Hub engine for the record, not checks (they were tests/hub_measure.rs).

Usage: scripts/hub_measure.py BINARY latency [TRIES]
       scripts/hub_measure.py BINARY memory

latency: how long `stop` takes to reach `done` during `level infinite`, alternating
`go think` and `go analyze` (100 tries by default); prints the median, worst and best.

memory: resident memory (Linux /proc) with the default table, with the largest table the
engine allows here (`tt-size`'s max: up to half the machine's memory, faulted in), after a
1 s search with it, and back at tt-size=22. Run it alone on the machine.
"""

import queue
import subprocess
import sys
import threading
import time

PATIENCE = 600


class Engine:
    def __init__(self, binary):
        self.proc = subprocess.Popen([binary, "hub"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def until(self, word):
        seen = []
        while True:
            line = self.lines.get(timeout=PATIENCE)
            if line is None:
                raise SystemExit("the engine closed its output")
            seen.append(line)
            if line.split(" ")[0] == word:
                return seen

    def sync(self):
        """`ping`, then the lines before `pong`."""
        self.send("ping")
        return self.until("pong")[:-1]

    def handshake(self):
        self.send("hub")
        lines = self.until("wait")
        self.send("init")
        self.until("ready")
        return lines

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=PATIENCE)


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def field(line, key):
    for word in line.split(" "):
        if word.startswith(key + "="):
            return word[len(key) + 1:]
    return None


def latency(binary, tries):
    e = Engine(binary)
    e.handshake()
    times = []
    for i in range(tries):
        e.send("pos start")
        e.send("level infinite")
        e.send("go think" if i % 2 == 0 else "go analyze")
        time.sleep(0.03)  # let the search get deep enough to be busy
        start = time.monotonic()
        e.send("stop")
        e.until("done")
        times.append(time.monotonic() - start)
    e.quit()
    times.sort()
    print(f"stop -> done over {len(times)} tries: median {1e3 * times[len(times) // 2]:.3f} ms, "
          f"worst {1e3 * times[-1]:.3f} ms, best {1e3 * times[0]:.3f} ms")


def memory(binary):
    e = Engine(binary)
    params = e.handshake()
    tt = next(l for l in params if l.startswith("param name=tt-size"))
    log2 = int(field(tt, "max"))
    pid = e.proc.pid
    print(tt)
    print(f"default table: RSS {rss_mib(pid):.1f} MiB")
    start = time.monotonic()
    e.send(f"set-param name=tt-size value={log2}")
    answer = e.sync()
    print(f"tt-size={log2} ({((1 << log2) * 16) >> 30} GiB of table) in "
          f"{time.monotonic() - start:.2f} s: {answer} RSS {rss_mib(pid):.1f} MiB")
    e.send("pos start")
    e.send("level move-time=1")
    e.send("go think")
    e.until("done")
    print(f"after a 1 s search: RSS {rss_mib(pid):.1f} MiB")
    e.send("set-param name=tt-size value=22")
    e.sync()
    print(f"back to tt-size=22: RSS {rss_mib(pid):.1f} MiB")
    e.quit()


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("latency", "memory"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    binary, what = sys.argv[1], sys.argv[2]
    if what == "latency":
        tries = int(sys.argv[3]) if len(sys.argv) > 3 else 100
        latency(binary, tries)
    else:
        memory(binary)


if __name__ == "__main__":
    main()
