// The page's types, for the type check alone (scripts/js-check.sh, `tsc --noEmit`): the
// page's state `ui` (js/state.js), the board's messages (docs/BOARD.md) and the requests the
// page sends. The messages' fields are protocol.rs's (crates/engine/src/board/), and
// tests/board_messages.rs holds the two, and docs/BOARD.md, to the same fields. Other modules name them in JSDoc as `import("./types.js").Name`, which the
// browser never fetches: this module holds no code. It is served with the page all the
// same (src/serve/assets.rs follows those references as it follows imports).

// ---------- the server's messages ----------

/**
 * A legal move, or a move played (`history`).
 * @typedef {object} Move
 * @property {string} hub the move in Hub notation (what `move` sends)
 * @property {string} pdn the move in PDN notation (what the page shows)
 * @property {number} [from]
 * @property {number} [to]
 * @property {number[]} captured the squares taken
 * @property {number[]} path the landing squares from origin to destination
 */

/**
 * A node of the game tree (`state.nodes`): the root has no move.
 * @typedef {object} TreeNode
 * @property {number} id
 * @property {number | null} parent
 * @property {number[]} children the main continuation first
 * @property {string} [hub]
 * @property {string} [pdn]
 * @property {number[]} [captured]
 * @property {number[]} [path]
 * @property {string | null} [mark] `!` `?` `!!` `??` `!?` `?!`
 * @property {string | null} [eval] the score after the move, for Black
 * @property {string} [best] the review's best move in the position before
 * @property {number[]} [nags]
 * @property {string} [comment]
 * @property {string} [before]
 * @property {NodeReview | null} [review] the review's verdict on the move
 */

/**
 * A reviewed move's verdict (docs/BOARD.md, `nodes[].review`).
 * @typedef {object} NodeReview
 * @property {string | null} mark the review's own mark
 * @property {number} loss
 * @property {string} [best_score]
 * @property {number[]} [best_path]
 * @property {string[]} [line]
 */

/**
 * Each side's summary over the main line's reviewed moves (`state.review`).
 * @typedef {object} ReviewSummary
 * @property {number} plies
 * @property {number} of
 * @property {SideReport} black
 * @property {SideReport} white
 */

/**
 * A timed game's clocks.
 * @typedef {object} ClockState
 * @property {number} black_ms
 * @property {number} white_ms
 * @property {"black" | "white" | null} running
 * @property {boolean} live in play: before the first move or running
 * @property {number} base_ms
 * @property {number} inc_ms
 */

/**
 * The engine's strength: seconds per move or a depth, and a playing level.
 * @typedef {object} Level
 * @property {number} [movetime]
 * @property {number} [depth]
 * @property {number} [level]
 */

/**
 * @typedef {object} GameResult
 * @property {"black" | "white" | null} winner
 * @property {string} reason
 */

/**
 * @typedef {object} Counts
 * @property {number | null} forty
 * @property {number} forty_limit
 * @property {number | null} thirteen
 * @property {number} thirteen_limit
 */

/**
 * The endgame tables' verdict, for Black.
 * @typedef {object} Egdb
 * @property {"win" | "draw" | "loss"} black
 * @property {number | null} dtc
 * @property {string} black50
 * @property {MoveVerdict[]} moves each legal move's verdict, the best first (empty until known)
 */

/**
 * A move's verdict in the endgame tables, for the side that plays it.
 * @typedef {object} MoveVerdict
 * @property {string} move PDN
 * @property {string} hub
 * @property {number[]} path
 * @property {"win" | "draw" | "loss"} result
 * @property {string} result50 under the 40-move rule from a fresh count
 * @property {number | null} dtc plies to the next capture or man move after it
 */

