#!/usr/bin/env bash
# `bench` on the WebAssembly build under node: builds crates/wasm for wasm32 (as `make web`
# does, profile wasm) and prints the module's progress on stderr and bench's last line,
# `nodes N nps X`, on stdout, as `poolshark bench` does: one thread, a 16 MiB table, depth
# 11 unless given (`scripts/web-bench.sh [DEPTH]`). docs/PERFORMANCE.md sets it beside the
# native bench.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/wasm-env.sh
PROFILE=${WEB_PROFILE:-wasm}
command -v node >/dev/null || { echo "web-bench: no node on PATH" >&2; exit 2; }
wasm_toolchain || { echo "web-bench: $WASM_WHY" >&2; exit 2; }
wasm_cargo build --quiet --profile "$PROFILE" --target wasm32-unknown-unknown -p poolshark-wasm >&2
node scripts/web-bench.mjs "$CARGO_TARGET_DIR_WASM/wasm32-unknown-unknown/$PROFILE/poolshark_wasm.wasm" "${1:-11}" 16
