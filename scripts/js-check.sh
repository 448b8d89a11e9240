#!/usr/bin/env bash
# The board page's JavaScript type-checked (issue 61), strict: TypeScript's `tsc --noEmit`
# over every script the browser loads, with their JSDoc types: the page's modules (web/js,
# tsconfig.json, a window's globals) and the static page's workers and service worker
# (web/engine, web/sw.js: tsconfig.workers.json, a worker's globals). The page has no build
# step; this only checks. TypeScript is pinned in package.json and package-lock.json
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
TSC="$DIR/node_modules/.bin/tsc"
# Every script under web/ is in one of the two checks, and none opts out of it.
checked=$({ "$TSC" --listFilesOnly -p tsconfig.json; "$TSC" --listFilesOnly -p tsconfig.workers.json; } |
    sed "s|^$PWD/||" | grep '^web/' | sort -u)
unchecked=$(comm -13 <(echo "$checked") <(find web -name '*.js' | sort))
if [ -n "$unchecked" ]; then
    echo "js check: no tsconfig checks these scripts (add them to tsconfig.json or tsconfig.workers.json):" >&2
    echo "$unchecked" >&2
    exit 1
fi
if grep -rl '@ts-nocheck' web >&2; then
    echo "js check: the files above opt out of the check (@ts-nocheck)" >&2
    exit 1
fi
"$TSC" --noEmit -p tsconfig.json
"$TSC" --noEmit -p tsconfig.workers.json
echo "js check: the page's types check, strict"
