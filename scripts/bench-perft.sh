#!/usr/bin/env bash
# Perft speed: start position to depths 11 and 12, one thread and two, 5 runs each; prints
# every run's leaves per second and the median. Usage: scripts/bench-perft.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/poolshark
RUNS=${1:-5}
[ -x "$BIN" ] || cargo build --release
for depth in 11 12; do
  for threads in 1 2; do
    rates=()
    for _ in $(seq "$RUNS"); do
      line=$("$BIN" perft --depth "$depth" --threads "$threads" | tail -n 1)
      rates+=("$(echo "$line" | sed -E 's/.*mnps=([0-9.]+).*/\1/')")
    done
    median=$(printf '%s\n' "${rates[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "perft depth=$depth threads=$threads runs=${rates[*]} median_mnps=$median"
  done
done