/**
 * The whole state after any change.
 * @typedef {object} StateMsg
 * @property {"state"} type
 * @property {string} fen
 * @property {"black" | "white"} side
 * @property {Object<string, string>} pieces square → b/w men, B/W kings
 * @property {Move[]} legal
 * @property {Move[]} history every ply of the current line
 * @property {number} ply the position shown, after this many plies of the line
 * @property {number} node the node shown
 * @property {number[]} [line] the current line's nodes, root first
 * @property {TreeNode[]} [nodes]
 * @property {string} start_fen
 * @property {"human" | "engine"} white
 * @property {"human" | "engine"} black
 * @property {boolean} thinking
 * @property {boolean} analyzing
 * @property {GameResult | null} result
 * @property {Counts} [counts]
 * @property {Level} level
 * @property {Egdb | null} [egdb]
 * @property {ClockState | null} [clock]
 * @property {Object<string, string>} [tags] the tags `save_pdn` writes
 * @property {ReviewSummary | null} [review]
 * @property {PuzzleState | null} [puzzle] the puzzle on the board (docs/BOARD.md, "Puzzles")
 * @property {PracticeState | null} [practice] the endgame practice on the board
 * @property {PartialLoad | null} [partial] where a `load_pdn` with `partial` stopped
 * @property {ChapterInfo[]} chapters the study's chapters, in order (docs/BOARD.md, "Studies")
 * @property {number} chapter the chapter shown, from 1
 */

/**
 * The opening explorer's answer (`explore`): its moves at node `node`.
 * @typedef {object} ExplorerMsg
 * @property {"explorer"} type
 * @property {number} node
 * @property {string} about which games it counts
 * @property {number} count how many
 * @property {ExplorerMove[]} moves
 */

/**
 * A move of the explorer.
 * @typedef {object} ExplorerMove
 * @property {string} move PDN
 * @property {string} hub
 * @property {number[]} path
 * @property {string | null} score the book's, side to move (men); null off the book
 * @property {string | null} score_black the same from Black's view
 * @property {number} games
 * @property {number} black
 * @property {number} draws
 * @property {number} white
 */

/**
 * A study's chapter as the state lists it.
 * @typedef {object} ChapterInfo
 * @property {string} name
 * @property {number} plies its main line's moves
 * @property {string} result the result it saves
 */

/**
 * Where a game loaded with `partial` stopped: the ply of the move that cannot be played, and
 * the error a whole load gives.
 * @typedef {object} PartialLoad
 * @property {number} ply
 * @property {string} message
 */

/**
 * @typedef {object} PracticeState
 * @property {string} id
 * @property {string} name
 * @property {string} teaches
 * @property {"win" | "draw"} goal
 * @property {"playing" | "solved" | "failed"} result
 * @property {number | null} moves_to_hold for a draw to hold, the moves still to make
 */

/**
 * @typedef {object} PuzzleState
 * @property {string} id
 * @property {number} rating
 * @property {string[]} themes
 * @property {"win" | "save"} goal
 * @property {"playing" | "solved" | "failed"} result
 * @property {number} player_rating
 * @property {number} player_rd
 * @property {number} player_vol
 * @property {number | null} streak puzzles solved in a row in a streak, or null
 * @property {string[] | null} solution Hub moves, once solved or failed
 */

/**
 * A search's progress: the best line (multipv 1, or no `multipv`) or another.
 * @typedef {object} InfoMsg
 * @property {"info"} type
 * @property {number} depth
 * @property {string} score for the side to move
 * @property {string} [score_black]
 * @property {number} nodes
 * @property {number} time
 * @property {string[]} pv
 * @property {string[]} [pv_pdn]
 * @property {number} [multipv]
 */

/**
 * One reviewed move, or (without `node`) a retry's answer.
 * @typedef {object} ReviewPlyMsg
 * @property {"review_ply" | "retry_result"} type
 * @property {number} ply
 * @property {number} [node]
 * @property {string | null} [node_mark]
 * @property {string} move
 * @property {string} score
 * @property {string} best
 * @property {string} best_score
 * @property {number[]} best_path
 * @property {string[]} pv
 * @property {number} loss
 * @property {boolean} good
 * @property {string | null} mark
 */

/**
 * @typedef {object} SideReport
 * @property {number} inaccuracies
 * @property {number} mistakes
 * @property {number} blunders
 * @property {number} moves
 * @property {number} mean_loss
 * @property {number} accuracy
 */

