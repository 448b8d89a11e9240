#!/usr/bin/env bash
# Drive the release binary with a real Hub client: pydraughts' HubEngine (tests/python).
# Makes a virtual environment in target/venv with pydraughts and pytest, then runs pytest.
# Extra arguments go to pytest; `--prepare` alone only installs (scripts/test.sh runs it while
# the build goes on).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
VENV=target/venv
PYTHON=${PYTHON:-python3}

PROFILE=${PROFILE:-ci}
make_venv "$VENV"
# Every package pinned, dependencies included (the set pip chose on Python 3.11 when these
# were pinned), so a fresh machine tests against what was tested here.
PINS=(
    "pydraughts==0.6.7" "msl-loadlib==0.10.0"
    "pytest==9.2.0" "iniconfig==2.3.1" "packaging==26.4" "pluggy==1.7.0" "Pygments==2.21.0"
)
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
[ "${1:-}" = --prepare ] && exit 0
cargo build --profile "$PROFILE"
POOLSHARK="$PWD/target/$PROFILE/poolshark" "$VENV/bin/python" -m pytest -q tests/python "$@"
