#!/usr/bin/env bash
# The static page's engine (part of `make test`): builds target/web (`make web`), then runs
# tests/web under node: the session core in WebAssembly hosted as the page's worker hosts it,
# driven with docs/BOARD.md messages, and its review beside `poolshark serve`'s (the ci build).
# The page itself is tested in Chromium by scripts/browser-test.sh (tests/browser/
# test_static_page.py). Says SKIPPED where node or the wasm32 toolchain cannot be had.
# `--build` only builds target/web (scripts/test.sh builds it beside the other builds).
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=${PROFILE:-ci}

skip() {
    echo "web test SKIPPED: $*"
    exit 0
}

command -v node >/dev/null || skip "no node on PATH"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || skip "node $(node --version) is older than 20"
. scripts/lib/wasm-env.sh
wasm_toolchain || skip "$WASM_WHY"
# The tables of up to 4 pieces: what the tests read, and a tenth of the build's time of 5.
EGDB_PIECES=${EGDB_PIECES:-4} NATIVE_PROFILE="$PROFILE" ./scripts/web-build.sh
[ "${1:-}" = --build ] && exit 0
cargo build --profile "$PROFILE"
# node 20 has WebSocket behind a flag; 22 and later have it anyway.
flags=()
[ "$major" -lt 22 ] && flags+=(--experimental-websocket)
POOLSHARK="$PWD/target/$PROFILE/poolshark" POOLSHARK_WASM="$PWD/target/web/poolshark.wasm" \
    node "${flags[@]}" --test tests/web/
echo "web test: all passed"
