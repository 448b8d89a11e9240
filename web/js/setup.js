// Placing pieces by hand ("place pieces…"): a palette, clicks on squares, and the FEN it
// makes, checked here for what a player can fix (R4, R14) before the server checks it all.

import { ui, $, update } from "./state.js";
import { send } from "./socket.js";
import { showMessage, clearMessages } from "./messages.js";
import { closeChooser } from "./play.js";

function startSetup() {
  update((ui) => {
    /** @type {Object<string, string>} */
    const pieces = {};
    if (ui.state) Object.assign(pieces, ui.state.pieces);
    ui.setup = { pieces, sent: false };
    ui.selected = null;
    closeChooser();
  });
  $("setup-side").value = ui.state && ui.state.side === "white" ? "W" : "B";
}

// The palette's piece on the square; the same piece again empties it.
/** @param {number} sq */
export function placeSetupPiece(sq) {
  const setup = ui.setup;
  if (!setup) return;
  const key = String(sq);
  const cur = setup.pieces[key] || "";
  const next = cur === ui.palette ? "" : ui.palette;
  update(() => {
    if (next) setup.pieces[key] = next;
    else delete setup.pieces[key];
  });
}

// What is wrong with the placed pieces, in words, or null (RULES.md R4: each side has a
// piece; a man never stands on its crowning row).
/** @param {Object<string, string>} p the pieces placed */
function setupProblem(p) {
  const sq = Object.keys(p).map(Number);
  const has = (/** @type {string} */ c) => sq.some((n) => p[n].toLowerCase() === c);
  if (!has("b") || !has("w")) return "place at least one piece of each colour (black and white) before pressing done";
  const bad = sq.filter((n) => (p[n] === "b" && n >= 29) || (p[n] === "w" && n <= 4));
  if (bad.length)
    return "a man on its crowning row is a king (R14): make the man on " + bad.join(", ") + " a king, or move it";
  return null;
}

// A PDN FEN (RULES.md R4) of the pieces placed: "B:W21,K30:B1,K2".
/** @param {Object<string, string>} pieces the pieces placed */
function setupFen(pieces) {
  const list = (/** @type {string} */ colour) =>
    Object.keys(pieces)
      .map(Number)
      .sort((a, b) => a - b)
      .filter((sq) => pieces[sq].toLowerCase() === colour)
      .map((sq) => (pieces[sq] === colour ? "" : "K") + sq)
      .join(",");
  return $("setup-side").value + ":W" + list("w") + ":B" + list("b");
}

function endSetup() {
  update((ui) => {
    ui.setup = null;
  });
}

export function wireSetup() {
  $("setup").addEventListener("click", startSetup);
  $("palette").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest(".pal"));
    if (!b) return;
    update((ui) => {
      ui.palette = b.dataset.piece || "";
    });
  });
  $("setup-clear").addEventListener("click", () =>
    update((ui) => {
      if (ui.setup) ui.setup.pieces = {};
    })
  );
  $("setup-start").addEventListener("click", () => {
    /** @type {Object<string, string>} */
    const pieces = {};
    for (let n = 1; n <= 12; n++) pieces[n] = "b";
    for (let n = 21; n <= 32; n++) pieces[n] = "w";
    update((ui) => {
      if (ui.setup) ui.setup.pieces = pieces;
    });
    $("setup-side").value = "B";
  });
  $("setup-done").addEventListener("click", () => {
    const setup = ui.setup;
    if (!setup) return;
    clearMessages();
    const problem = setupProblem(setup.pieces);
    if (problem) {
      showMessage("error", problem);
      return;
    }
    const fen = setupFen(setup.pieces);
    update((ui) => {
      setup.sent = true;
      ui.pdnLoaded = false;
    });
    send({ type: "setup", fen });
  });
  $("setup-cancel").addEventListener("click", endSetup);
  // A position typed as a FEN.
  const setFen = () => {
    const fen = $("fen-input").value.trim();
    if (!fen) {
      showMessage("error", "type a FEN first, e.g. W:WK3,18:BK29,5");
      return;
    }
    clearMessages();
    update((ui) => {
      ui.pdnLoaded = false;
    });
    send({ type: "setup", fen });
  };
  $("fen-set").addEventListener("click", setFen);
  $("fen-input").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "Enter") setFen();
  });
}
