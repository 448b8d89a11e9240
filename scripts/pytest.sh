#!/usr/bin/env bash
# Drive the release binary with a real Hub client: pydraughts' HubEngine (tests/python).
# Makes a virtual environment in target/venv with pydraughts and pytest, then runs pytest.
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/venv
PYTHON=${PYTHON:-python3}

PROFILE=${PROFILE:-ci}
cargo build --profile "$PROFILE"
if [ ! -x "$VENV/bin/python" ]; then
    rm -rf "$VENV"
    # Some systems ship Python without ensurepip; virtualenv works there.
    if ! "$PYTHON" -m venv "$VENV"; then
        rm -rf "$VENV"
        "$PYTHON" -m pip install --quiet --user virtualenv
        "$PYTHON" -m virtualenv --quiet "$VENV"
    fi
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "pydraughts==0.6.7" pytest
POOLSHARK="$PWD/target/$PROFILE/poolshark" "$VENV/bin/python" -m pytest -q tests/python "$@"
