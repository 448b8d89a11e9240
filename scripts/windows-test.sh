#!/usr/bin/env bash
# poolshark.exe under wine, against the native build of the same source: --version, the
# bench's node count, a Hub game whose every move is legal, `analyze` at depth 14 (move and
# score) on a few positions, and `serve` answering on loopback. Installs what is missing
# (mingw-w64, wine; Debian's rustc-web where rustup lacks the target) as root with apt-get;
# where it cannot, or wine cannot start, it says `windows test SKIPPED: <why>` and exits 0.
# A mismatch fails (exit 1). PROFILE (default ci: no LTO) picks the native build, WIN_PROFILE
# (default wine: unoptimised, with debug assertions; Cargo.toml says why) the exe's. `--build`
# only installs and builds the exe (scripts/test.sh builds it beside the native build).
#
# Debian 12's wine 8 lacks bcryptprimitives.dll, whose ProcessPrng Rust's std calls for
# random bytes: a stub built from tests/windows/bcryptprimitives.c lies beside a copy of the
# exe in target/windows-test/, never beside the exe that `make dist` ships.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/windows-env.sh
PROFILE=${PROFILE:-ci}
WIN_PROFILE=${WIN_PROFILE:-wine}
CARGO=${CARGO:-cargo}
DIR=target/windows-test
FAILED=0

skip() {
    echo "windows test SKIPPED: $*"
    exit 0
}
pass() { echo "windows test PASS: $*"; }
fail() {
    echo "windows test FAIL: $*"
    FAILED=1
}

find_wine() {
    WINE=$(command -v wine64 || true)
    [ -n "$WINE" ] || { [ -x /usr/lib/wine/wine64 ] && WINE=/usr/lib/wine/wine64; } || true
    [ -n "$WINE" ] || WINE=$(command -v wine || true)
}

windows_env || skip "$WIN_WHY"
find_wine
if [ -z "$WINE" ]; then
    win_apt_install wine wine64 || true
    find_wine
fi
[ -n "$WINE" ] || skip "no wine, and it cannot be installed here (needs apt-get and root)"
command -v python3 >/dev/null || skip "no python3 for the Hub and serve checks"

if [ "${1:-}" = --build ]; then
    echo "windows test: building poolshark.exe (profile $WIN_PROFILE)"
    PROFILE=$WIN_PROFILE ./scripts/windows-build.sh
    exit 0
fi
echo "windows test: building (native: profile $PROFILE; poolshark.exe: profile $WIN_PROFILE)"
"$CARGO" build --profile "$PROFILE" --bin poolshark
NATIVE=target/$PROFILE/poolshark
PROFILE=$WIN_PROFILE ./scripts/windows-build.sh

mkdir -p "$DIR"
cp "$(win_exe "$WIN_PROFILE")" "$DIR/poolshark.exe"
x86_64-w64-mingw32-gcc -O2 -shared -o "$DIR/bcryptprimitives.dll" \
    tests/windows/bcryptprimitives.c -ladvapi32
EXE=$DIR/poolshark.exe

# A prefix of our own under target/, never the user's; no Mono or Gecko installer prompts;
# our ProcessPrng before any wine has of its own.
export WINEPREFIX=$PWD/target/wine-prefix WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml=;bcryptprimitives=n,b"
trap '"${WINESERVER:-wineserver}" -k >/dev/null 2>&1 || true' EXIT
WINESERVER=$(command -v wineserver || echo /usr/lib/wine/wineserver)
win() { "$WINE" "$EXE" "$@" 2>>"$DIR/wine-stderr.log" | tr -d '\r'; }

if ! version_wine=$(win --version) || [ -z "$version_wine" ]; then
    skip "wine cannot run poolshark.exe (its stderr: $DIR/wine-stderr.log: $(tail -3 "$DIR/wine-stderr.log" | tr '\n' ' '))"
fi
version_native=$("$NATIVE" --version)
if [ "$version_wine" = "$version_native" ]; then
    pass "--version: $version_wine"