/**
 * @typedef {object} ReviewDoneMsg
 * @property {"review_done"} type
 * @property {SideReport} black
 * @property {SideReport} white
 * @property {boolean} stopped
 */

/**
 * One game of a PDN text of several, for the chooser.
 * @typedef {object} PdnGameTags
 * @property {number} number from 1
 * @property {Object<string, string>} tags
 * @property {number} plies
 */

/**
 * @typedef {object} GamesMsg
 * @property {"games"} type
 * @property {PdnGameTags[]} games
 * @property {number} loaded
 * @property {number} count
 */

/**
 * @typedef {object} PdnMsg
 * @property {"pdn"} type
 * @property {string} pdn
 * @property {boolean} [quiet] the answer to a `save_pdn` with `quiet`
 */

/**
 * @typedef {object} ErrorMsg
 * @property {"error"} type
 * @property {string} message
 */

/**
 * The largest messages the board reads, in bytes of their JSON text (`hello`).
 * @typedef {object} MessageLimits
 * @property {number} load_pdn
 * @property {number} other
 */

/**
 * @typedef {object} HelloMsg
 * @property {"hello"} type
 * @property {string} version
 * @property {MessageLimits} limits
 */

/**
 * @typedef {object} PongMsg
 * @property {"pong"} type
 */

/**
 * Any message of the board's.
 * @typedef {StateMsg | InfoMsg | ReviewPlyMsg | ReviewDoneMsg | GamesMsg | PdnMsg | ExplorerMsg | ErrorMsg | HelloMsg | PongMsg} ServerMsg
 */

// ---------- the page's requests ----------

/**
 * A request to the board (docs/BOARD.md, "Page -> server"): its `type` and its fields.
 * @typedef {{type: "new", white: string, black: string, fen?: string, clock?: ClockSpec}
 *   | {type: "level", movetime?: number, depth?: number, level?: number}
 *   | {type: "move", move: string}
 *   | {type: "undo"} | {type: "redo"} | {type: "stop"} | {type: "engine_move"} | {type: "ping"}
 *   | {type: "goto", ply?: number, node?: number}
 *   | {type: "promote", node: number, to_main: boolean}
 *   | {type: "delete", node: number}
 *   | {type: "analyze", on: boolean, multipv?: number}
 *   | {type: "review", depth?: number, movetime?: number, nodes?: number}
 *   | {type: "retry", ply: number, move: string, depth?: number, movetime?: number, nodes?: number}
 *   | {type: "setup", fen: string}
 *   | {type: "load_pdn", pdn: string, game?: number, path?: string[], clock?: ClockResume, partial?: boolean, study?: boolean}
 *   | {type: "chapter", index: number}
 *   | {type: "chapter_add", fen?: string, pdn?: string, name?: string}
 *   | {type: "chapter_rename", index: number, name: string}
 *   | {type: "chapter_move", index: number, to: number}
 *   | {type: "chapter_delete", index: number}
 *   | {type: "explore"}
 *   | {type: "players", white: string, black: string}
 *   | {type: "save_pdn", quiet?: boolean, chapter?: boolean}
 *   | {type: "annotate", node: number, comment?: string, nag?: string | null, nags?: number[]}
 *   | {type: "tags", tags: Object<string, string>}
 *   | {type: "add_line", node: number, moves: string[]}
 *   | {type: "puzzle", theme?: string, id?: string, streak?: boolean, rated?: boolean}
 *   | {type: "puzzle_player", rating: number, rd: number, vol: number}
 *   | {type: "practice", id?: string}} Request
 */

/**
 * A timed game's control (`new`'s `clock`).
 * @typedef {object} ClockSpec
 * @property {number} base seconds
 * @property {number} inc seconds
 */

/**
 * A timed game's clocks taken up again after a reload (`load_pdn`'s `clock`).
 * @typedef {object} ClockResume
 * @property {number} base seconds
 * @property {number} inc seconds
 * @property {number} black_ms
 * @property {number} white_ms
 */

// ---------- the page's state ----------

