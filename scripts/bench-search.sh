#!/usr/bin/env bash
# Search speed. 1) `poolshark bench` nodes per second on one thread, median of RUNS runs.
# 2) Time to reach a fixed depth on the bench positions with 1, 2 and 4 threads (others if
# THREADS says so), median of RUNS runs, and the speed-up against one thread measured in the
# same run.
# Usage: scripts/bench-search.sh [runs] [depth]     env: THREADS="1 2 4 8"
#   SEARCH_PARAMS="name:value,..." passes --search-params to the time-to-depth runs.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/poolshark
RUNS=${1:-5}
DEPTH=${2:-16}
THREADS=${THREADS:-"1 2 4"}
[ -x "$BIN" ] || cargo build --release
EXTRA=()
if [ -n "${SEARCH_PARAMS:-}" ]; then
  EXTRA=(--search-params "$SEARCH_PARAMS")
  # A bad name or value: say so here (the timed runs below hide stderr).
  if ! err=$("$BIN" bench --depth 1 "${EXTRA[@]}" 2>&1 >/dev/null); then
    echo "$err" | grep -m 1 . >&2
    exit 2
  fi
fi
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

nps=()
for _ in $(seq "$RUNS"); do
  line=$("$BIN" bench 2>/dev/null | tail -n 1)
  nps+=("$(echo "$line" | awk '{print $4}')")
  nodes=$(echo "$line" | awk '{print $2}')
done
echo "bench nodes=$nodes nps_runs=${nps[*]} median_nps=$(printf '%s\n' "${nps[@]}" | median)"

# Time to depth on the bench positions: `bench --depth DEPTH --threads T` searches all 18
# to the depth (a position ends when any thread finishes it), and its time is nodes / nps.
base=""
for t in $THREADS; do
  times=()
  for _ in $(seq "$RUNS"); do
    line=$("$BIN" bench --depth "$DEPTH" --threads "$t" --hash 64 ${EXTRA[@]+"${EXTRA[@]}"} 2>/dev/null | tail -n 1)
    times+=("$(echo "$line" | awk '{printf "%.3f", $2 / $4}')")
  done
  med=$(printf '%s\n' "${times[@]}" | median)
  [ -z "$base" ] && base=$med
  speedup=$(awk -v a="$base" -v b="$med" 'BEGIN {print a / b}')
  printf 'time-to-depth depth=%s threads=%s runs=%s median_s=%.3f speedup=%.2f\n' "$DEPTH" "$t" "${times[*]}" "$med" "$speedup"
done
