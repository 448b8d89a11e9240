#!/usr/bin/env bash
# The opening explorer's games (docs/BOARD.md, "Opening explorer"): poolshark's self-play from
# the start position, each side choosing its first BOOK_PLY plies from the book (at random
# among the moves within BOOK_MARGIN hundredths of a man of the best) and searching NODES
# nodes a move after, then the shipped file `books/explorer.games` made of them (`poolshark
# explorer build`). The book's own margin in play (4) makes every game open 11-16: a wider
# one shows the openings a player meets.
#
# The match runs in SHARDS shards, each written to data/explorer/shard-I.pdn and renamed there
# only once whole: a stopped run starts again where it was, the shards done kept. Log it:
#   scripts/make-explorer.sh > /work/logs/make-explorer.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-1000}
NODES=${NODES:-100000}
SHARDS=${SHARDS:-10}
CONCURRENCY=${CONCURRENCY:-1}
BOOK_PLY=${BOOK_PLY:-10}
BOOK_MARGIN=${BOOK_MARGIN:-30}
PROFILE=${PROFILE:-ci}
OUT=data/explorer
mkdir -p "$OUT"
# One engine for every shard: a copy of the build the run began with (a later build of the
# tree, while it runs, would play other games).
P=$OUT/poolshark
if [ ! -x "$P" ]; then
    cargo build --profile "$PROFILE" --bin poolshark
    cp "target/$PROFILE/poolshark" "$P.new" && mv "$P.new" "$P"
    git rev-parse --short HEAD >"$OUT/commit"
fi
echo "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" >"$OUT/start.txt"
for ((i = 0; i < SHARDS; i++)); do
    if [ -f "$OUT/shard-$i.pdn" ]; then
        echo "shard $i/$SHARDS: done before"
        continue
    fi
    rm -f "$OUT/shard-$i.part"
    echo "shard $i/$SHARDS: $(date -u +%H:%M:%S)"
    nice "$P" match --engine "$P hub" --engine "$P hub" --games "$GAMES" --nodes "$NODES" \
        --concurrency "$CONCURRENCY" --openings "$OUT/start.txt" --shard "$i/$SHARDS" \
        --param "book-ply=$BOOK_PLY" --param "book-margin=$BOOK_MARGIN" \
        --pdn "$OUT/shard-$i.part" | tail -3
    mv "$OUT/shard-$i.part" "$OUT/shard-$i.pdn"
done
shards=()
for ((i = 0; i < SHARDS; i++)); do shards+=("$OUT/shard-$i.pdn"); done
target/$PROFILE/poolshark explorer build --pdn "${shards[@]}" --out books/explorer.games.new \
    --about "poolshark self-play (build $(cat "$OUT/commit")), $GAMES games at $NODES nodes a move from the start, the first $BOOK_PLY plies from the book within $(printf '0.%02d' "$BOOK_MARGIN") men of its best"
mv books/explorer.games.new books/explorer.games
echo "make-explorer: done $(date -u +%H:%M:%S)"
