#!/usr/bin/env bash
# The board page in a real browser (tests/browser): headless Chromium driven by Selenium.
# Installs what is missing first: Debian's chromium and chromium-driver through apt-get when
# it exists and we are root, and Selenium and pytest (pinned) in the virtual environment
# target/browser-venv. Where no browser can be had, it says so plainly and exits 0, so
# `make test` still passes on a machine without one. Extra arguments go to pytest;
# `--prepare` alone only installs (scripts/test.sh runs it while the build goes on).
#
# The tests run in BROWSER_WORKERS processes (pytest-xdist; default 3), each with its own
# Chromium and servers: a browser test spends most of its time waiting for the page, so three
# keep two cores busier than one does. A test file or test named runs in one process.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
VENV=target/browser-venv
PYTHON=${PYTHON:-python3}
PROFILE=${PROFILE:-ci}

skip() {
    echo "browser test SKIPPED: $*"
    exit 0
}

find_browser() {
    CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
    CHROMEDRIVER=${CHROMEDRIVER:-$(command -v chromedriver || true)}
}

find_browser
if [ -z "$CHROMIUM" ] || [ -z "$CHROMEDRIVER" ]; then
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        mkdir -p target
        echo "installing chromium and chromium-driver with apt-get (log: target/browser-apt.log)"
        if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver; } \
            >target/browser-apt.log 2>&1; then
            skip "apt-get could not install chromium and chromium-driver (see target/browser-apt.log)"
        fi
        find_browser
    fi
fi
[ -n "$CHROMIUM" ] || skip "no chromium found, and it cannot be installed here (needs apt-get and root)"
[ -n "$CHROMEDRIVER" ] || skip "no chromedriver found, and it cannot be installed here (needs apt-get and root)"

make_venv "$VENV" || skip "cannot make a Python virtual environment"
# Every package pinned, dependencies included (the set pip chose on Python 3.11 for
# selenium 4.51.0; 4.52.0 needs a newer certifi than PyPI had).
PINS=(
    "selenium==4.51.0" "certifi==2026.10.19.post1" "trio==0.35.0" "trio-websocket==0.12.2"
    "typing_extensions==4.16.0" "urllib3==2.8.0" "websocket-client==1.9.2" "attrs==26.1.0"
    "h11==0.16.0" "idna==3.20" "outcome==1.3.0.post0" "PySocks==1.7.1" "sniffio==1.3.1"
    "sortedcontainers==2.4.0" "wsproto==1.3.2"
    "pytest==9.2.0" "iniconfig==2.3.1" "packaging==26.4" "pluggy==1.7.0" "Pygments==2.21.0"
    "pytest-xdist==3.8.0" "execnet==2.1.2"
)
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
[ "${1:-}" = --prepare ] && exit 0
cargo build --profile "$PROFILE"

echo "browser test: $("$CHROMIUM" --version 2>/dev/null | head -1)"
# A test file or test named among the arguments runs alone, in one process; else the whole
# folder, spread over the workers (each test goes to whichever worker is free).
WHERE=(tests/browser)
WORKERS=(-n "${BROWSER_WORKERS:-3}" --dist load)
for a in "$@"; do
    case "$a" in tests/browser/*) WHERE=() WORKERS=() ;; esac
done
POOLSHARK="$PWD/target/$PROFILE/poolshark" CHROMIUM="$CHROMIUM" CHROMEDRIVER="$CHROMEDRIVER" \
    "$VENV/bin/python" -m pytest -q --durations=20 "${WORKERS[@]}" "${WHERE[@]}" "$@"
