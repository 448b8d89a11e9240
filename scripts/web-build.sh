#!/usr/bin/env bash
# The board as a static page (`make web`): web/ copied as it is into target/web/, with the
# engine as WebAssembly (crates/wasm) beside it and what a build writes: index.html marked to
# use the board worker (web/js/socket.js) and to name its manifest and icon, and the service
# worker's version and file list (scripts/web-sw.py). Serve it with any static file server:
# python3 -m http.server --directory target/web
#
# The wasm32 standard library: where rustup has the target, it is used. Otherwise Debian's
# rustc-web, cargo-web, rust-web-src and lld (a Rust 1.96 with the standard library's source)
# build it from source (-Zbuild-std), installed with apt-get where missing and we are root.
# WEB_PROFILE (default wasm: release with panic=abort) picks the cargo profile.
#
# The endgame tables of up to EGDB_PIECES pieces (5: about 9.4 MB; 4, about 0.6 MB, is what
# the endgame practices need) go into target/web/egdb/ (`poolshark egdb web`), from egdb/ where
# it holds them, else built into target/egdb-web/ (5 pieces: about 130 CPU-s, once;
# resumable). The service worker keeps the groups of up to 4 pieces when it installs, and a
# larger one once the page has read it (scripts/web-sw.py). That takes the native poolshark:
# NATIVE_PROFILE (default release) picks its cargo profile. EGDB_PIECES=0 leaves them out;
# the tests' build (scripts/web-test.sh) takes 4.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/wasm-env.sh
PROFILE=${WEB_PROFILE:-wasm}
OUT=target/web

wasm_toolchain || { echo "make web: $WASM_WHY" >&2; exit 2; }
echo "make web: building the engine for wasm32 (profile $PROFILE) with $WASM_CARGO_DESC"
wasm_cargo build --profile "$PROFILE" --target wasm32-unknown-unknown -p poolshark-wasm
WASM="$CARGO_TARGET_DIR_WASM/wasm32-unknown-unknown/$PROFILE/poolshark_wasm.wasm"

rm -rf "$OUT.new"
mkdir -p "$OUT.new"
cp -r web/. "$OUT.new/"
# The static copy of the page: the board worker for its transport, its manifest, which makes
# it an app to install, and its icon (the served page has neither: it needs its server, and
# names an empty icon so that the browser asks that server for none).
sed -e 's|</head>|<meta name="poolshark-transport" content="worker">\n<link rel="manifest" href="manifest.webmanifest">\n<meta name="theme-color" content="#1d2021">\n</head>|' \
    -e 's|<link rel="icon" href="data:,">|<link rel="icon" href="icon.svg" type="image/svg+xml">|' \
    web/index.html >"$OUT.new/index.html"
grep -q 'name="poolshark-transport"' "$OUT.new/index.html" || { echo "make web: could not mark index.html" >&2; exit 1; }
grep -q 'rel="icon" href="icon.svg"' "$OUT.new/index.html" || { echo "make web: could not give index.html its icon" >&2; exit 1; }
cp "$WASM" "$OUT.new/poolshark.wasm"
EGDB_PIECES=${EGDB_PIECES:-5}
if [ "$EGDB_PIECES" != 0 ]; then
    NATIVE_PROFILE=${NATIVE_PROFILE:-release}
    echo "make web: the endgame tables of up to $EGDB_PIECES pieces (the native poolshark, profile $NATIVE_PROFILE)"
    cargo build --quiet --profile "$NATIVE_PROFILE" --bin poolshark
    PS="target/$NATIVE_PROFILE/poolshark"
    if ! "$PS" egdb web --dir egdb --pieces "$EGDB_PIECES" --out "$OUT.new/egdb" 2>/dev/null; then
        rm -rf "$OUT.new/egdb"
        "$PS" egdb build --pieces "$EGDB_PIECES" --dir target/egdb-web
        "$PS" egdb web --dir target/egdb-web --pieces "$EGDB_PIECES" --out "$OUT.new/egdb"
    fi
fi
# Written beside the copy, not in it: web-sw.py lists and hashes every file of the copy.
python3 scripts/web-sw.py "$OUT.new" web/sw.js >"$OUT.sw.js"
mv "$OUT.sw.js" "$OUT.new/sw.js"
rm -rf "$OUT"
mv "$OUT.new" "$OUT"
echo "make web: $OUT ($(du -sh "$OUT" | cut -f1)); serve it with: python3 -m http.server --directory $OUT"
