#!/usr/bin/env bash
# `make puzzles`: the shipped puzzle set (puzzles/puzzles.pdn) again from a seed
# (docs/PUZZLES.md): SHARDS shards of GAMES_PER_SHARD games between playing levels
# (`poolshark puzzles games --shard K/SHARDS`), each made into proved puzzles (`puzzles make`),
# kept in DIR as they finish; then every shard's puzzles in shard order, each position once
# (the first kept), into OUT, which `puzzles check` proves again. Resumable: a shard is
# renamed into place only when whole, and the same command goes on from there. The same
# settings and tables give the same bytes on any machine and any THREADS.
#
# The binary is copied into DIR on the first run and every later run of DIR uses that copy,
# so a rebuild does not change a half-made set; DIR/run.settings refuses other settings (or
# other endgame tables) in the same DIR.
#
# Usage: scripts/make-puzzles.sh   (or `make puzzles`)
#   env: SEED (1), SHARDS (64), USE_SHARDS (SHARDS: make and keep the first USE_SHARDS shards
#        only, the same as the first ones of the whole run; the shipped set uses 44),
#        GAMES_PER_SHARD (50), LEVELS (1-8), NODES (the finder's,
#        100000), EGDB (egdb/ if it is there; build it first with `make egdb`: positions of
#        6 pieces or fewer are proved by the tables or not at all), DIR (data/puzzles-SEED),
#        OUT (puzzles/puzzles.pdn), THREADS (the cores), NICE (19), BIN (a built poolshark;
#        default: target/release/poolshark, built here)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/args.sh
source "$ROOT/scripts/lib/args.sh"
case "${BIN:-}" in */*) BIN=$(abs_path "$BIN") ;; esac
for v in DIR OUT EGDB; do
  if [ -n "${!v:-}" ]; then
    printf -v "$v" '%s' "$(abs_path "${!v}")"
  fi
done
cd "$ROOT"
SEED=${SEED:-1}
SHARDS=${SHARDS:-64}
GAMES_PER_SHARD=${GAMES_PER_SHARD:-50}
whole_number make-puzzles SHARDS "$SHARDS" 1 100000
USE_SHARDS=${USE_SHARDS:-$SHARDS}
whole_number make-puzzles USE_SHARDS "$USE_SHARDS" 1 "$SHARDS"
whole_number make-puzzles GAMES_PER_SHARD "$GAMES_PER_SHARD" 1 100000
LEVELS=${LEVELS:-1-8}
NODES=${NODES:-100000}
DIR=${DIR:-data/puzzles-$SEED}
OUT=${OUT:-puzzles/puzzles.pdn}
THREADS=${THREADS:-$(nproc)}
NICE=${NICE:-19}
if [ -z "${EGDB+set}" ] && [ -d egdb ]; then EGDB=egdb; fi
EGDB=${EGDB:-}

mkdir -p "$DIR" "$(dirname "$OUT")"
if [ ! -x "$DIR/poolshark" ]; then
    if [ -z "${BIN:-}" ]; then
        cargo build --release --quiet
        BIN=target/release/poolshark
    fi
    cp "$BIN" "$DIR/poolshark.tmp" && mv "$DIR/poolshark.tmp" "$DIR/poolshark"
fi
PS=$(cd "$DIR" && pwd)/poolshark

# The tables, as what they hold: a set made with other tables is another set.
TABLES=none
if [ -n "$EGDB" ]; then
    TABLES=$( (cd "$EGDB" && ls -- *.egdb 2>/dev/null | sort | tr '\n' ' ') | cksum | cut -d' ' -f1)
fi
SETTINGS="seed=$SEED shards=$SHARDS games_per_shard=$GAMES_PER_SHARD levels=$LEVELS nodes=$NODES tables=$TABLES"
if [ -f "$DIR/run.settings" ] && [ "$(cat "$DIR/run.settings")" != "$SETTINGS" ]; then
    echo "make-puzzles: $DIR was made with other settings ($(cat "$DIR/run.settings")), not $SETTINGS:" \
         "use another DIR, or remove it to start again" >&2
    exit 2
fi
echo "$SETTINGS" >"$DIR/run.settings"

EGDB_ARG=()
[ -n "$EGDB" ] && EGDB_ARG=(--egdb "$EGDB")
TOTAL=$((SHARDS * GAMES_PER_SHARD))
for ((k = 0; k < USE_SHARDS; k++)); do
    done_file="$DIR/puzzles-$k.pdn"
    [ -f "$done_file" ] && continue
    games="$DIR/games-$k.pdn"
    if [ ! -f "$games" ]; then
        rm -f "$games.tmp"
        nice -n "$NICE" "$PS" puzzles games --games "$TOTAL" --shard "$k/$SHARDS" --levels "$LEVELS" \
            --seed "$SEED" --threads "$THREADS" --out "$games.tmp" >/dev/null
        mv "$games.tmp" "$games"
    fi
    rm -f "$done_file.tmp"
    line=$(nice -n "$NICE" "$PS" puzzles make --pdn "$games" --out "$done_file.tmp" --nodes "$NODES" \
        --threads "$THREADS" "${EGDB_ARG[@]}")
    mv "$done_file.tmp" "$done_file"
    echo "make-puzzles: shard $((k + 1))/$SHARDS: $line"
done

# Every shard's puzzles in order, each position once.
python3 - "$DIR" "$USE_SHARDS" "$OUT.tmp" <<'EOF'
import re, sys
d, shards, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
seen, kept = set(), []
for k in range(shards):
    text = open(f"{d}/puzzles-{k}.pdn", encoding="utf-8").read()
    for block in re.split(r"\n(?=\[Event )", text):
        m = re.search(r'^\[Puzzle "([^"]+)"\]', block, re.M)
        if m and m.group(1) not in seen:
            seen.add(m.group(1))
            kept.append(block.rstrip("\n") + "\n\n")
open(out, "w", encoding="utf-8").write("".join(kept))
EOF
nice -n "$NICE" "$PS" puzzles check "$OUT.tmp" --nodes "$NODES" --threads "$THREADS" "${EGDB_ARG[@]}"
mv "$OUT.tmp" "$OUT"
python3 - "$OUT" <<'EOF'
import collections, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
ratings = [int(r) for r in re.findall(r'^\[PuzzleRating "(\d+)"\]', text, re.M)]
themes = collections.Counter(t for line in re.findall(r'^\[Themes "([^"]*)"\]', text, re.M) for t in line.split())
print(f"make-puzzles: {sys.argv[1]}: {len(ratings)} puzzles, ratings {min(ratings)} to {max(ratings)}")
print("make-puzzles: themes " + " ".join(f"{t} {n}" for t, n in sorted(themes.items())))
EOF
