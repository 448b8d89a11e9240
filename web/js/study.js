// The study's chapters (docs/BOARD.md, "Studies"): the list beside the move list, the
// chapter shown marked, a click showing another; a chapter added from the position shown,
// the start, the FEN in the setup box or the games in the PDN box; the chapter shown renamed,
// moved up or down, or deleted (asking first). The board keeps the chapters: this only
// shows the state's `chapters` and sends the requests.

import { ui, $, clocksLive } from "./state.js";
import { send, overLimit } from "./socket.js";
import { showMessage, clearMessages } from "./messages.js";

// The most chapters a study holds (the board's `study::MAX_CHAPTERS`).
export const MAX_CHAPTERS = 64;

// The list as last drawn (names, results and the one shown), so that it is drawn again only
// when it changed.
let drawn = "";

/**
 * A request of the study's, unless it is over the board's limit (said in words).
 * @param {import("./types.js").Request} req
 */
function sendStudy(req) {
  const over = overLimit(req);
  if (over) {
    showMessage("error", `that text is too large for the board (${over.bytes} bytes; it reads ${over.limit})`);
    return;
  }
  clearMessages();
  send(req);
}

// Add a chapter from what `chapter-from` names.
function addChapter() {
  const st = ui.state;
  if (!st) return;
  const from = $("chapter-from").value;
  const name = /** @type {HTMLInputElement} */ ($("chapter-new-name")).value.trim();
  /** @type {import("./types.js").Request} */
  let req = { type: "chapter_add" };
  if (from === "start") req = { type: "chapter_add", fen: START_FEN };
  else if (from === "fen") {
    const fen = /** @type {HTMLInputElement} */ ($("fen-input")).value.trim();
    if (!fen) {
      showMessage("error", "type a FEN into the setup panel's box first (Setup: FEN)");
      return;
    }
    req = { type: "chapter_add", fen };
  } else if (from === "pdn") {
    const pdn = /** @type {HTMLTextAreaElement} */ ($("pdn-input")).value;
    if (!pdn.trim()) {
      showMessage("error", "paste a PDN into the PDN panel's box first: each of its games becomes a chapter");
      return;
    }
    req = { type: "chapter_add", pdn };
  }
  if (name) req.name = name;
  /** @type {HTMLInputElement} */ ($("chapter-new-name")).value = "";
  sendStudy(req);
}

// The start position's FEN.
const START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

function renameChapter() {
  const st = ui.state;
  if (!st) return;
  const name = /** @type {HTMLInputElement} */ ($("chapter-name")).value;
  sendStudy({ type: "chapter_rename", index: st.chapter, name });
}

/** @param {number} by -1 up, 1 down */
function moveChapter(by) {
  const st = ui.state;
  if (!st) return;
  const to = st.chapter + by;
  if (to < 1 || to > st.chapters.length) return;
  sendStudy({ type: "chapter_move", index: st.chapter, to });
}

function deleteChapter() {
  const st = ui.state;
  if (!st || st.chapters.length < 2) return;
  const c = st.chapters[st.chapter - 1];
  const moves = c.plies === 1 ? "1 move" : c.plies + " moves";
  if (!window.confirm(`Delete chapter ${st.chapter}, "${c.name}" (${moves}), with its variations and notes? This cannot be undone.`)) return;
  sendStudy({ type: "chapter_delete", index: st.chapter });
}

/** @param {number} index from 1 */
function showChapter(index) {
  const st = ui.state;
  if (!st || index === st.chapter) return;
  sendStudy({ type: "chapter", index });
}

/** Draw the chapters from the state (js/render.js). */
export function renderStudy() {
  const st = ui.state;
  const chapters = (st && st.chapters) || [];
  const shown = st ? st.chapter : 0;
  // A timed game's chapter is not left while its clocks run; a puzzle's neither.
  const locked = !st || clocksLive(st) || !!(st.puzzle && st.puzzle.result === "playing") || !!(st.practice && st.practice.result === "playing");
  const sig = JSON.stringify([chapters, shown, locked]);
  $("chapter-add").disabled = locked || chapters.length >= MAX_CHAPTERS;
  $("chapter-add").title = chapters.length >= MAX_CHAPTERS ? `a study holds at most ${MAX_CHAPTERS} chapters` : "add a chapter after the last, and show it";
  $("chapter-up").disabled = shown <= 1;
  $("chapter-down").disabled = shown >= chapters.length;
  $("chapter-delete").disabled = locked || chapters.length < 2;
  const name = /** @type {HTMLInputElement} */ ($("chapter-name"));
  if (document.activeElement !== name && name.dataset.shown !== String(shown) + ":" + (chapters[shown - 1] || {}).name) {
    name.value = (chapters[shown - 1] || { name: "" }).name;
    name.dataset.shown = String(shown) + ":" + (chapters[shown - 1] || {}).name;
  }
  $("chapter-count").textContent = chapters.length > 1 ? `${shown} of ${chapters.length}` : "";
  // The PDN panel's "save chapter": a study's chapter shown alone.
  $("pdn-save-chapter").hidden = chapters.length < 2;
  if (sig === drawn) return;
  drawn = sig;
  const list = $("chapter-list");
  list.textContent = "";
  chapters.forEach((c, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chapter" + (i + 1 === shown ? " shown" : "");
    if (i + 1 === shown) b.setAttribute("aria-current", "true");
    b.disabled = locked && i + 1 !== shown;
    b.dataset.index = String(i + 1);
    const n = document.createElement("span");
    n.className = "chapter-name";
    n.textContent = c.name;
    const r = document.createElement("span");
    r.className = "chapter-result small";
    r.textContent = c.result === "*" ? `${c.plies} plies` : c.result;
    b.append(n, r);
    b.title = `chapter ${i + 1}: ${c.name} (${c.plies} plies, ${c.result})`;
    li.appendChild(b);
    list.appendChild(li);
  });
}

/** The list's clicks and the tools. */
export function wireStudy() {
  $("chapter-list").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest("button.chapter"));
    if (b && b.dataset.index) showChapter(Number(b.dataset.index));
  });
  $("chapter-add").addEventListener("click", addChapter);
  $("chapter-rename").addEventListener("click", renameChapter);
  $("chapter-name").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "Enter") renameChapter();
  });
  $("chapter-up").addEventListener("click", () => moveChapter(-1));
  $("chapter-down").addEventListener("click", () => moveChapter(1));
  $("chapter-delete").addEventListener("click", deleteChapter);
}
