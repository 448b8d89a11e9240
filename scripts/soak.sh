#!/usr/bin/env bash
# Soak: the release binary against itself at a fast clock with every core busy, to show that
# no game is lost on time or forfeited under load. Plays GAMES games (default 1000) at
# `--tc 0.2+0.005 --concurrency 2` in 10 shards, each its own PDN under OUT (default
# target/soak), so a stopped run resumes at the first unfinished shard. Prints one line:
#   soak games N forfeits F time-losses T worst-move S
# (S in seconds, the longest move the runner charged) and exits 1 if F or T is not 0.
# Usage: scripts/soak.sh [games] [out-dir]     env: BIN=path soaks another build (no cargo build)
# Nothing else that times moves may run meanwhile. A folder keeps one run: its settings
# (games, clock, binary) are in OUT/run.settings, and a run with others is refused.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-1000}
OUT=${2:-target/soak}
SHARDS=10
if [ -z "${BIN:-}" ]; then
  BIN=target/release/poolshark
  cargo build --release --quiet
fi
# shellcheck source=scripts/lib/run-dir.sh
source scripts/lib/run-dir.sh
# One folder, one run: a folder that holds a soak of other games or another binary is refused,
# naming both settings, instead of mixing the two runs' games in one count.
claim_run_dir soak "$OUT" "games $GAMES shards $SHARDS tc 0.2+0.005 binary $(sha256sum "$BIN" | cut -c1-16)"
for i in $(seq 0 $((SHARDS - 1))); do
  pdn="$OUT/shard$i.pdn"
  [ -e "$pdn.done" ] && continue
  # A stopped shard is played again from its start (match appends to a PDN that is there).
  rm -f "$pdn"
  echo "soak: shard $((i + 1))/$SHARDS" >&2
  "$BIN" match --engine "$BIN hub" --engine "$BIN hub" --games "$GAMES" \
    --tc 0.2+0.005 --concurrency 2 --shard "$i/$SHARDS" --pdn "$pdn" > "$OUT/shard$i.out"
  touch "$pdn.done"
done
pdns=("$OUT"/shard*.pdn)
games=$(cat "${pdns[@]}" | grep -c '^\[Result ' || true)
forfeits=$(cat "${pdns[@]}" | grep '^\[Termination ' | grep -c 'forfeits' || true)
losses=$(cat "${pdns[@]}" | grep '^\[Termination ' | grep -c 'on time' || true)
worst=$(cat "${pdns[@]}" | grep -o '{time [0-9.]*s}' | tr -d '{}s' | awk '{print $2}' \
  | sort -g | tail -n 1)
echo "soak games $games forfeits $forfeits time-losses $losses worst-move ${worst:-0}"
[ "$forfeits" -eq 0 ] && [ "$losses" -eq 0 ]
