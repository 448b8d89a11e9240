#!/usr/bin/env bash
# Search speed. 1) `poolshark bench` nodes per second on one thread, median of RUNS runs.
# 2) Time to reach a fixed depth from the start position and two middlegames with 1 and 2
# threads (and more if THREADS says so), median of RUNS runs, and the speed-up against one
# thread measured in the same run.
# Usage: scripts/bench-search.sh [runs] [depth]     env: THREADS="1 2 4 8"
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/poolshark
RUNS=${1:-5}
DEPTH=${2:-18}
THREADS=${THREADS:-"1 2"}
[ -x "$BIN" ] || cargo build --release
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

nps=()
for _ in $(seq "$RUNS"); do
  line=$("$BIN" bench 2>/dev/null | tail -n 1)
  nps+=("$(echo "$line" | awk '{print $4}')")
  nodes=$(echo "$line" | awk '{print $2}')
done
echo "bench nodes=$nodes nps_runs=${nps[*]} median_nps=$(printf '%s\n' "${nps[@]}" | median)"

FENS=("startpos"
      "B:W13,22,24,27,28,29,30,31:B1,2,4,6,8,9,11,16"
      "B:W12,21,22,23,24,27,28,29,30,31:B3,4,5,7,10,11,14")
base=""
for t in $THREADS; do
  times=()
  for _ in $(seq "$RUNS"); do
    start=$(date +%s.%N)
    for fen in "${FENS[@]}"; do
      "$BIN" analyze --fen "$fen" --depth "$DEPTH" --threads "$t" --hash 64 >/dev/null
    done
    end=$(date +%s.%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')")
  done
  med=$(printf '%s\n' "${times[@]}" | median)
  [ -z "$base" ] && base=$med
  speedup=$(awk -v a="$base" -v b="$med" 'BEGIN {print a / b}')
  printf 'time-to-depth depth=%s threads=%s runs=%s median_s=%.3f speedup=%.2f\n' "$DEPTH" "$t" "${times[*]}" "$med" "$speedup"
done
