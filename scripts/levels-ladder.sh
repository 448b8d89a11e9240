#!/usr/bin/env bash
# The playing levels' ladder (docs/LEVELS.md): each level against the next (1-2 ... 9-10),
# level 1 against level 3, and level 10 against full strength at FULL_NODES nodes a move. Each
# pair is one match of GAMES games from tuning/match-openings.txt, every move node-limited (a
# level by its own node count), so the load on the machine does not change the result. Each
# match runs in resumable shards (scripts/match-resume.sh) under OUT/A-B: run the same command
# again to go on where it stopped. A changed level table needs a new OUT.
#
# Usage: scripts/levels-ladder.sh OUT [GAMES]
#   e.g. nohup nice -n 19 scripts/levels-ladder.sh /work/logs/levels-ladder 300 \
#          > /work/logs/levels-ladder.log 2>&1 &
#   env: BIN (default target/release/poolshark, built first), FULL_NODES (default 1000000),
#        CONCURRENCY (default 2), SHARDS (default 10),
#        PAIRS (default "1,2 2,3 3,4 4,5 5,6 6,7 7,8 8,9 9,10 1,3 10,full").
# Prints for each pair, as its match ends, the match command and the summary lines of `poolshark
# stats` (score, elo with its 95% interval, draws, pairs) from the first-named level's side;
# at the end one line per pair: `A-B elo E (L to H) games N`.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/levels-ladder.sh OUT [GAMES]"
OUT=${1:?$usage}
GAMES=${2:-300}
FULL_NODES=${FULL_NODES:-1000000}
CONCURRENCY=${CONCURRENCY:-2}
SHARDS=${SHARDS:-10}
PAIRS=${PAIRS:-"1,2 2,3 3,4 4,5 5,6 6,7 7,8 8,9 9,10 1,3 10,full"}
if [ -z "${BIN:-}" ]; then
  BIN=target/release/poolshark
  cargo build --release --quiet
fi
export BIN
mkdir -p "$OUT"
summary=()
for pair in $PAIRS; do
  a=${pair%,*}
  b=${pair#*,}
  if [ "$b" = full ]; then
    levels=(--level "$a,-" --nodes "-,$FULL_NODES")
  else
    levels=(--level "$a,$b")
  fi
  opts=(--engine "$BIN hub" --engine "$BIN hub" "${levels[@]}" --games "$GAMES"
    --concurrency "$CONCURRENCY" --openings tuning/match-openings.txt)
  echo "== $a-$b: poolshark match $(printf '%q ' "${opts[@]}")"
  lines=$(scripts/match-resume.sh "$OUT/$a-$b" "$SHARDS" "${opts[@]}")
  echo "$lines" | grep -E '^(score|elo|draw|pairs)'
  elo=$(echo "$lines" | sed -n 's/^elo: \([^ ]*\) (95% interval \(.*\) to \([^)]*\)).*/\1 (\2 to \3)/p')
  games=$(echo "$lines" | sed -n 's/^score of .*points [^/]*\/\([0-9]*\) .*/\1/p')
  summary+=("$a-$b elo $elo games $games")
done
echo "== ladder (Elo of the first level against the second)"
printf '%s\n' "${summary[@]}"
