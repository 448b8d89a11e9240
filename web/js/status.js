// The line above the board (whose turn, the result, where in the game), the rule counts
// under it, and which buttons can be pressed.

import { ui, $, SIDE, moveNumber, modeOf, clocksLive } from "./state.js";

function statusText() {
  const st = ui.state;
  if (!ui.connected && (st || ui.closed)) return "disconnected";
  if (!st) return "connecting…";
  if (ui.setup) return "Setting up: choose a piece, click squares, then press done";
  if (ui.pv) return "Showing the analysis line after " + ui.pv.pdn[ui.pv.upto] + " (not played): Esc to go back";
  let s;
  if (st.result) {
    const w = st.result.winner;
    s = "Game over: " + (w ? SIDE[w] + " wins" : "draw") + ": " + st.result.reason;
  } else if (st.thinking) {
    s = SIDE[st.side] + " (engine) is thinking…";
  } else if (st[st.side] === "engine" && st.ply === st.history.length) {
    // Only at the game's end: a move from a position stepped back to would cut the game
    // there, so the page does not ask for one while the game is walked through.
    s = SIDE[st.side] + " to move (engine): press “engine move”";
  } else if (st[st.side] === "engine") {
    s = SIDE[st.side] + " to move (engine)";
  } else {
    s = SIDE[st.side] + " to move";
  }
  if (st.ply < st.history.length) {
    // In moves as the list numbers them (a move is a ply by each side).
    const total = moveNumber(st.history.length - 1).no;
    s += st.ply === 0 ? " · at the start (" + total + " moves)" : " · at move " + moveNumber(st.ply - 1).no + " of " + total;
  }
  return s;
}

export function renderStatus() {
  const st = ui.state;
  const box = $("status");
  box.textContent = statusText();
  box.classList.toggle("over", !!(st && st.result));
  box.classList.toggle("thinking", !!(st && st.thinking));

  const counts = $("counts");
  counts.textContent = "";
  if (st && st.counts && !ui.setup) {
    const c = st.counts;
    const parts = [];
    // R18 counts 40 moves by each side, 80 plies: said in plies, as half a move is no
    // count anyone keeps. R19 counts only the lone king's moves (`thirteen` is twice them).
    if (c.forty !== null && c.forty !== undefined && c.forty > 0)
      parts.push([
        "count-forty",
        "40-move rule (R18): " + c.forty + " of " + c.forty_limit + " plies (" + c.forty_limit / 2 + " moves by each side)",
      ]);
    if (c.thirteen !== null && c.thirteen !== undefined)
      parts.push([
        "count-thirteen",
        "13-move rule (R19): " + Math.floor(c.thirteen / 2) + " of " + Math.floor(c.thirteen_limit / 2) + " moves by the lone king",
      ]);
    for (const [id, text] of parts) {
      const span = document.createElement("span");
      span.id = id;
      span.textContent = text;
      counts.appendChild(span);
    }
  }
}

// The players the "players" menu was last set to from a state: the menu follows the game's
// players when they change, and otherwise keeps what the person chose there for the next
// game (issue 61, defect 2: a new level must not reset it).
/** @type {string | null} */
let playersShown = null;

export function renderControls() {
  const st = ui.state;
  const ok = ui.connected && !!st;
  const setup = !!ui.setup;
  // A timed game has no take-backs while its clocks are live (the server refuses them).
  const timed = ok && clocksLive(st);
  $("undo").disabled = !ok || setup || timed || st.ply === 0;
  $("redo").disabled = !ok || setup || timed || st.ply >= st.history.length;
  $("start").disabled = $("undo").disabled;
  $("end").disabled = $("redo").disabled;
  $("stop").textContent = st && st.thinking ? "move now" : "stop";
  markPalette();
  // Nor does the engine move or analyse for a person on their clock (the server refuses).
  const yours = timed && st[st.side] === "human";
  // A puzzle being solved, or a practice played, has no engine, analysis, review or players
  // (the board refuses them).
  const solving =
    ok && ((!!st.puzzle && st.puzzle.result === "playing") || (!!st.practice && st.practice.result === "playing"));
  $("engine-move").disabled = !ok || setup || !!st.result || st.thinking || !st.legal.length || yours || solving;
  const reviewing = !!(ui.review && ui.review.running);
  $("stop").disabled = !ok || !(st.thinking || st.analyzing || reviewing);
  for (const id of ["new-game", "play-here", "level-set", "play-level", "analyze", "fen-set", "pdn-load", "pdn-save", "setup-done"])
    $(id).disabled = !ok;
  $("analyze").disabled = !ok || (timed && !st.analyzing) || solving;
  $("play-here").disabled = !ok || solving;
  $("setup").hidden = setup;
  $("setup-tools").hidden = !setup;
  $("setup-help").hidden = !setup;
  if (!st) return;
  $("fen").textContent = st.fen;
  $("players").textContent =
    "Black: " + who(st.black) + " · White: " + who(st.white) + " · " + levelText(st.level);
  const mode = document.activeElement === $("mode") ? null : modeOf(st);
  if (mode && mode !== playersShown) {
    $("mode").value = mode;
    playersShown = mode;
  }
  const kind = $("level-kind");
  const val = $("level-value");
  if (st.level && document.activeElement !== $("play-level")) $("play-level").value = String(st.level.level || 0);
  if (st.level && document.activeElement !== kind && document.activeElement !== val) {
    if (st.level.depth !== undefined && st.level.depth !== null) {
      kind.value = "depth";
      val.value = st.level.depth;
    } else if (st.level.movetime !== undefined && st.level.movetime !== null) {
      kind.value = "movetime";
      val.value = st.level.movetime;
    }
  }
}

// The setup palette's chosen piece, for screen readers as for the eye.
export function markPalette() {
  document.querySelectorAll("#palette .pal").forEach((el) => {
    const b = /** @type {HTMLElement} */ (el);
    b.setAttribute("role", "radio");
    b.setAttribute("aria-checked", b.dataset.piece === ui.palette ? "true" : "false");
  });
}

/** @param {string} p */
function who(p) {
  return p === "engine" ? "engine" : "human";
}

/** @param {import("./types.js").Level | null | undefined} l */
function levelText(l) {
  if (!l) return "";
  const at = l.level ? " at level " + l.level : "";
  if (l.depth !== undefined && l.depth !== null) return "engine depth " + l.depth + at;
  return "engine " + l.movetime + " s/move" + at;
}
