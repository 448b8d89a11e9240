// The move list: the game's moves numbered as PDN does, the one shown marked, the review's
// marks on its moves, and the result. A click on a move goes to the position after it.

import { ui, $, MARKS, moveNumber } from "./state.js";
import { send } from "./socket.js";

export function renderMoves() {
  const box = $("moves");
  box.textContent = "";
  const st = ui.state;
  if (!st) return;
  const start = document.createElement("span");
  start.className = "move start" + (st.ply === 0 ? " current" : "");
  start.dataset.ply = "0";
  start.id = "ply-0";
  start.textContent = "start";
  box.appendChild(start);
  // A row per move: its number, then a ply by each side (moveNumber).
  let row = null;
  st.history.forEach((h, i) => {
    const n = moveNumber(i);
    if (n.first) {
      row = document.createElement("div");
      row.className = "move-row";
      const no = document.createElement("span");
      no.className = "move-no";
      no.textContent = n.no + ".";
      row.appendChild(no);
      box.appendChild(row);
    }
    const m = document.createElement("span");
    m.className = "move" + (st.ply === i + 1 ? " current" : "") + (i + 1 > st.ply ? " ahead" : "");
    m.dataset.ply = String(i + 1);
    m.id = "ply-" + (i + 1);
    m.textContent = h.pdn;
    const r = ui.review && ui.review.plies[i + 1];
    if (r && r.mark) {
      const mk = document.createElement("span");
      mk.className = "mark mark-" + MARKS[r.mark];
      mk.textContent = r.mark;
      mk.title = MARKS[r.mark] + "; best " + r.best;
      m.appendChild(mk);
    }
    row.appendChild(m);
  });
  if (st.result) {
    const r = document.createElement("div");
    r.className = "move-result";
    r.id = "result";
    const w = st.result.winner;
    r.textContent = (w === "white" ? "1-0" : w === "black" ? "0-1" : "1/2-1/2") + " " + st.result.reason;
    box.appendChild(r);
  }
  // Keep the current move in view by scrolling the list only (scrollIntoView would move
  // the whole page as well).
  const cur = box.querySelector(".current");
  if (cur) {
    const top = cur.offsetTop;
    if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
}

export function wireMoveList() {
  $("moves").addEventListener("click", (e) => {
    const m = e.target.closest("[data-ply]");
    if (m) send({ type: "goto", ply: Number(m.dataset.ply) });
  });
}
