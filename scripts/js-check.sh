#!/usr/bin/env bash
# The board page's JavaScript type-checked (issue 61): TypeScript's `tsc --noEmit -p .` (tsconfig.json)
# over web/js with its JSDoc types (web/tsconfig.json: checkJs, not strict). The page has no
# build step; this only checks. TypeScript is pinned in package.json and package-lock.json
# at the repository's root and installed with `npm ci` into target/js-check (git-ignored).
# Where npm is missing or cannot install, it says so plainly and exits 0, so `make test`
# still passes on a machine without it. `--prepare` only installs.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=target/js-check

skip() {
    echo "js check SKIPPED: $*"
    exit 0
}

command -v node >/dev/null || skip "no node found (install nodejs and npm to type-check the page)"
command -v npm >/dev/null || skip "no npm found (install npm to type-check the page)"

mkdir -p "$DIR"
# Install again only when the pins changed.
if ! cmp -s package-lock.json "$DIR/package-lock.json" || [ ! -x "$DIR/node_modules/.bin/tsc" ]; then
    cp package.json package-lock.json "$DIR/"
    echo "installing TypeScript with npm ci (log: $DIR/npm.log)"
    if ! (cd "$DIR" && npm ci --no-audit --no-fund) >"$DIR/npm.log" 2>&1; then
        rm -f "$DIR/package-lock.json"
        skip "npm ci could not install TypeScript (offline? see $DIR/npm.log)"
    fi
fi
[ "${1:-}" = --prepare ] && exit 0

echo "js check: tsc $("$DIR/node_modules/.bin/tsc" --version)"
"$DIR/node_modules/.bin/tsc" --noEmit -p .
echo "js check: the page's types check"
