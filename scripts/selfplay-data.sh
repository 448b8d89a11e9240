#!/usr/bin/env bash
# Self-play training data in resumable shards: one `poolshark selfplay` run of GAMES games cut
# into SHARDS shards (`--shard I/SHARDS`), JOBS of them at a time (one core each). Each shard
# writes OUT/shard-I.txt.part and renames it to OUT/shard-I.txt when whole, so a stopped run
# (a killed process, a closed session) starts again at the first unfinished shard: run the
# same command again. Every line names its game (`SEED-INDEX`), the same in any shard.
#
# Usage: scripts/selfplay-data.sh OUT [SHARDS]
#   env: BIN (default target/release/poolshark, built first), GAMES (500000), NODES (3000),
#        SEED (2030), PLIES (8 random plies), WEIGHTS (an eval file; default the built-in),
#        JOBS (2), NICE (19: data generation yields the cores to anything else)
# OUT/run.settings records the settings; a run with other settings into the same OUT is
# refused, so no directory mixes two runs, and a second run while one is going (OUT/.lock)
# is refused too. Stop a run by killing the script (TERM or Ctrl-C): its shards stop with it. Prints at the end:
#   data shards N positions P dir OUT
# (P counts lines; `learn` drops positions repeated across shards).
# OUT, WEIGHTS and BIN are the caller's: relative, they are taken from the directory the
# script is run in, made absolute before it changes to the repository.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/run-dir.sh
source "$ROOT/scripts/lib/run-dir.sh"
# shellcheck source=scripts/lib/args.sh
source "$ROOT/scripts/lib/args.sh"
OUT=${1:?usage: scripts/selfplay-data.sh OUT [SHARDS]}
OUT=$(abs_path "$OUT")
SHARDS=${2:-200}
GAMES=${GAMES:-500000}
NODES=${NODES:-3000}
SEED=${SEED:-2030}
PLIES=${PLIES:-8}
JOBS=${JOBS:-2}
NICE=${NICE:-19}
whole_number selfplay-data SHARDS "$SHARDS" 1 1000000
SHARDS=$((10#$SHARDS))
whole_number selfplay-data JOBS "$JOBS" 1 4096
[ -n "${WEIGHTS:-}" ] && WEIGHTS=$(abs_path "$WEIGHTS")
# A BIN with no slash is a command looked up in PATH, not a path.
case "${BIN:-}" in */*) BIN=$(abs_path "$BIN") ;; esac
cd "$ROOT"
if [ -z "${BIN:-}" ]; then
  BIN=target/release/poolshark
  cargo build --release --quiet
fi
weights=()
[ -n "${WEIGHTS:-}" ] && weights=(--weights "$WEIGHTS")
settings="games $GAMES shards $SHARDS nodes $NODES seed $SEED plies $PLIES weights ${WEIGHTS:-builtin} binary $(sha256sum "$BIN" | cut -c1-16)"
claim_run_dir selfplay-data "$OUT" "$settings"
export BIN OUT SHARDS GAMES NODES SEED PLIES NICE
export WEIGHTS_ARGS="${weights[*]:-}"
shard() {
  local i=$1 f="$OUT/shard-$1.txt"
  [ -e "$f" ] && return 0
  # Renamed into place only when selfplay finished well: a killed or failed shard stays a
  # .part (possibly cut mid-line) and is played again from the start on the next run (the
  # old .part removed first: selfplay writes over nothing).
  rm -f "$f.part"
  # shellcheck disable=SC2086
  if nice -n "$NICE" "$BIN" selfplay --games "$GAMES" --shard "$i/$SHARDS" --nodes "$NODES" \
    --seed "$SEED" --random-plies "$PLIES" $WEIGHTS_ARGS --out "$f.part" \
    > "$OUT/shard-$i.log" 2>&1; then
    mv "$f.part" "$f"
    echo "selfplay-data: shard $i done ($(ls "$OUT"/shard-*.txt | wc -l)/$SHARDS) $(date +%T)" >&2
  else
    echo "selfplay-data: shard $i failed (see $OUT/shard-$i.log)" >&2
    return 1
  fi
}
export -f shard
# Stopping the script stops its shards too (xargs would otherwise start the next ones); an
# unfinished shard stays a .part and is played again on the next run.
# In the background and waited for, so that the trap runs at once (bash runs traps only
# between foreground commands). xargs goes first, so that it starts no shard after.
seq 0 $((SHARDS - 1)) | xargs -P "$JOBS" -I{} bash -c 'shard {}' &
runner=$!
trap 'trap - TERM INT; kill "$runner" 2>/dev/null; kill -- -$$ 2>/dev/null; exit 130' TERM INT
wait "$runner"
done_shards=$(ls "$OUT"/shard-*.txt 2>/dev/null | wc -l)
positions=$(cat "$OUT"/shard-*.txt | wc -l)
echo "data shards $done_shards positions $positions dir $OUT"
