//! The full-width search of one thread, step by step (steps 1-11): alpha-beta with
//! principal variation search, the draw rules checked at every node, the transposition
//! table before the endgame tables, ProbCut, the single-reply extension, late-move
//! reductions and the table store. The horizon goes to the capture search (`quiescence`).

use super::keys::{table_result_keys, tt_key, TABLE_DEPTH};
use super::Worker;
use crate::core::game::DrawCounts;
use crate::core::rules::REPETITIONS_FOR_DRAW;
use crate::core::{movegen, MoveList, Position};
use crate::search::ordering::{pick_next, Ordered};
use crate::search::params::MAX_SEARCH_PLY;
use crate::search::score::Score;
use crate::search::tt::Bound;

/// A node of the full-width search once its moves are generated: what the move loop
/// (`search_moves`) reads, for the node itself and for ProbCut's shallower look at it.
#[derive(Clone, Copy)]
struct Node<'n> {
    pos: &'n Position,
    counts: DrawCounts,
    moves: &'n MoveList,
    /// The table's best move, as an index into `moves`.
    hash_index: Option<u8>,
    /// The table key (`tt_key`).
    key: u64,
    depth: i32,
    ply: usize,
}

impl Worker<'_> {
    /// Has the current position (not yet pushed) stood on the board before in a way that
    /// makes it a draw? Inside the search line one repetition is enough (the side that
    /// repeated can repeat again); against the game before the root it takes two (R17).
    fn is_repetition(&self, key: u64, counts: DrawCounts, ply: usize) -> bool {
        let len = self.keys.len();
        let reach = (counts.quiet_king_plies as usize).min(len);
        let mut seen = 0;
        let mut d = 4;
        while d <= reach {
            if self.keys[len - d] == key {
                if d <= ply {
                    return true;
                }
                seen += 1;
                // The current position is one more occurrence.
                if seen + 1 >= REPETITIONS_FOR_DRAW {
                    return true;
                }
            }
            d += 2;
        }
        false
    }

    /// Alpha-beta with principal variation search. Scores are from the side to move.
    pub(super) fn search(
        &mut self,
        pos: &Position,
        counts: DrawCounts,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
    ) -> Score {
        let p = self.shared.params;
        let pv_node = beta.0 - alpha.0 > 1;
        self.pv[ply].clear();

        // 1. Count the node; give up if the search was stopped.
        self.visit();
        if self.stopped {
            return Score::ZERO;
        }

        // 2. Draw rules (R17-R19), never at the root. A side with no move has lost even
        //    when a count runs out (R16 comes first, as in the game).
        if ply > 0 {
            if counts.draw_reason().is_some() {
                return if movegen::count_moves(pos) == 0 {
                    Score::loss_in(ply as i32)
                } else {
                    Score::DRAW
                };
            }
            if self.is_repetition(pos.key(), counts, ply) {
                return Score::DRAW;
            }
            // 3. Mate-distance pruning: no result here beats a win already in hand.
            alpha = alpha.max(Score::loss_in(ply as i32));
            beta = beta.min(Score::win_in(ply as i32 + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // 4. The horizon: resolve captures (a position the endgame tables cover goes on to
        //    them first).
        let in_tables = ply > 0 && pos.occupied().count() <= self.shared.egdb_pieces;
        let horizon = depth <= 0 || ply >= MAX_SEARCH_PLY;
        if horizon && !in_tables {
            return self.qsearch(pos, alpha, beta, ply);
        }

        // 5. Transposition table probe, before the tables: far cheaper than a table probe,
        //    and it holds what the tables said (step 5b). Such an entry is exact and always
        //    deep enough, so it is taken at any node, as the tables' own answer would be.
        let key = tt_key(pos, counts);
        let entry = self.shared.tt.probe(key);
        self.stats.tt_probes += 1;
        if let Some(e) = entry {
            self.stats.tt_hits += 1;
            let from_tables = e.depth >= TABLE_DEPTH && e.bound == Bound::Exact;
            // What the tables said stays in the table after they are switched off (the Hub's
            // egdb=false): a search without them does not take it.
            let usable = e.depth < TABLE_DEPTH || self.shared.egdb.is_some();
            if ply > 0 && usable && (from_tables || (!pv_node && e.depth >= depth)) {
                let s = e.score.from_tt(ply as i32);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        if in_tables {
            // 5b. Endgame tables: a position they cover, with no capture pending, is known.
            //     What they say goes into the table, where the draw counts cannot change it
            //     for another position of the same key (see `table_result_keys`).
            if let Some(db) = self.shared.egdb {
                self.stats.egdb_probes += 1;
                if let Some(t) = crate::search::egdb::probe(db, pos, counts, ply) {
                    if table_result_keys(counts, t.stake) {
                        let s = t.score.to_tt(ply as i32);
                        self.shared
                            .tt
                            .store(key, s, TABLE_DEPTH, Bound::Exact, None);
                    }
                    return t.score;
                }
            }
            // 5c. The horizon for a covered position with a capture pending.
            if horizon {
                return self.qsearch(pos, alpha, beta, ply);
            }
        }

        // 6. Generate moves; none means a loss (R16).
        let mut moves = MoveList::new();
        movegen::generate(pos, &mut moves);
        if moves.is_empty() {
            return Score::loss_in(ply as i32);
        }

        let node = Node {
            pos,
            counts,
            moves: &moves,
            hash_index: entry.and_then(|e| e.move_index),
            key,
            depth,
            ply,
        };

        // 7. ProbCut: a shallower search that clears beta by a margin predicts a cut-off.
        //    (No null move: zugzwang is everywhere in draughts.) It searches this node's
        //    moves again, with the key and hash move already in hand.
        if !pv_node && ply > 0 && depth >= p.probcut_min_depth && !beta.is_decisive() {
            let rbeta = beta + p.probcut_margin;
            if !rbeta.is_decisive() {
                let reduced = depth - p.probcut_reduction;
                let s = if reduced <= 0 {
                    self.qsearch(pos, rbeta - 1, rbeta, ply)
                } else {
                    self.search_moves(
                        Node {
                            depth: reduced,
                            ..node
                        },
                        rbeta - 1,
                        rbeta,
                    )
                };
                if self.stopped {
                    return Score::ZERO;
                }
                if s >= rbeta {
                    return s;
                }
            }
        }

        // 8. Extension: a forced move costs no depth.
        if moves.len() == 1 && p.single_reply_extension {
            depth += 1;
        }

        self.search_moves(Node { depth, ..node }, alpha, beta)
    }

    /// 9-11. The move loop: ordering, late-move reductions, PVS, and the table store.
    fn search_moves(&mut self, node: Node<'_>, mut alpha: Score, beta: Score) -> Score {
        let Node {
            pos,
            counts,
            moves,
            hash_index,
            key,
            depth,
            ply,
        } = node;
        let p = self.shared.params;
        let pv_node = beta.0 - alpha.0 > 1;
        let alpha_orig = alpha;
        let hash_index = hash_index.filter(|&i| (i as usize) < moves.len());
        let mut order = Ordered::new();
        self.heur
            .score_moves(pos, moves, hash_index, ply, &mut order);
        let mut best = -Score::INFINITE;
        let mut best_index: Option<usize> = None;
        let crowning = crate::core::Position::crowning_row(pos.side());
        // Multi-PV: a root search for a further line passes over the moves of earlier lines
        // (the first searched move then gets the full window, as the first move does).
        let excluding = ply == 0 && !self.excluded.is_empty();
        // Moves searched so far (all the moves before this one, unless some were passed over).
        let mut searched = 0;

        self.keys.push(pos.key());
        for i in 0..order.len() {
            pick_next(&mut order, i);
            let idx = order[i].0 as usize;
            let mv = moves[idx];
            if excluding && self.excluded.contains(&mv) {
                continue;
            }
            let next = depth - 1;
            let n = searched;
            searched += 1;
            let crowns = crowning.contains(mv.to) && !pos.kings().contains(mv.from);
            let quiet = !mv.is_capture() && !crowns && !self.heur.is_killer(ply, &mv);
            let child = pos.play(&mv);
            let child_counts = counts.after(pos, &mv, &child);
            self.shared.tt.prefetch(tt_key(&child, child_counts));

            // 9. Late-move reductions for quiet moves that are neither killers nor crownings.
            let mut r = 0;
            if quiet && depth >= p.lmr_min_depth && n >= p.lmr_min_moves {
                r = self.shared.reductions.get(depth, n);
                if pv_node {
                    r -= p.lmr_pv_less;
                }
                // The reduced search keeps at least one full-width ply; at depth 1 nothing
                // can be reduced.
                r = r.min(depth - 2).max(0);
            }

            // 10. Principal variation search.
            let mut score;
            if n == 0 {
                score = -self.search(&child, child_counts, -beta, -alpha, next, ply + 1);
            } else {
                score = -self.search(&child, child_counts, -alpha - 1, -alpha, next - r, ply + 1);
                if score > alpha && r > 0 {
                    score = -self.search(&child, child_counts, -alpha - 1, -alpha, next, ply + 1);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.search(&child, child_counts, -beta, -alpha, next, ply + 1);
                }
            }
            if self.stopped {
                self.keys.pop();
                return Score::ZERO;
            }

            if score > best {
                best = score;
                best_index = Some(idx);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if alpha >= beta {
                        let tried = order[..i].iter().map(|&(j, _)| moves[j as usize]);
                        self.heur.on_cutoff(pos.side(), ply, depth, &mv, tried);
                        break;
                    }
                }
            }
        }
        self.keys.pop();

        // 11. Store the result (not in a search for a further multi-PV line, see `iterate`).
        if !self.excluded.is_empty() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best.to_tt(ply as i32),
            depth,
            bound,
            best_index.map(|i| i as u8),
        );
        best
    }
}
