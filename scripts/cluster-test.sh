#!/usr/bin/env bash
# Test the Dask cluster driver (cluster/poolshark_cluster.py) on a LocalCluster: makes a
# virtual environment in target/cluster-venv with cluster/requirements.txt (every package
# pinned), then runs pytest on cluster/tests: sharded matches and self-play, and `data` (a
# small training set made on 1 worker and on 2, one killed mid-shard, compared byte for byte,
# and a stopped run resumed). If pip cannot install (no network), it says so and skips. Extra
# arguments go to pytest; `--prepare` alone only installs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
VENV=target/cluster-venv
PYTHON=${PYTHON:-python3}
PROFILE=${PROFILE:-ci}
make_venv "$VENV"
if ! "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r cluster/requirements.txt; then
    echo "cluster-test: SKIPPED: pip could not install cluster/requirements.txt (offline?)" >&2
    exit 0
fi
[ "${1:-}" = --prepare ] && exit 0
cargo build --profile "$PROFILE"
POOLSHARK="$PWD/target/$PROFILE/poolshark" "$VENV/bin/python" -m pytest -q -rs cluster/tests "$@"
