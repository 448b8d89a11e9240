#!/usr/bin/env bash
# A long match in resumable shards: one `poolshark match` cut into SHARDS shards
# (`--shard I/SHARDS`), played one after the other, each with all the match options given.
# Each shard writes OUT/shard-I.pdn and its lines to OUT/shard-I.out.part, renamed to
# OUT/shard-I.out when the shard finished well, so a stopped run (a killed process, a closed
# session) starts again at the first unfinished shard: run the same command again. The shards
# play one at a time because a match times its moves: use --concurrency for the cores.
#
# Usage: scripts/match-resume.sh OUT SHARDS MATCH-OPTIONS...
#   e.g. scripts/match-resume.sh /work/m1 10 --engine "$P hub" --engine "$OLD hub" \
#          --games 1000 --movetime 0.05 --concurrency 2 --openings tuning/match-openings.txt
#   env: BIN (default target/release/poolshark, built first): the binary that referees.
# OUT/run.settings records the options; a run with other options into the same OUT is refused,
# and so is a second run while one is going (OUT/.lock). Progress goes to stderr. Prints at
# the end the lines of `poolshark stats` over the finished shards' PDN files (the lines `match`
# ends with), the whole match once every shard is done.
#   env: MAX_SHARDS=N plays at most N unfinished shards in this call (then prints the stats of
#        the shards finished so far): two matches run by turns, a shard each, share the
#        machine's ups and downs (scripts/threads-worth.sh).
# OUT and the match options are the caller's: relative paths in them (OUT, --openings FILE,
# an --engine command) are taken from the directory it is run in, which the script never
# leaves (the repository is ROOT).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/run-dir.sh
source "$ROOT/scripts/lib/run-dir.sh"
# shellcheck source=scripts/lib/args.sh
source "$ROOT/scripts/lib/args.sh"
usage="usage: scripts/match-resume.sh OUT SHARDS MATCH-OPTIONS..."
OUT=${1:?$usage}
SHARDS=${2:?$usage}
shift 2
OUT=$(abs_path "$OUT")
whole_number match-resume SHARDS "$SHARDS" 1 1000000
SHARDS=$((10#$SHARDS))
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
for a in "$@"; do
  case "$a" in
    --shard | --shard=* | --pdn | --pdn=*)
      echo "match-resume: $a is set by the script, one for each shard" >&2
      exit 2
      ;;
  esac
done
if [ -z "${BIN:-}" ]; then
  BIN=$ROOT/target/release/poolshark
  cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
fi
MAX_SHARDS=${MAX_SHARDS:-$SHARDS}
whole_number match-resume MAX_SHARDS "$MAX_SHARDS" 1 1000000
MAX_SHARDS=$((10#$MAX_SHARDS))
settings="shards $SHARDS options $(printf '%q ' "$@")"
claim_run_dir match-resume "$OUT" "$settings"
played=0
for ((i = 0; i < SHARDS; i++)); do
  [ -e "$OUT/shard-$i.out" ] && continue
  [ "$played" -ge "$MAX_SHARDS" ] && break
  played=$((played + 1))
  # A shard stopped half way is played again whole: its PDN file is started afresh (match
  # appends to a PDN that is there, and refuses one that ends in part of a game).
  rm -f "$OUT/shard-$i.pdn"
  if "$BIN" match "$@" --shard "$i/$SHARDS" --pdn "$OUT/shard-$i.pdn" \
    > "$OUT/shard-$i.out.part" 2> "$OUT/shard-$i.err"; then
    mv "$OUT/shard-$i.out.part" "$OUT/shard-$i.out"
    echo "match-resume: shard $i done ($(ls "$OUT"/shard-*.out | wc -l)/$SHARDS) $(date +%T): $(grep '^elo:' "$OUT/shard-$i.out")" >&2
  else
    echo "match-resume: shard $i failed (see $OUT/shard-$i.err)" >&2
    exit 1
  fi
done
pdns=()
for ((i = 0; i < SHARDS; i++)); do
  [ -e "$OUT/shard-$i.out" ] && pdns+=("$OUT/shard-$i.pdn")
done
"$BIN" stats "${pdns[@]}"