/**
 * A review on the page (js/review.js).
 * @typedef {object} Review
 * @property {string} sig the main line reviewed (`mainSig`)
 * @property {Object<number, ReviewPlyMsg>} plies
 * @property {number} total
 * @property {number} last
 * @property {boolean} running
 * @property {boolean} stopped
 * @property {ReviewDoneMsg | null} done
 * @property {Object<number, {mark: string | null, eval: string, best: string}>} live
 * @property {boolean} [asked] sent and not yet answered by a state
 */

/**
 * "Find a better move" at a marked ply (js/teach.js).
 * @typedef {object} Retry
 * @property {number} ply
 * @property {boolean} armed
 * @property {string | null} pending the move being judged
 * @property {ReviewPlyMsg | null} result
 * @property {boolean} answer
 * @property {boolean} [learn] a question of "learn from your mistakes" (js/learn.js)
 */

/**
 * A line of the analysis shown on the board (js/analysis.js).
 * @typedef {object} PvShown
 * @property {InfoMsg} info the line as it was when first shown
 * @property {string[]} hubs
 * @property {string[]} pdn
 * @property {number} upto
 * @property {number} line
 * @property {boolean} pinned
 * @property {ReturnType<typeof setInterval> | null} timer
 */

/**
 * The page's state (js/state.js `ui`); each field is described there.
 * @typedef {object} Ui
 * @property {WebSocket | null} ws
 * @property {boolean} connected
 * @property {boolean} closed
 * @property {MessageLimits} limits
 * @property {StateMsg | null} state
 * @property {boolean | null} flipped
 * @property {number | null} selected
 * @property {Move[] | null} choice
 * @property {Move | null} preview
 * @property {{pieces: Object<string, string>, sent: boolean} | null} setup
 * @property {InfoMsg | null} info
 * @property {InfoMsg[]} lines
 * @property {number} multipv
 * @property {{open: boolean, answer: ExplorerMsg | null}} explorer the opening explorer (js/explorer.js)
 * @property {Review | null} review
 * @property {Retry | null} retry
 * @property {number[] | null} reviewArrow
 * @property {number[] | null} hoverArrow the explorer's or the tables' move under the pointer
 * @property {string} palette
 * @property {PvShown | null} pv
 * @property {{frames: Object<string, string>[], step: number, timer: ReturnType<typeof setTimeout> | null} | null} anim
 * @property {boolean} restored
 * @property {boolean} restoring
 * @property {string} pdnText
 * @property {boolean} pdnLoaded
 * @property {string} notesSig
 * @property {{node: number | null, comment: string, tagsOpen: boolean}} annotate
 * @property {string} pdnWritten
 * @property {string[]} pdnFor
 * @property {{note: string, text: string | null, select: boolean}} share
 * @property {{kind: "fen" | "pdn", pending: boolean, atLoad: boolean} | null} link
 * @property {{text: string, restorable: boolean} | null} linkNote
 * @property {boolean} keysShown
 * @property {"ready" | "others" | null} newBuild
 * @property {{loading: KeptLoad | null, aside: number, why: string, held: string | null, full: boolean, off: boolean, closed: number}} keep
 * @property {{greeted: boolean, resume: Request | null, send: Request[], before: number | null, showSolution: boolean, analyse: Window | null}} puzzle
 * @property {Learn | null} learn
 * @property {number | null} hint
 */

/**
 * The kept game being loaded back (js/store.js): described at `ui.keep` in js/state.js.
 * @typedef {object} KeptLoad
 * @property {any} v
 * @property {string} raw
 * @property {{path: string[] | null, clock: ClockResume | null, chapter: number}[]} tries
 * @property {number} at
 */

/**
 * "Learn from your mistakes" (js/learn.js): described at `ui.learn` in js/state.js.
 * @typedef {object} Learn
 * @property {string} side
 * @property {number[]} plies
 * @property {string} sig
 * @property {number} i
 * @property {number} tries
 * @property {boolean} hint
 * @property {"found" | "hint" | "missed" | null} settled how the question ended (null: not yet)
 * @property {Object<number, string>} outcome
 * @property {boolean} [done] the last question is settled and the tally shown
 */

export {};
