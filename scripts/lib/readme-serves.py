"""Run by scripts/dist-test.sh: the web archive's README.txt command (its indented
`python3 -m http.server ...` line), run as written in the folder the README is in, on a free
port in place of its own, serves that folder's index.html and sw.js. Exits 1 if not.
Usage: readme-serves.py FOLDER"""
import os
import re
import shlex
import socket
import subprocess
import sys
import time
import urllib.request

folder = sys.argv[1]
lines = [l.strip() for l in open(os.path.join(folder, "README.txt")) if l.startswith("    python3 -m http.server")]
if len(lines) != 1:
    sys.exit(f"readme-serves: {len(lines)} http.server commands in README.txt, not 1")
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = str(s.getsockname()[1])
args = [port if a == "8000" else a for a in shlex.split(lines[0])]
args[0] = sys.executable
proc = subprocess.Popen(args, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for name in ("index.html", "sw.js"):
        for _ in range(100):
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/{name}", timeout=5).read()
                break
            except OSError:
                time.sleep(0.05)
        else:
            sys.exit(f"readme-serves: `{lines[0]}` in {folder} does not serve {name}")
        if body != open(os.path.join(folder, name), "rb").read():
            sys.exit(f"readme-serves: `{lines[0]}` in {folder} serves another {name}")
    print(f"readme-serves: `{lines[0]}` serves {folder}")
finally:
    proc.terminate()
    proc.wait()