else
    fail "--version: wine '$version_wine', native '$version_native'"
fi

bench_native=$("$NATIVE" bench 2>/dev/null | tail -1)
bench_wine=$(win bench | tail -1)
echo "bench native: $bench_native"
echo "bench wine:   $bench_wine"
nodes_native=$(awk '$1 == "nodes" { print $2 }' <<<"$bench_native")
nodes_wine=$(awk '$1 == "nodes" { print $2 }' <<<"$bench_wine")
if [ -n "$nodes_native" ] && [ "$nodes_native" = "$nodes_wine" ]; then
    pass "bench: $nodes_wine nodes, as native"
else
    fail "bench: wine '${nodes_wine:-no nodes line}' nodes, native '$nodes_native'"
fi

if python3 tests/windows/hub_session.py "$NATIVE" "$WINE" "$EXE" hub; then
    pass "Hub game: every move legal"
else
    fail "Hub game (above)"
fi

# Positions: the start, an opening, two endgames (tests/search.rs). `bestmove M score S ...`.
FENS=(startpos startpos "W:WK30,21,22:BK3" "B:W10,16:BK25,K32")
MOVES=("" "11-15 23-19 8-11 22-17" "" "")
for i in "${!FENS[@]}"; do
    args=(--fen "${FENS[$i]}")
    [ -z "${MOVES[$i]}" ] || args+=(--moves "${MOVES[$i]}")
    a_native=$("$NATIVE" analyze --depth 14 "${args[@]}" | grep '^bestmove' || true)
    a_wine=$(win analyze --depth 14 "${args[@]}" | grep '^bestmove' || true)
    echo "analyze ${args[*]}"
    echo "  native: $a_native"
    echo "  wine:   $a_wine"
    # Move and score: the words after `bestmove` and `score`.
    if [ -n "$a_native" ] && [ "$(cut -d' ' -f2,4 <<<"$a_native")" = "$(cut -d' ' -f2,4 <<<"$a_wine")" ]; then
        pass "analyze depth 14 ${args[*]}: $(cut -d' ' -f1-4 <<<"$a_wine")"
    else
        fail "analyze depth 14 ${args[*]}: wine '$a_wine', native '$a_native'"
    fi
done

# serve on a free loopback port; the page must answer. Wine without sockets is a skip.
serve_out=$DIR/serve.out
"$WINE" "$EXE" serve --port 0 >"$serve_out" 2>"$DIR/serve.err" &
serve_pid=$!
result=$(python3 - "$serve_out" "$serve_pid" <<'PY'
import os, re, sys, time, urllib.request
out, pid = sys.argv[1], int(sys.argv[2])
deadline = time.time() + 120
while time.time() < deadline:
    m = re.search(r"http://[0-9.:]+/", open(out, errors="replace").read())
    if m:
        try:
            body = urllib.request.urlopen(m.group(0), timeout=10).read().decode(errors="replace")
            print("ok" if "<html" in body.lower() else f"bad page from {m.group(0)}: {body[:80]!r}")
        except OSError as e:
            print(f"bad {m.group(0)} did not answer: {e}")
        sys.exit()
    try:
        os.kill(pid, 0)
    except OSError:
        print("gone")
        sys.exit()
    time.sleep(0.5)
print("bad no address printed within 120 s")
PY
)
kill "$serve_pid" 2>/dev/null || true
wait "$serve_pid" 2>/dev/null || true
case $result in
ok) pass "serve answered on $(grep -o 'http://[0-9.:]*/' "$serve_out")" ;;
gone) echo "windows test SKIPPED: serve: it ended under wine: $(tr -d '\r' <"$DIR/serve.err" | tail -2 | tr '\n' ' ')" ;;
*) fail "serve: ${result#bad }" ;;
esac

if [ "$FAILED" = 0 ]; then
    echo "windows test: all passed"
else
    echo "windows test: FAILED"
fi
exit "$FAILED"
