"""Writes the static page's service worker (scripts/web-build.sh): web/sw.js with its two
constants written for the build: VERSION, a hash of every file of the build, and FILES, the list of
them (the page itself as "./" and as "index.html", the two addresses it is opened at), so that
the page works offline and a new build replaces the old copy. An endgame table's group of
LATER_PIECES pieces or more (b12w11.egdb: 1+2+1+1) is left out of FILES, so that installing
does not fetch megabytes a phone may never use: the worker keeps it once the page reads it.
Usage: web-sw.py OUT_DIR TEMPLATE > OUT_DIR/sw.js"""
import hashlib
import json
import os
import re
import sys

LATER_PIECES = 5


def later(rel):
    """Whether `rel` is a table group kept on first use, not at install."""
    m = re.fullmatch(r"egdb/b(\d)(\d)w(\d)(\d)\.egdb", rel)
    return bool(m) and sum(int(d) for d in m.groups()) >= LATER_PIECES


out, template = sys.argv[1], sys.argv[2]
files = []
digest = hashlib.sha256()
for root, _, names in sorted(os.walk(out)):
    for name in sorted(names):
        path = os.path.join(root, name)
        rel = os.path.relpath(path, out).replace(os.sep, "/")
        if rel == "sw.js":
            continue
        if rel == "index.html":
            files.append("./")
        if not later(rel):
            files.append(rel)
        digest.update(rel.encode() + b"\0")
        with open(path, "rb") as f:
            digest.update(f.read())
text = open(template).read()
for line, value in [('const VERSION = "unbuilt";', f'const VERSION = "{digest.hexdigest()[:16]}";'),
                    ("const FILES = [];", f"const FILES = {json.dumps(files)};")]:
    if text.count(line + "\n") != 1:
        sys.exit(f"web-sw.py: {template} has not one line '{line}' to write")
    text = text.replace(line + "\n", value + "\n")
sys.stdout.write(text)
