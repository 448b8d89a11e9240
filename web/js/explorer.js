// The opening explorer (docs/BOARD.md, "Opening explorer"): while it is open, each position
// shown asks the board (`explore`) for the book's moves with their scores and how the shipped
// games went from it, and the panel lists them; a click on a move plays it. The board keeps
// the book and the games; this only shows the `explorer` answer for the node shown.

import { ui, $, update, scoreText } from "./state.js";
import { send } from "./socket.js";
import { hoverArrows } from "./draw.js";

// The node the last `explore` was sent for, so that each position is asked once.
/** @type {number | null} */
let asked = null;

/** After a state: ask for the position shown, if the explorer is open. */
export function explorerOnState() {
  const st = ui.state;
  if (!ui.explorer.open || !st || st.node === asked) return;
  if ((st.puzzle && st.puzzle.result === "playing") || (st.practice && st.practice.result === "playing")) return;
  asked = st.node;
  send({ type: "explore" });
}

/**
 * The board's answer: kept if it is of the position shown.
 * @param {import("./types.js").ExplorerMsg} msg
 */
export function onExplorer(msg) {
  update((ui) => {
    ui.explorer.answer = msg;
  });
}

function toggle() {
  update((ui) => {
    ui.explorer.open = !ui.explorer.open;
    if (!ui.explorer.open) ui.explorer.answer = null;
  });
  asked = null;
  explorerOnState();
}

/**
 * A percentage of `n` in `of`, whole.
 * @param {number} n
 * @param {number} of
 */
function pct(n, of) {
  return of ? Math.round((100 * n) / of) : 0;
}

/** Draw the panel from `ui` (js/render.js). */
export function renderExplorer() {
  const e = ui.explorer;
  $("explore").setAttribute("aria-pressed", String(e.open));
  $("explorer").hidden = !e.open;
  if (!e.open) return;
  const st = ui.state;
  const a = e.answer && st && e.answer.node === st.node ? e.answer : null;
  const body = /** @type {HTMLTableElement} */ ($("explorer-moves")).tBodies[0];
  const sig = a ? JSON.stringify(a.moves) + a.node : "";
  if (body.dataset.sig === sig && sig) return;
  body.dataset.sig = sig;
  body.textContent = "";
  const playing = !!st && ((st.puzzle && st.puzzle.result === "playing") || (st.practice && st.practice.result === "playing"));
  if (!a) {
    $("explorer-note").textContent = playing ? "The explorer waits until the puzzle or practice is over." : "…";
    return;
  }
  for (const m of a.moves) {
    const tr = document.createElement("tr");
    tr.className = "explorer-move";
    tr.dataset.hub = m.hub;
    tr.dataset.path = m.path.join(",");
    tr.tabIndex = 0;
    tr.title = `play ${m.move}`;
    const cells = [m.move, m.score === null ? "–" : scoreText(m.score), String(m.games)];
    for (const c of cells) {
      const td = document.createElement("td");
      td.textContent = c;
      tr.appendChild(td);
    }
    const td = document.createElement("td");
    if (m.games) {
      const bar = document.createElement("div");
      bar.className = "explorer-bar";
      for (const [k, n] of /** @type {[string, number][]} */ ([["black", m.black], ["draws", m.draws], ["white", m.white]])) {
        const part = document.createElement("span");
        part.className = "explorer-" + k;
        part.style.width = pct(n, m.games) + "%";
        part.textContent = pct(n, m.games) >= 12 ? pct(n, m.games) + "%" : "";
        bar.appendChild(part);
      }
      bar.title = `${m.black} won by Black, ${m.draws} drawn, ${m.white} won by White`;
      td.appendChild(bar);
    }
    tr.appendChild(td);
    body.appendChild(tr);
  }
  const none = a.moves.length === 0 ? "No book move here, and none of the games came this way. " : "";
  $("explorer-note").textContent = `${none}Games: ${a.about} (${a.count} games).`;
}

/**
 * Play the move of a row.
 * @param {Event} ev
 */
function playRow(ev) {
  const tr = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest("tr.explorer-move"));
  if (!tr || !tr.dataset.hub) return;
  if (ev instanceof KeyboardEvent && ev.key !== "Enter") return;
  send({ type: "move", move: tr.dataset.hub });
}

export function wireExplorer() {
  hoverArrows($("explorer-moves"), "tr.explorer-move");
  $("explore").addEventListener("click", toggle);
  $("explorer-moves").addEventListener("click", playRow);
  $("explorer-moves").addEventListener("keydown", playRow);
}
