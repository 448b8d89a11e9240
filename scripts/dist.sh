#!/usr/bin/env bash
# The release archives in target/dist/ (`make dist`):
#   poolshark-VERSION-x86_64-linux.tar.gz   poolshark, LICENSE, README.txt, docs/
#   poolshark-VERSION-x86_64-windows.zip    poolshark.exe, LICENSE, README.txt, docs/
#   poolshark-VERSION-web.zip               the board as a static page (`make web`), LICENSE,
#                                           README.txt
#   SHA256SUMS                              over them all
# each unpacking into a folder poolshark-VERSION-PLATFORM/. VERSION is Cargo.toml's. The
# READMEs are packaging/README-PLATFORM.txt. PROFILE (default release) picks the builds, and
# WIN_PROFILE (default PROFILE) the exe's; the check in `make test` (scripts/dist-test.sh) packs
# the builds the other checks made instead (ci, and wine for the exe), to spare the LTO.
# Where the Windows exe cannot be built (no mingw-w64 or toolchain, and none can be
# installed) it says `dist: windows archive SKIPPED: <why>` and makes the Linux one alone.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/windows-env.sh
PROFILE=${PROFILE:-release}
WIN_PROFILE=${WIN_PROFILE:-$PROFILE}
CARGO=${CARGO:-cargo}
OUT=target/dist
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
[ -n "$VERSION" ] || { echo "dist: no version in Cargo.toml" >&2; exit 1; }
# The docs a user of the binary needs: the board's and the Hub's messages, the rules, the
# commands and what they point to.
DOCS=(docs/PROTOCOL.md docs/BOARD.md docs/RULES.md docs/COMMANDS.md docs/LEVELS.md docs/ANNOTATE.md)

rm -rf "$OUT"
mkdir -p "$OUT/stage"

# stage PLATFORM BINARY: the folder an archive holds, named in $dir.
stage() {
    dir=$OUT/stage/poolshark-$VERSION-$1
    mkdir -p "$dir/docs"
    cp "$2" "$dir/"
    cp LICENSE "$dir/LICENSE"
    sed "s/VERSION/$VERSION/" "packaging/README-$1.txt" >"$dir/README.txt"
    cp "${DOCS[@]}" "$dir/docs/"
}

"$CARGO" build --profile "$PROFILE" --bin poolshark
stage x86_64-linux "target/$PROFILE/poolshark"
tar -C "$OUT/stage" -czf "$OUT/poolshark-$VERSION-x86_64-linux.tar.gz" "$(basename "$dir")"

if windows_env; then
    PROFILE=$WIN_PROFILE ./scripts/windows-build.sh
    stage x86_64-windows "$(win_exe "$WIN_PROFILE")"
    # Python's zipfile, so that no zip program is needed.
    (cd "$OUT/stage" && python3 -m zipfile -c "../poolshark-$VERSION-x86_64-windows.zip" "$(basename "$dir")")
else
    echo "dist: windows archive SKIPPED: $WIN_WHY"
fi

# The static page, where the wasm32 toolchain can be had (WEB_PROFILE as make web's).
. scripts/lib/wasm-env.sh
if wasm_toolchain; then
    NATIVE_PROFILE="$PROFILE" ./scripts/web-build.sh
    dir=$OUT/stage/poolshark-$VERSION-web
    cp -r target/web "$dir"
    cp LICENSE "$dir/LICENSE"
    sed "s/VERSION/$VERSION/g" packaging/README-web.txt >"$dir/README.txt"
    (cd "$OUT/stage" && python3 -m zipfile -c "../poolshark-$VERSION-web.zip" "$(basename "$dir")")
else
    echo "dist: web archive SKIPPED: $WASM_WHY"
fi

rm -rf "$OUT/stage"
(cd "$OUT" && sha256sum poolshark-* >SHA256SUMS)
echo "dist: $OUT"
(cd "$OUT" && ls -l && cat SHA256SUMS)
