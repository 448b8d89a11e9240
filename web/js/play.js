// Moves made on the board: a click selects a piece and shows its targets, a second click
// plays the legal move the server listed, and the R15 chooser asks which capture is meant
// when two end on the same square.

import { ui, $, legalFrom, canMove, update } from "./state.js";
import { send } from "./socket.js";
import { showMessage, clearMessages } from "./messages.js";
import { closePv } from "./analysis.js";
import { retryPlay } from "./teach.js";

/** @typedef {import("./types.js").Move} Move */

/** @param {number} sq */
export function onSquareClick(sq) {
  update(() => selectSquare(sq));
}

// A click on square `sq` (inside `update`).
/** @param {number} sq */
function selectSquare(sq) {
  if (ui.pv) closePv();
  if (ui.choice) closeChooser();
  const st = ui.state;
  if (!st) return;
  if (st.thinking) {
    showMessage("note", "the engine is thinking; press stop to interrupt it");
    return;
  }
  if (!canMove()) return;
  if (ui.selected !== null) {
    const moves = legalFrom(ui.selected).filter((m) => m.to === sq);
    // A capture round a circle ends where it started: a second click on the piece plays it.
    if (moves.length === 1) {
      play(moves[0]);
      return;
    }
    if (moves.length > 1) {
      openChooser(moves);
      return;
    }
    if (sq === ui.selected) {
      ui.selected = null;
      return;
    }
  }
  if (legalFrom(sq).length) {
    ui.selected = sq;
  } else {
    ui.selected = null;
    const p = st.pieces[String(sq)];
    if (p && st.legal.length && isMoverPiece(st, p)) {
      const captures = st.legal.some((m) => m.captured.length);
      showMessage("note", captures ? "a capture is compulsory (R8)" : "that piece cannot move");
    }
  }
}

/**
 * @param {import("./types.js").StateMsg} st
 * @param {string} p
 */
function isMoverPiece(st, p) {
  return (st.side === "black") === (p === "b" || p === "B");
}

// Play legal move `m` (inside `update`).
/** @param {Move} m */
function play(m) {
  ui.selected = null;
  closeChooser();
  // In "find a better move" the move is judged, not played.
  if (!retryPlay(m)) {
    clearMessages();
    send({ type: "move", move: m.hub });
  }
}

// ---------- the R15 chooser: same origin and destination, different pieces taken ----------

/** @param {Move[]} moves */
function openChooser(moves) {
  const choice = moves.slice().sort((a, b) => (a.hub < b.hub ? -1 : a.hub > b.hub ? 1 : 0));
  ui.choice = choice;
  ui.preview = choice[0];
  const box = $("chooser-options");
  box.textContent = "";
  choice.forEach((m, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "choice";
    b.id = "choice-" + i;
    b.dataset.hub = m.hub;
    b.dataset.captured = m.captured.join(",");
    b.textContent = m.path.join("x") + "  takes " + m.captured.join(", ");
    const show = () =>
      update((ui) => {
        ui.preview = m;
      });
    b.addEventListener("mouseenter", show);
    b.addEventListener("focus", show);
    b.addEventListener("click", () => update(() => play(m)));
    box.appendChild(b);
  });
  const count = ["", "", "Two", "Three", "Four", "Five", "Six"][choice.length] || String(choice.length);
  $("chooser-title").textContent = count + " captures end on this square. Which one?";
  $("chooser").hidden = false;
  // On a phone the chooser is a sheet at the screen's foot (style.css): bring the board to
  // the top, above it. Elsewhere it sits under the board.
  if (window.matchMedia("(max-width: 700px)").matches) $("board-wrap").scrollIntoView({ block: "start" });
  else $("chooser").scrollIntoView({ block: "nearest" });
}

// The capture previewed marked in the chooser (js/render.js).
export function markChoice() {
  document.querySelectorAll("#chooser-options .choice").forEach((el) => {
    const b = /** @type {HTMLElement} */ (el);
    b.classList.toggle("shown", !!ui.preview && b.dataset.hub === ui.preview.hub);
  });
}

// Close the capture chooser (inside `update`).
export function closeChooser() {
  ui.choice = null;
  ui.preview = null;
  $("chooser").hidden = true;
}

export function wireChooser() {
  $("chooser-cancel").addEventListener("click", () => update(closeChooser));
}
