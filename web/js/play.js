// Moves made on the board: a click selects a piece and shows its targets, a second click
// plays the legal move the server listed, and the R15 chooser asks which capture is meant
// when two end on the same square.

import { ui, $, legalFrom, canMove } from "./state.js";
import { send } from "./socket.js";
import { showMessage, clearMessages } from "./messages.js";
import { renderBoard } from "./draw.js";
import { closePv, renderPvBoard } from "./analysis.js";
import { retryPlay } from "./teach.js";
import { render } from "./render.js";

export function onSquareClick(sq) {
  if (ui.pv) {
    closePv();
    renderPvBoard();
  }
  if (ui.choice) closeChooser();
  if (!ui.state) return;
  if (ui.state.thinking) {
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
      render();
      return;
    }
  }
  if (legalFrom(sq).length) {
    ui.selected = sq;
  } else {
    ui.selected = null;
    const p = ui.state.pieces[String(sq)];
    if (p && ui.state.legal.length && isMoverPiece(p)) {
      const captures = ui.state.legal.some((m) => m.captured.length);
      showMessage("note", captures ? "a capture is compulsory (R8)" : "that piece cannot move");
    }
  }
  render();
}

function isMoverPiece(p) {
  return (ui.state.side === "black") === (p === "b" || p === "B");
}

function play(m) {
  ui.selected = null;
  closeChooser();
  // In "find a better move" the move is judged, not played.
  if (!retryPlay(m)) {
    clearMessages();
    send({ type: "move", move: m.hub });
  }
  render();
}

// ---------- the R15 chooser: same origin and destination, different pieces taken ----------

function openChooser(moves) {
  ui.choice = moves.slice().sort((a, b) => (a.hub < b.hub ? -1 : a.hub > b.hub ? 1 : 0));
  ui.preview = ui.choice[0];
  const box = $("chooser-options");
  box.textContent = "";
  ui.choice.forEach((m, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "choice";
    b.id = "choice-" + i;
    b.dataset.hub = m.hub;
    b.dataset.captured = m.captured.join(",");
    b.textContent = m.path.join("x") + "  takes " + m.captured.join(", ");
    const show = () => {
      ui.preview = m;
      renderBoard();
      markChoice();
    };
    b.addEventListener("mouseenter", show);
    b.addEventListener("focus", show);
    b.addEventListener("click", () => play(m));
    box.appendChild(b);
  });
  const count = ["", "", "Two", "Three", "Four", "Five", "Six"][ui.choice.length] || String(ui.choice.length);
  $("chooser-title").textContent = count + " captures end on this square. Which one?";
  $("chooser").hidden = false;
  // On a phone the chooser is a sheet at the screen's foot (style.css): bring the board to
  // the top, above it. Elsewhere it sits under the board.
  if (window.matchMedia("(max-width: 700px)").matches) $("board-wrap").scrollIntoView({ block: "start" });
  else $("chooser").scrollIntoView({ block: "nearest" });
  markChoice();
  renderBoard();
}

function markChoice() {
  document.querySelectorAll("#chooser-options .choice").forEach((b) => {
    b.classList.toggle("shown", ui.preview && b.dataset.hub === ui.preview.hub);
  });
}

export function closeChooser() {
  ui.choice = null;
  ui.preview = null;
  $("chooser").hidden = true;
}

export function wireChooser() {
  $("chooser-cancel").addEventListener("click", () => {
    closeChooser();
    renderBoard();
  });
}
