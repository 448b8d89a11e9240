// The game and the settings kept across a reload (localStorage): saved after every state,
// and replayed into the fresh game of a new connection, variations included. A game with
// notes (a review's marks and scores, a PDN's comments, NAGs and tags) is kept as the
// server's PDN of it too, asked for quietly after each change (`keepNotes`), and a reload
// loads that PDN and walks to the move shown, so nothing of it is lost; a game without
// notes comes back as its moves.

import { ui, $, update } from "./state.js";
import { send } from "./socket.js";
import { analyzeRequest } from "./analysis.js";

// The key of the kept game (js/share.js puts it aside when a link opens).
export const STORE = "poolshark-board";

// A short hash of the game's tree with its notes: a kept PDN is of the tree with this hash.
function treeSig(st) {
  const text = st.start_fen + JSON.stringify(st.nodes || []);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16) + ":" + text.length;
}

function hasNotes(st) {
  return (
    ui.pdnLoaded ||
    (st.nodes || []).some((n) => n.mark || (n.eval !== null && n.eval !== undefined) || n.comment || n.before || (n.nags && n.nags.length))
  );
}

// After a state: a game with notes whose tree changed asks for its PDN (`onQuietPdn` keeps
// it), except while a saved game is being replayed.
export function keepNotes(st) {
  if (ui.quiet > 0 || !hasNotes(st)) return;
  const sig = treeSig(st);
  if (sig === ui.notesSig) return;
  ui.notesSig = sig;
  ui.quietPdns.push(sig);
  update((ui) => {
    ui.pdnFor.push("quiet");
  });
  send({ type: "save_pdn" });
}

export function onQuietPdn(text) {
  const sig = ui.quietPdns.shift();
  const v = loadSaved();
  if (!v) return;
  v.pdn = text;
  v.pdn_sig = sig;
  try {
    localStorage.setItem(STORE, JSON.stringify(v));
  } catch (e) {
    // As in `save`.
  }
}

export function save(st) {
  const index = new Map((st.nodes || []).map((n, i) => [n.id, i]));
  const old = loadSaved();
  try {
    localStorage.setItem(
      STORE,
      JSON.stringify({
        start_fen: st.start_fen,
        tree_sig: treeSig(st),
        // The moves from the start to the position shown, and the kept PDN (see the note).
        path: st.history.slice(0, st.ply).map((h) => h.hub),
        pdn: old && old.pdn,
        pdn_sig: old && old.pdn_sig,
        pdn_loaded: !!ui.pdnLoaded,
        moves: st.history.map((h) => h.hub),
        ply: st.ply,
        // The tree as [parent's index, move] in the state's order (each node after its
        // parent), and the index of the node shown.
        tree: (st.nodes || []).slice(1).map((n) => [index.get(n.parent), n.hub]),
        node: index.get(st.node),
        white: st.white,
        black: st.black,
        level: st.level,
        flipped: ui.flipped,
        analyzing: st.analyzing,
        multipv: ui.multipv,
      })
    );
  } catch (e) {
    // Storage may be off (private windows): the page works without it.
  }
}

function loadSaved() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || "null");
    return v && Array.isArray(v.moves) && typeof v.start_fen === "string" ? v : null;
  } catch (e) {
    return null;
  }
}

// The first state of a connection is a fresh game: replay the saved one into it.
export function restore(st) {
  const v = loadSaved();
  if (!v) {
    save(st);
    return;
  }
  if (typeof v.flipped === "boolean") ui.flipped = v.flipped;
  if ([1, 2, 3, 4, 5].includes(v.multipv)) {
    ui.multipv = v.multipv;
    $("multipv").value = String(v.multipv);
  }
  // Each request is answered by a state; those of the replay make no move sound.
  const ask = (msg) => {
    send(msg);
    ui.quiet++;
  };
  const l = v.level || {};
  const level = Number.isInteger(l.level) && l.level >= 1 && l.level <= 10 ? { level: l.level } : {};
  if (l.depth) ask(Object.assign({ type: "level", depth: l.depth }, level));
  else if (l.movetime) ask(Object.assign({ type: "level", movetime: l.movetime }, level));
  if (typeof v.pdn === "string" && v.pdn && v.pdn_sig === v.tree_sig && Array.isArray(v.path)) {
    // Nobody's engine moves while the game is walked to the move shown.
    ask({ type: "players", white: "human", black: "human" });
    ask({ type: "load_pdn", pdn: v.pdn });
    ask({ type: "goto", ply: 0 });
    for (const m of v.path) ask({ type: "move", move: m });
    ui.pdnLoaded = !!v.pdn_loaded;
  } else if (v.moves.length || (Array.isArray(v.tree) && v.tree.length) || v.start_fen !== st.start_fen) {
    ask({ type: "setup", fen: v.start_fen });
    if (Array.isArray(v.tree)) replayTree(v.tree, v.node, ask);
    else {
      for (const m of v.moves) ask({ type: "move", move: m });
      if (v.ply < v.moves.length) ask({ type: "goto", ply: v.ply });
    }
  }
  ask({ type: "players", white: v.white === "engine" ? "engine" : "human", black: v.black === "engine" ? "engine" : "human" });
  if (v.analyzing) ask(analyzeRequest(true));
}

// Play the saved tree into a fresh game. Its nodes are numbered as they are made, so the
// node made k-th has id k: each parent's id is its index in the saved order.
// `ask` sends a request.
function replayTree(tree, node, ask) {
  let last = 0;
  tree.forEach(([parent, move], i) => {
    if (typeof parent !== "number" || typeof move !== "string") return;
    if (parent !== last) ask({ type: "goto", node: parent });
    ask({ type: "move", move });
    last = i + 1;
  });
  if (typeof node === "number" && node !== last) ask({ type: "goto", node });
}
