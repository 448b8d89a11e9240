// The page's shared state, and what is read from it without drawing anything. The server
// owns the game and checks every request; `ui.state` is its last `state` message, untouched.

/** @typedef {import("./types.js").StateMsg} StateMsg */
/** @typedef {import("./types.js").TreeNode} TreeNode */

/** @type {import("./types.js").Ui} */
export const ui = {
  ws: null,
  connected: false,
  limits: { load_pdn: 3538944, other: 65536 }, // the largest messages the board reads (`hello`)
  closed: false, // the transport closed (or never opened): the page says to reload
  state: null,
  flipped: null, // null until the first state: then from the saved settings or the players
  selected: null, // square number of the selected piece
  choice: null, // the legal moves offered by the capture chooser (R15)
  preview: null, // the legal move whose path and captures are drawn
  setup: null, // {pieces: {square: "b"|"B"|"w"|"W"}, sent: bool} while placing pieces
  info: null, // the last `info` message for the position shown (the best line)
  lines: [], // the last `info` of each analysis line (multipv 1..5), best first
  multipv: 1, // analysis lines asked for (1-5), kept in localStorage
  // The opening explorer (js/explorer.js): open or not, and the board's last answer.
  explorer: { open: false, answer: null },
  // {sig, plies: {ply: review_ply message}, total, last, running, stopped, done,
  //  live: {node: {mark, eval, best}}}: `sig` the main line reviewed (`mainSig`), `live` what
  //  review_ply said since the last state (which has it in its nodes from then on)
  review: null,
  retry: null, // {ply, armed, pending, result, answer, learn}: "find a better move" for a marked ply (learn: a question of js/learn.js)
  // {side, plies, sig, i, tries, hint, settled, outcome: {ply: "found"|"hint"|"missed"}, done}:
  //  "learn from your mistakes" (js/learn.js): the side's marked plies of the main line `sig`,
  //  the question asked (`i`), whether its hint is given, how it ended, and the run's end
  learn: null,
  hint: null, // the square of the piece a learn question's hint rings on the board, or null
  reviewArrow: null, // the squares of the review's best move to draw as an arrow, or null
  hoverArrow: null, // the squares of the explorer's or the tables' move under the pointer, or null
  palette: "b", // the piece setup places ("" erases)
  pv: null, // {hubs, pdn, upto, line, pinned, timer}: a line of the analysis shown on the board
  anim: null, // {frames: [pieces...], step, timer}: a capture being shown jump by jump
  restored: false, // the saved game was offered to the server (once, at the first state)
  restoring: false, // the saved game is loading (js/store.js): its state plays no move sound
  pdnText: "", // the last PDN text sent, for choosing another of its games
  pdnWritten: "", // the last saved PDN the page put in the PDN box (js/pdn.js)
  pdnLoaded: false, // the game came from a PDN (a PDN file or box, not the board)
  notesSig: "", // the tree whose PDN was last asked for quietly (js/store.js)
  // The comment editor and tags fields (js/annotate.js): the node whose comment the text box
  // was filled with and that comment (what is typed since stays until saved or another move
  // is shown), and whether the tags fields are open.
  annotate: { node: null, comment: "", tagsOpen: false },
  // Who asked for each `save_pdn` not yet answered, oldest first (the server answers in
  // order): "save" (the save button), "copy" or "link" (js/share.js); the quiet ones
  // (js/store.js) are not listed: their answers say `quiet`.
  pdnFor: [],
  // What the share panel shows (js/share.js): `note` its line ("copied", or what went
  // wrong), `text` the text last copied, shown in the box (null: the box is hidden), and
  // `select` whether the clipboard refused it (it is then selected there for a Ctrl+C).
  share: { note: "", text: null, select: false },
  // A share link being opened (js/share.js): {kind: "fen"|"pdn", pending, atLoad}, or null.
  link: null,
  // The note after a share link opened (js/share.js): {text, restorable}, or null.
  linkNote: null,
  keysShown: false, // the list of keys is shown (js/keys.js)
  // The game kept across a reload (js/store.js): `loading` while its `load_pdn` is answered
  // ({v: the record, raw: its text, tries: [{path, clock, chapter}] to send in turn, at: the try
  // sent}), nothing being saved meanwhile; `aside` how many records are put aside, `why` what
  // became of the one put aside on this visit; `held` a record that could not be put aside
  // (nothing is saved over it), or null; `full` the last save found no room; `off` the
  // browser's storage is off, so nothing is kept.
  // `closed` how many records of tabs closed since are offered (js/tabs.js).
  keep: { loading: null, aside: 0, why: "", held: null, full: false, off: false, closed: 0 },
  // Puzzles (js/puzzle.js): the player handed to the board yet (`greeted`), the puzzle or
  // practice this tab showed to ask for again (`resume`), requests a state asked for (`send`), the player's
  // rating before the puzzle shown (`before`), the solution shown, the tab opened for
  // analysis while its PDN comes.
  puzzle: { greeted: false, resume: null, send: [], before: null, showSolution: false, analyse: null },
  // A new build of the static page waits (js/socket.js): "ready" (a reload opens it),
  // "others" (the page is open in other tabs, which keep the old one), or null.
  newBuild: null,
};

