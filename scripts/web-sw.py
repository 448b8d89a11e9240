"""Writes the static page's service worker (scripts/web-build.sh): web/sw.js with its two
constants written for the build: VERSION, a hash of every file of the build, and FILES, the list of
them (the page itself as "./" and as "index.html", the two addresses it is opened at), so that
the page works offline and a new build replaces the old copy. Usage: web-sw.py OUT_DIR TEMPLATE > OUT_DIR/sw.js"""
import hashlib
import json
import os
import sys

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
