#!/usr/bin/env bash
# `make dist`'s archives, checked (run by `make test`, with its builds: PROFILE=ci, and
# WIN_PROFILE=wine for the exe): they
# match SHA256SUMS; each holds LICENSE, README.txt and the docs (the web archive its page and
# engine instead of docs); the zip holds poolshark.exe
# and not the wine tests' stand-in bcryptprimitives.dll; and the Linux archive's binary,
# unpacked, benches the node count of the native build. A mismatch exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=${PROFILE:-ci}
WIN_PROFILE=${WIN_PROFILE:-wine}
OUT=target/dist
FAILED=0
pass() { echo "dist test PASS: $*"; }
fail() {
    echo "dist test FAIL: $*"
    FAILED=1
}

# The web archive with the tables of up to 4 pieces, as the web test's page: a release's
# (`make dist`) has 5, whose build takes about 130 CPU-seconds more; the archive's shape is
# the same.
EGDB_PIECES=${EGDB_PIECES:-4} PROFILE=$PROFILE WIN_PROFILE=$WIN_PROFILE ./scripts/dist.sh
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)

if (cd "$OUT" && sha256sum -c SHA256SUMS); then
    pass "sha256sum -c SHA256SUMS"
else
    fail "sha256sum -c SHA256SUMS"
fi

# has LISTING ARCHIVE NAME...: each NAME is a member, under the archive's folder.
has() {
    local listing=$1 archive=$2 name
    shift 2
    for name in "$@"; do
        if grep -qx "poolshark-$VERSION-[a-z0-9_-]*/$name" <<<"$listing"; then
            pass "$archive holds $name"
        else
            fail "$archive lacks $name"
        fi
    done
}
DOCS=(docs/PROTOCOL.md docs/BOARD.md docs/RULES.md)

linux=poolshark-$VERSION-x86_64-linux.tar.gz
has "$(tar -tzf "$OUT/$linux")" "$linux" poolshark LICENSE README.txt "${DOCS[@]}"

windows=poolshark-$VERSION-x86_64-windows.zip
if [ -f "$OUT/$windows" ]; then
    listing=$(python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$OUT/$windows")
    has "$listing" "$windows" poolshark.exe LICENSE README.txt "${DOCS[@]}"
    if grep -qi 'bcryptprimitives' <<<"$listing"; then
        fail "$windows holds the test stub bcryptprimitives.dll"
    else
        pass "$windows holds no bcryptprimitives.dll"
    fi
else
    echo "dist test SKIPPED: no $windows (see dist's message above)"
fi

web=poolshark-$VERSION-web.zip
if [ -f "$OUT/$web" ]; then
    listing=$(python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$OUT/$web")
    has "$listing" "$web" index.html poolshark.wasm sw.js manifest.webmanifest engine/board-worker.js \
        js/main.js LICENSE README.txt
else
    echo "dist test SKIPPED: no $web (see dist's message above)"
fi

unpacked=target/dist-test
rm -rf "$unpacked"
mkdir -p "$unpacked"
tar -C "$unpacked" -xzf "$OUT/$linux"
[ ! -f "$OUT/$windows" ] || python3 -m zipfile -e "$OUT/$windows" "$unpacked"
# Each README names its version and tells how to open the board and attach the Hub engine.
for readme in "$unpacked"/poolshark-*-x86_64-*/README.txt; do
    if grep -q "poolshark $VERSION for" "$readme" && grep -q "poolshark serve" "$readme" \
        && grep -q "http://127.0.0.1:8080/" "$readme" && grep -q "poolshark hub" "$readme"; then
        pass "$readme: version, serve and hub"
    else
        fail "$readme lacks the version, \`poolshark serve\`, the address or \`poolshark hub\`"
    fi
done
# The web README's command, run as written in the folder it is in, serves the page.
if [ -f "$OUT/$web" ]; then
    python3 -m zipfile -e "$OUT/$web" "$unpacked"
    if python3 scripts/lib/readme-serves.py "$unpacked/poolshark-$VERSION-web"; then
        pass "$web: its README's command serves the page from its folder"
    else
        fail "$web: its README's command does not serve the page from its folder"
    fi
fi
nodes() { "$@" bench 2>/dev/null | awk '$1 == "nodes" { n = $2 } END { print n }'; }
archived=$(nodes "$unpacked/poolshark-$VERSION-x86_64-linux/poolshark")
native=$(nodes "target/$PROFILE/poolshark")
if [ -n "$native" ] && [ "$archived" = "$native" ]; then
    pass "the Linux archive's poolshark benches $archived nodes, as target/$PROFILE/poolshark"
else
    fail "the Linux archive's poolshark benches '$archived' nodes, target/$PROFILE/poolshark '$native'"
fi

[ "$FAILED" = 0 ] && echo "dist test: all passed" || echo "dist test: FAILED"
exit "$FAILED"
