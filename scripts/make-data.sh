#!/usr/bin/env bash
# `make data`: the whole training set again from a seed, through the Dask driver
# (cluster/poolshark_cluster.py data): SHARDS shards of `poolshark selfplay --format packed`
# (and `label` with LABEL_NODES) kept in DIR as they finish, then `poolshark data merge` of
# them into OUT. Resumable: a stopped run keeps its finished shards (a shard is renamed into
# place only when whole), and the same command goes on from there. The same settings give the
# same bytes on any number of workers and machines.
#
# The binary is copied into DIR on the first run (DIR/poolshark) and every later run of DIR
# uses that copy, so a rebuild does not change a half-made set; DIR/run.settings refuses
# other settings in the same DIR.
#
# Usage: scripts/make-data.sh        (or `make data`)
#   env: SEED (2039), GAMES (1000000), SHARDS (1000), NODES (10000 a move), PLIES (10 random
#        plies), LABEL_NODES (0: keep self-play's search scores; else search every position
#        again at this many nodes), WEIGHTS (default the built-in network), DIR
#        (data/shards-SEED), OUT (data/set-SEED.psd), EGDB (default egdb/ if it is there:
#        the tables' exact value on every position they cover), WORKERS (LocalCluster
#        processes, default the cores), NICE (19),
#        SCHEDULER (tcp://HOST:8786: a running Dask scheduler instead of a LocalCluster; then
#        DIR must be on a filesystem the workers share, or give BIN, the binary's path on the
#        workers)
# DIR, OUT, WEIGHTS, EGDB and BIN, where given, are the caller's: relative, they are taken
# from the directory the script is run in (made absolute before it changes to the
# repository); the defaults are in the repository.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/args.sh
source "$ROOT/scripts/lib/args.sh"
# A BIN with no slash is a command looked up in PATH, not a path.
case "${BIN:-}" in */*) BIN=$(abs_path "$BIN") ;; esac
for v in DIR OUT WEIGHTS EGDB; do
  if [ -n "${!v:-}" ]; then
    printf -v "$v" '%s' "$(abs_path "${!v}")"
  fi
done
cd "$ROOT"
. scripts/venv.sh
SEED=${SEED:-2039}
GAMES=${GAMES:-1000000}
SHARDS=${SHARDS:-1000}
whole_number make-data SHARDS "$SHARDS" 1 1000000
SHARDS=$((10#$SHARDS))
NODES=${NODES:-10000}
PLIES=${PLIES:-10}
LABEL_NODES=${LABEL_NODES:-0}
DIR=${DIR:-data/shards-$SEED}
OUT=${OUT:-data/set-$SEED.psd}
WORKERS=${WORKERS:-$(nproc)}
NICE=${NICE:-19}
VENV=target/cluster-venv
if [ -z "${EGDB+set}" ] && [ -d egdb ]; then EGDB=egdb; fi

mkdir -p "$DIR" "$(dirname "$OUT")"
if [ ! -x "$DIR/poolshark" ]; then
    cargo build --release --quiet
    cp target/release/poolshark "$DIR/poolshark.tmp" && mv "$DIR/poolshark.tmp" "$DIR/poolshark"
fi
LOCAL_BIN=$(cd "$DIR" && pwd)/poolshark
make_venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r cluster/requirements.txt

args=(data --seed "$SEED" --games "$GAMES" --shards "$SHARDS" --nodes "$NODES"
      --random-plies "$PLIES" --label-nodes "$LABEL_NODES" --dir "$DIR" --out "$OUT"
      --local-binary "$LOCAL_BIN" --binary "${BIN:-$LOCAL_BIN}")
[ -n "${WEIGHTS:-}" ] && args+=(--weights "$WEIGHTS")
[ -n "${EGDB:-}" ] && args+=(--egdb "$EGDB")
if [ -n "${SCHEDULER:-}" ]; then
    args+=(--scheduler "$SCHEDULER")
else
    args+=(--workers "$WORKERS")
fi
exec nice -n "$NICE" "$VENV/bin/python" cluster/poolshark_cluster.py "${args[@]}"
