// The game and the settings kept across a reload (localStorage): saved after every state,
// and replayed into the fresh game of a new connection.

import { ui, $ } from "./state.js";
import { send } from "./socket.js";
import { analyzeRequest } from "./analysis.js";

const STORE = "poolshark-board";

export function save(st) {
  try {
    localStorage.setItem(
      STORE,
      JSON.stringify({
        start_fen: st.start_fen,
        moves: st.history.map((h) => h.hub),
        ply: st.ply,
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
  if (l.depth) ask({ type: "level", depth: l.depth });
  else if (l.movetime) ask({ type: "level", movetime: l.movetime });
  if (v.moves.length || v.start_fen !== st.start_fen) {
    ask({ type: "setup", fen: v.start_fen });
    for (const m of v.moves) ask({ type: "move", move: m });
    if (v.ply < v.moves.length) ask({ type: "goto", ply: v.ply });
  }
  ask({ type: "players", white: v.white === "engine" ? "engine" : "human", black: v.black === "engine" ? "engine" : "human" });
  if (v.analyzing) ask(analyzeRequest(true));
}
