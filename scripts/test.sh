#!/usr/bin/env bash
# `make test`: the whole suite, its stages side by side in three lanes, so that the two cores
# stay busy while the browser, wine and pip wait, and while a build links.
#
# - The Windows lane: the exe (another compiler, its own build folder) from the start, then
#   what needs only the native build: the exe under wine, the Hub client, the cluster driver.
# - The Rust lane: the ci build with every test binary, the Rust tests, perft to depth 12.
# - The check lane installs what the other checks need (the Python environments, TypeScript,
#   Chromium) while the builds run, then the page's types and the static page's WebAssembly,
#   then the static page's engine under node and the browser tests (the longest), and the
#   release archives.
#
# Each stage writes its whole output to target/test-logs/STAGE.log and says one line when it
# ends ("test: STAGE passed in 42 s", or FAILED with its log's last lines). At the end, a
# table of every stage's time and how busy the cores were (target/test-logs/cpu.log: every
# 10 s, the share of the cores used since the last line); the exit status is 1 if any stage
# failed. A stage that cannot
# run on this machine says SKIPPED in its log and passes, as each script did on its own.
# The stages one by one: the Makefile's targets (browser-test, web-test, windows-test, ...).
set -uo pipefail
cd "$(dirname "$0")/.."
PROFILE=${PROFILE:-ci}
export PROFILE
LOGS=target/test-logs
rm -rf "$LOGS"
mkdir -p "$LOGS"
START=$(date +%s)

# cpu_seconds FILE: writes to FILE the CPU seconds (user and system) of this shell's children
# so far, those that were waited for (bash's `times`, its second line; run in this shell, not
# in a $(...) subshell, whose children are its own).
cpu_seconds() {
    times >"$1.times"
    tail -1 "$1.times" | awk '{ t = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%d\n", t }' >"$1"
    rm -f "$1.times"
}

# stage NAME COMMAND...: runs COMMAND with its output in $LOGS/NAME.log; records its status
# in $LOGS/NAME.rc, its seconds in $LOGS/NAME.time and its CPU seconds in $LOGS/NAME.cpu;
# says one line when it ends.
stage() {
    local name=$1 t0 rc
    shift
    t0=$(date +%s)
    cpu_seconds "$LOGS/$name.cpu0"
    echo "$((t0 - START))" >"$LOGS/$name.start"
    echo "test: $name started at $((t0 - START)) s"
    "$@" >"$LOGS/$name.log" 2>&1
    rc=$?
    echo $(($(date +%s) - t0)) >"$LOGS/$name.time"
    cpu_seconds "$LOGS/$name.cpu1"
    echo $(($(cat "$LOGS/$name.cpu1") - $(cat "$LOGS/$name.cpu0"))) >"$LOGS/$name.cpu"
    rm -f "$LOGS/$name.cpu0" "$LOGS/$name.cpu1"
    echo "$rc" >"$LOGS/$name.rc"
    if [ "$rc" = 0 ]; then
        local skipped
        skipped=$(grep -m1 -o 'SKIPPED: .*' "$LOGS/$name.log" || true)
        echo "test: $name passed in $(cat "$LOGS/$name.time") s${skipped:+ ($skipped)}"
    else
        echo "test: $name FAILED (exit $rc) in $(cat "$LOGS/$name.time") s; the end of $LOGS/$name.log:"
        tail -n 80 "$LOGS/$name.log" | sed 's/^/    /'
    fi
    return "$rc"
}

# after NAME...: waits until each stage NAME has ended; fails if one of them failed.
after() {
    local name
    for name in "$@"; do
        while [ ! -f "$LOGS/$name.rc" ]; do sleep 1; done
        [ "$(cat "$LOGS/$name.rc")" = 0 ] || return 1
    done
}

# skip_stage NAME WHY: a stage not run because one it needs failed.
skip_stage() {
    echo "test: $1 not run: $2"
    echo $(($(date +%s) - START)) >"$LOGS/$1.start"
    echo "not run" >"$LOGS/$1.rc"
    echo 0 >"$LOGS/$1.time"
    echo 0 >"$LOGS/$1.cpu"
}

# The Windows exe (its own compiler and build folder), from the start; then what needs only
# the native build: the exe under wine against it, the Hub client, the cluster driver.
windows_lane() {
    stage windows-build ./scripts/windows-test.sh --build
    if after build windows-build; then
        stage windows ./scripts/windows-test.sh
    else
        skip_stage windows "the build or the Windows build failed"
    fi
    if after build; then
        stage hub-client ./scripts/pytest.sh
        stage cluster ./scripts/cluster-test.sh
    else
        for s in hub-client cluster; do skip_stage "$s" "the build failed"; done
    fi
}