// An element of the page by id. Typed `any`: the page knows which kind each id is (a box, a
// button, a menu) and reads its fields as such.
/** @type {(id: string) => any} */
export const $ = (id) => document.getElementById(id);

// The one way the page's state changes: `update((ui) => { ... })` edits `ui`, then one render
// is scheduled (a microtask), however many updates come before it runs. Before it draws, the
// state derived from the rest of `ui` is computed once for the whole batch of changes
// (`js/derive.js` registers that step), so that the render only reads `ui`. `js/render.js`
// registers the function that draws the page from `ui`.
/** @type {(() => void) | null} */
let renderer = null;
/** @type {(() => void) | null} */
let deriver = null;
let scheduled = false;

/** @param {() => void} fn the page's one render (js/render.js) */
export function setRenderer(fn) {
  renderer = fn;
}

/** @param {() => void} fn what is derived from `ui` after a batch of changes (js/derive.js) */
export function setDeriver(fn) {
  deriver = fn;
}

/**
 * Change the page's state and draw it once, soon.
 * @param {(ui: import("./types.js").Ui) => void} [change] edits `ui`; none to redraw only
 */
export function update(change) {
  if (change) change(ui);
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    if (deriver) deriver();
    if (renderer) renderer();
  });
}

/** @type {Record<string, string>} the sides' names, by `"black"` and `"white"` */
export const SIDE = { black: "Black", white: "White" };

// The review's marks (docs/ANNOTATE.md) and their names, used as CSS classes too.
/** @type {Record<string, string>} */
export const MARKS = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };

/**
 * @param {number} sq
 * @returns {import("./types.js").Move[]}
 */
export function legalFrom(sq) {
  if (!ui.state) return [];
  return ui.state.legal.filter((m) => m.from === sq);
}

export function canMove() {
  const st = ui.state;
  return ui.connected && st && !st.result && !st.thinking && st.legal.length > 0;
}

// Black (0) or White (1) to move at the start of the game.
/** @param {StateMsg} st */
function startOffset(st) {
  return (st.start_fen || "B").trim().charAt(0).toUpperCase() === "W" ? 1 : 0;
}

// Who is to move after `ply` plies of the game.
/**
 * @param {StateMsg} st
 * @param {number} ply
 * @returns {"black" | "white"}
 */
export function sideAt(st, ply) {
  return (ply + startOffset(st)) % 2 === 0 ? "black" : "white";
}

// The number of the move that ply `i` (from 0) of the game is part of, and whether it is
// the first of its move. Moves are numbered in pairs from the game's first ply, whichever
// side makes it (Black from the start, R3; White in a set-up position with White to move),
// as the PDN the server writes numbers them: "1. 22-18 9-14 2. ...".
/** @param {number} i */
export function moveNumber(i) {
  return { no: Math.floor(i / 2) + 1, first: i % 2 === 0 };
}

// A score as the page shows it: a sign always, except for 0.00.
/** @param {string | number} s */
export function scoreText(s) {
  const str = String(s);
  return str.startsWith("-") || str === "0.00" ? str : "+" + str;
}

// The main line's nodes (`state.nodes`, each move's first child), the root first.
/**
 * @param {StateMsg} st
 * @returns {TreeNode[]}
 */
function mainNodes(st) {
  const nodes = new Map((st.nodes || []).map((n) => [n.id, n]));
  const line = [];
  let n = st.nodes && st.nodes[0];
  while (n) {
    line.push(n);
    n = n.children.length ? nodes.get(n.children[0]) : undefined;
  }
  return line;
}

// The main line as a signature: what a review reviews.
/** @param {StateMsg} st */
export function mainSig(st) {
  return st.start_fen + " " + mainNodes(st).slice(1).map((n) => n.hub).join(" ");
}

// The line of play shown, as a signature: the main line's while the position shown is on
// it (so that a review's plies are the plies shown), something else off it.
/** @param {StateMsg} st */
export function historySig(st) {
  if (mainNodes(st).some((n) => n.id === st.node)) return mainSig(st);
  return "off the main line at node " + st.node;
}

// Whether a timed game's clocks are live (before its first move or running): the board then
// refuses take-backs, stepping, promote, delete and engine help, so their buttons are off.
/** @param {import("./types.js").StateMsg} st */
export function clocksLive(st) {
  return !!st.clock && (!!st.clock.live || !!st.clock.running);
}

// The players as the "players" menu names them.
/** @param {StateMsg} st */
export function modeOf(st) {
  if (st.black === "human" && st.white === "engine") return "black";
  if (st.white === "human" && st.black === "engine") return "white";
  if (st.white === "engine" && st.black === "engine") return "engine";
  return "human";
}
