// The game and the settings kept across a reload (localStorage): saved after every state.
// The game is kept as the server's PDN of it (variations, comments, marks, scores, tags,
// clocks), asked for quietly (`save_pdn` with `quiet`) whenever its tree changes, with the
// path to the node shown; a reload restores it in one request, `load_pdn` with that `path`
// (docs/BOARD.md), then sets the players, the strength and the analysis as they were. A timed
// game comes back with its clocks (`load_pdn`'s `clock`): the time the page was away is
// counted against the side to move, whose clock ran on all the while.

import { ui, $, update } from "./state.js";
import { send } from "./socket.js";
import { showMessage } from "./messages.js";
import { analyzeRequest } from "./analysis.js";

// The key of the kept game (js/share.js puts it aside when a link opens).
export const STORE = "poolshark-board";

// A short hash of the game's tree with its notes: a kept PDN is of the tree with this hash.
/** @param {import("./types.js").StateMsg} st */
function treeSig(st) {
  const text = st.start_fen + JSON.stringify(st.nodes || []) + JSON.stringify(st.tags || {});
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16) + ":" + text.length;
}

// The node shown as the moves from the start (what `load_pdn`'s `path` takes): node ids are
// the server's and are not kept by a reload, and a promotion reorders the variations, but
// the moves stay; and should the kept PDN be a move behind, the server plays that move.
/**
 * @param {import("./types.js").StateMsg} st
 * @returns {string[]}
 */
function pathTo(st) {
  const nodes = new Map((st.nodes || []).map((n) => [n.id, n]));
  const path = [];
  let n = nodes.get(st.node);
  while (n && n.parent !== null && n.parent !== undefined) {
    const parent = nodes.get(n.parent);
    if (!parent) break;
    path.unshift(n.hub);
    n = parent;
  }
  return path;
}

// After a state: a game whose tree changed asks for its PDN (`onQuietPdn` keeps it).
/** @param {import("./types.js").StateMsg} st */
export function keepNotes(st) {
  const sig = treeSig(st);
  if (sig === ui.notesSig) return;
  update((ui) => {
    ui.notesSig = sig;
  });
  send({ type: "save_pdn", quiet: true });
}

// A `pdn` that answers `keepNotes`: kept with the tree it is of, the tree asked for last.
/** @param {string} text */
export function onQuietPdn(text) {
  const v = loadSaved();
  if (!v) return;
  v.pdn = text;
  v.pdn_sig = ui.notesSig;
  try {
    localStorage.setItem(STORE, JSON.stringify(v));
  } catch (e) {
    // As in `save`.
  }
}

// The game and the settings of state `st` saved.
/** @param {import("./types.js").StateMsg} st */
export function save(st) {
  const old = loadSaved();
  const c = st.clock;
  try {
    localStorage.setItem(
      STORE,
      JSON.stringify({
        start_fen: st.start_fen,
        tree_sig: treeSig(st),
        // The kept PDN (see the note), the tree it is of, and the node shown in this tree.
        pdn: old && old.pdn,
        pdn_sig: old && old.pdn_sig,
        path: pathTo(st),
        white: st.white,
        black: st.black,
        level: st.level,
        flipped: ui.flipped,
        analyzing: st.analyzing,
        multipv: ui.multipv,
        // A timed game's clocks while they are live, and when they read so (ms since 1970).
        clock: c && c.live ? { black_ms: c.black_ms, white_ms: c.white_ms, running: c.running, base_ms: c.base_ms, inc_ms: c.inc_ms } : null,
        saved_at: Date.now(),
      })
    );
  } catch (e) {
    // Storage may be off (private windows): the page works without it.
  }
}

function loadSaved() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || "null");
    return v && typeof v.start_fen === "string" ? v : null;
  } catch (e) {
    return null;
  }
}

// The clocks to resume, as `load_pdn`'s `clock`: the running side's time less the time the
// page was away (at least 0: its flag then falls at once).
/** @returns {import("./types.js").ClockResume | null} */
function resumedClock(v) {
  const c = v.clock;
  if (!c || typeof c.black_ms !== "number" || typeof c.white_ms !== "number") return null;
  const away = typeof v.saved_at === "number" ? Math.max(0, Date.now() - v.saved_at) : 0;
  const left = (side) => Math.max(0, Math.round(c[side + "_ms"] - (c.running === side ? away : 0)));
  return { base: c.base_ms / 1000, inc: c.inc_ms / 1000, black_ms: left("black"), white_ms: left("white") };
}

// The first state of a connection is a fresh game: bring the saved one back into it.
/** @param {import("./types.js").StateMsg} st the first state, of a fresh game */
export function restore(st) {
  const v = loadSaved();
  if (!v) {
    save(st);
    return;
  }
  update((ui) => {
    if (typeof v.flipped === "boolean") ui.flipped = v.flipped;
    if ([1, 2, 3, 4, 5].includes(v.multipv)) ui.multipv = v.multipv;
  });
  if ([1, 2, 3, 4, 5].includes(v.multipv)) $("multipv").value = String(v.multipv);
  // The game first: its state is the answer to the first request (js/main.js).
  if (typeof v.pdn === "string" && v.pdn) {
    /** @type {import("./types.js").Request} */
    const req = { type: "load_pdn", pdn: v.pdn };
    // The node shown (its moves are played where the PDN kept is behind the tree shown).
    if (Array.isArray(v.path)) req.path = v.path;
    const clock = resumedClock(v);
    if (clock) {
      req.clock = clock;
      showMessage("note", "the timed game goes on after the reload: the clock of the side to move ran while the page was away");
    }
    // The game comes back without a move's sound or animation (js/main.js).
    update((ui) => {
      ui.restoring = true;
    });
    send(req);
  } else if (Array.isArray(v.tree) || Array.isArray(v.moves)) {
    restoreOlder(v);
  }
  const l = v.level || {};
  const level = Number.isInteger(l.level) && l.level >= 1 && l.level <= 10 ? { level: l.level } : {};
  if (l.depth) send({ type: "level", depth: l.depth, ...level });
  else if (l.movetime) send({ type: "level", movetime: l.movetime, ...level });
  send({ type: "players", white: v.white === "engine" ? "engine" : "human", black: v.black === "engine" ? "engine" : "human" });
  if (v.analyzing && !v.clock) send(analyzeRequest(true));
}

// A game kept by the page before it kept PDN (its tree as moves, `[parent's index, move]` in
// the order the nodes were made, or only its line as `moves`): played into the fresh game
// once, so that an update of the page loses no one's game. Each node goes in by `add_line`
// after its parent, which is the node made that many nodes before (node k is made k-th, from
// the root 0), then the node shown is shown; from then on the game is kept as its PDN.
/** @param {any} v the kept game, in the older page's shape */
function restoreOlder(v) {
  /** @type {[number, string][]} */
  const tree = Array.isArray(v.tree)
    ? v.tree.filter((/** @type {any} */ e) => Array.isArray(e) && typeof e[0] === "number" && typeof e[1] === "string")
    : (v.moves || []).filter((/** @type {any} */ m) => typeof m === "string").map((/** @type {string} */ m, /** @type {number} */ i) => [i, m]);
  if (!tree.length && v.start_fen === (ui.state && ui.state.start_fen)) return;
  update((ui) => {
    ui.restoring = true;
  });
  send({ type: "setup", fen: v.start_fen });
  for (const [parent, move] of tree) send({ type: "add_line", node: parent, moves: [move] });
  if (Array.isArray(v.tree) && typeof v.node === "number") send({ type: "goto", node: v.node });
  else if (typeof v.ply === "number") send({ type: "goto", ply: v.ply });
}