rust_lane() {
    stage build sh -c "cargo build --profile $PROFILE && cargo test --profile $PROFILE --no-run"
    if after build; then
        stage rust cargo test --profile "$PROFILE"
        stage perft-12 cargo test --profile "$PROFILE" --test perft -- --ignored start_position_depth_12
    else
        for s in rust perft-12; do skip_stage "$s" "the build failed"; done
    fi
}

check_lane() {
    stage install sh -c "./scripts/pytest.sh --prepare && ./scripts/cluster-test.sh --prepare \
        && ./scripts/js-check.sh --prepare && ./scripts/browser-test.sh --prepare"
    stage js-check ./scripts/js-check.sh
    stage wasm ./scripts/web-test.sh --build
    # The browser tests first: the longest check, they start as soon as the page is built.
    if after build wasm; then
        stage web ./scripts/web-test.sh
        stage browser ./scripts/browser-test.sh
    else
        for s in web browser; do skip_stage "$s" "the build or the WebAssembly build failed"; done
    fi
    if after build wasm windows-build; then
        stage dist ./scripts/dist-test.sh
    else
        skip_stage dist "a build it packs failed"
    fi
}

# busy_since LINE: the cores' busy share (%) and busy CPU seconds since /proc/stat's first
# line was LINE, and that line now, as "PERCENT SECONDS LINE...".
busy_since() {
    local now
    now=$(head -1 /proc/stat)
    # user nice system idle iowait irq softirq steal: idle and iowait are the idle ones.
    awk -v a="$1" -v b="$now" -v hz="$(getconf CLK_TCK)" 'BEGIN {
        n = split(a, x); split(b, y); busy = 0; all = 0
        for (i = 2; i <= 9 && i <= n; i++) { d = y[i] - x[i]; all += d; if (i != 5 && i != 6) busy += d }
        printf "%d %d %s\n", all ? 100 * busy / all : 0, busy / hz, b }'
}

# Every 10 s, the cores' busy share since the last line, into $LOGS/cpu.log.
sample_cpu() {
    local last r
    last=$(head -1 /proc/stat)
    while sleep 10; do
        r=$(busy_since "$last")
        last=${r#* * }
        echo "$(($(date +%s) - START)) s: ${r%% *}%" >>"$LOGS/cpu.log"
    done
}
if [ -r /proc/stat ]; then
    STAT0=$(head -1 /proc/stat)
    sample_cpu &
    SAMPLER_PID=$!
fi

windows_lane &
WINDOWS_PID=$!
rust_lane &
RUST_PID=$!
check_lane &
CHECK_PID=$!
wait "$WINDOWS_PID" "$RUST_PID" "$CHECK_PID"
[ -z "${SAMPLER_PID:-}" ] || kill "$SAMPLER_PID" 2>/dev/null

echo
echo "test: each stage, in the order they started (seconds; the lanes overlap; cpu: the"
echo "      CPU seconds of its processes that were waited for, a browser's and wine's in part)"
echo "  stage          start  took   cpu"
FAILED=()
for name in $(for f in "$LOGS"/*.start; do echo "$(cat "$f") $(basename "$f" .start)"; done \
    | sort -n | cut -d' ' -f2); do
    rc=$(cat "$LOGS/$name.rc")
    case "$rc" in
        0) said=passed ;;
        "not run") said="not run" ;;
        *) said=FAILED FAILED+=("$name") ;;
    esac
    printf '  %-14s %5s %5s %5s  %s\n' "$name" "$(cat "$LOGS/$name.start")" "$(cat "$LOGS/$name.time")" \
        "$(cat "$LOGS/$name.cpu")" "$said"
done
echo "test: all of it in $(($(date +%s) - START)) s"
if [ -n "${STAT0:-}" ]; then
    read -r busy seconds _ <<<"$(busy_since "$STAT0")"
    echo "test: the cores were busy $busy% of the time ($seconds CPU seconds; every 10 s: $LOGS/cpu.log)"
fi
if [ ${#FAILED[@]} -gt 0 ]; then
    echo "test: FAILED: ${FAILED[*]} (logs in $LOGS/)"
    exit 1
fi
grep -qx "not run" "$LOGS"/*.rc && { echo "test: FAILED: stages not run"; exit 1; }
echo "test: all passed"
