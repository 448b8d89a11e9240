#!/usr/bin/env bash
# What the second thread is worth (issue 39, part 5): at TIME seconds a move, two matches in
# the same run, by turns a shard each so that both see the machine alike:
#   two-threads  2 threads against 1, both at TIME;
#   double-time  1 thread at 2 x TIME against 1 at TIME (what a second core could be worth
#                at best).
# Each is GAMES games from tuning/match-openings.txt (both colours of each opening) in SHARDS
# resumable shards (scripts/match-resume.sh) under OUT/two-threads and OUT/double-time: run
# the same command again to go on where it stopped.
#
# Usage: scripts/threads-worth.sh OUT TIME GAMES
#   e.g. nohup scripts/threads-worth.sh /work/logs/threads-0.1 0.1 600 \
#          > /work/logs/threads-0.1.log 2>&1 &
#   env: BIN (default target/release/poolshark, built first), SHARDS (10), CORES (the
#        machine's): two-threads plays CORES / 2 games at once (each engine may use two
#        cores while it thinks), double-time CORES; PAIRS (0, no limit): stop after this
#        many new shard pairs, with a line on stderr, to go on in a later session.
# Prints each match's `poolshark stats` lines as it ends, then three lines for scripts:
#   two-threads elo E (L to H) games N
#   double-time elo E (L to H) games N
#   share S        (two-threads' Elo over double-time's, or "share -" if double-time's is not
#                   above 0)
# OUT is the caller's: relative, it is taken from the directory the script is run in, which
# the script never leaves (the repository is ROOT).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/args.sh
source "$ROOT/scripts/lib/args.sh"
usage="usage: scripts/threads-worth.sh OUT TIME GAMES"
OUT=${1:?$usage}
TIME=${2:?$usage}
GAMES=${3:?$usage}
OUT=$(abs_path "$OUT")
SHARDS=${SHARDS:-10}
PAIRS=${PAIRS:-0}
CORES=${CORES:-$(nproc)}
whole_number threads-worth SHARDS "$SHARDS" 1 1000000
SHARDS=$((10#$SHARDS))
whole_number threads-worth CORES "$CORES" 1 100000
CORES=$((10#$CORES))
calc() { awk "BEGIN { print ($1) }"; }
if ! [[ "$TIME" =~ ^[0-9]*\.?[0-9]+$ ]] || [ "$(calc "$TIME > 0")" != 1 ]; then
  echo "threads-worth: TIME must be a positive number of seconds, not '$TIME'" >&2
  exit 2
fi
whole_number threads-worth GAMES "$GAMES" 1 10000000
# 0: no limit.
whole_number threads-worth PAIRS "$PAIRS" 0 1000000
PAIRS=$((10#$PAIRS)) # "08" is 8, not a bad octal number
if [ -z "${BIN:-}" ]; then
  BIN=$ROOT/target/release/poolshark
  cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml"
fi
export BIN
double=$(calc "2 * $TIME")
pair=$((CORES / 2 > 0 ? CORES / 2 : 1))
common=(--engine "$BIN hub" --engine "$BIN hub" --games "$GAMES"
  --openings "$ROOT/tuning/match-openings.txt")
two=("${common[@]}" --param 1:threads=2 --movetime "$TIME" --concurrency "$pair")
dbl=("${common[@]}" --movetime "$double,$TIME" --concurrency "$CORES")

# By turns, a shard of each, until both are whole (or PAIRS new pairs are played).
finished() {
  local f=("$OUT"/double-time/shard-*.out)
  if [ -e "${f[0]}" ]; then echo "${#f[@]}"; else echo 0; fi
}
before=$(finished)
for ((k = 0; k < SHARDS; k++)); do
  MAX_SHARDS=1 "$ROOT/scripts/match-resume.sh" "$OUT/two-threads" "$SHARDS" "${two[@]}" > /dev/null
  MAX_SHARDS=1 "$ROOT/scripts/match-resume.sh" "$OUT/double-time" "$SHARDS" "${dbl[@]}" > /dev/null
  now=$(finished)
  if ((PAIRS > 0 && now < SHARDS && now - before >= PAIRS)); then
    echo "threads-worth: stopped after $PAIRS new shard pair(s), $now of $SHARDS whole;" \
      "run the same command again to go on" >&2
    exit 0
  fi
done

line() {
  local name=$1 lines=$2 elo games
  elo=$(echo "$lines" | sed -n 's/^elo: \([^ ]*\) (95% interval \(.*\) to \([^)]*\)).*/\1 (\2 to \3)/p')
  games=$(echo "$lines" | sed -n 's/^score of .*points [^/]*\/\([0-9]*\) .*/\1/p')
  echo "$name elo $elo games $games"
}
echo "== two threads against one at $TIME s: poolshark match $(printf '%q ' "${two[@]}")"
a=$("$ROOT/scripts/match-resume.sh" "$OUT/two-threads" "$SHARDS" "${two[@]}")
echo "$a" | grep -E '^(score|elo|draw|pairs)'
echo "== one thread at $double s against one at $TIME s: poolshark match $(printf '%q ' "${dbl[@]}")"
b=$("$ROOT/scripts/match-resume.sh" "$OUT/double-time" "$SHARDS" "${dbl[@]}")
echo "$b" | grep -E '^(score|elo|draw|pairs)'
line two-threads "$a"
line double-time "$b"
ea=$(echo "$a" | sed -n 's/^elo: \([^ ]*\) .*/\1/p')
eb=$(echo "$b" | sed -n 's/^elo: \([^ ]*\) .*/\1/p')
if [[ "$ea" =~ ^[-+]?[0-9.]+$ && "$eb" =~ ^[-+]?[0-9.]+$ ]] && [ "$(calc "$eb > 0")" = 1 ]; then
  echo "share $(awk "BEGIN { printf \"%.2f\", $ea / $eb }")"
else
  echo "share -"
fi
