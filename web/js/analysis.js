// The analysis: live `info` lines with their scores, a line's moves shown on the board
// (hover, click, "play line"), the endgame tables' verdict and the evaluation bar. Scores
// are for Black, as the server sends them in `score_black`.

import { ui, $, SIDE, moveNumber, scoreText, update } from "./state.js";
import { send } from "./socket.js";
import { addLine } from "./annotate.js";
import { hoverArrows } from "./draw.js";

// Milliseconds per move when "play line" steps through a line (a test may slow it down).
const pvPlayMs = () => Number(/** @type {Window & {boardPvPlayMs?: number}} */ (window).boardPvPlayMs || 700);

// An `info` message: the best line (multipv 1) or another.
/** @param {import("./types.js").InfoMsg} msg */
export function onInfo(msg) {
  update((ui) => {
    const k = Number(msg.multipv || 1);
    if (k === 1) ui.info = msg;
    if (k === 1 && !msg.multipv) ui.lines = [msg];
    else ui.lines[k - 1] = msg;
    ui.lines.length = Math.min(ui.lines.length, ui.multipv);
  });
}

/**
 * The `analyze` request for the lines chosen.
 * @param {boolean} on
 * @returns {import("./types.js").Request}
 */
export function analyzeRequest(on) {
  return ui.multipv > 1 ? { type: "analyze", on, multipv: ui.multipv } : { type: "analyze", on };
}

// ---------- a line of the analysis on the board ----------

// Show the position after move k of analysis line `line`. The line is held as it was when
// first shown (`ui.pv.info`): the analysis goes on deepening, and the moves listed, the
// board and "play line" must stay on the one line being shown. Inside `update`.
/**
 * @param {number} k
 * @param {boolean} pinned
 * @param {number} [line]
 */
function showPv(k, pinned, line) {
  line = line || 0;
  const held = ui.pv && ui.pv.line === line ? ui.pv.info : null;
  const i = held || ui.lines[line] || (line === 0 ? ui.info : null);
  if (!ui.state || !i || !i.pv || !i.pv.length) return;
  ui.pv = {
    info: i,
    hubs: i.pv.slice(),
    pdn: (i.pv_pdn || i.pv).slice(),
    upto: Math.max(0, Math.min(k, i.pv.length - 1)),
    line,
    pinned: pinned || (ui.pv && ui.pv.pinned) || false,
    timer: ui.pv && ui.pv.timer,
  };
}

// Close the line shown (inside `update`, or while rendering).
export function closePv() {
  if (ui.pv && ui.pv.timer) clearInterval(ui.pv.timer);
  ui.pv = null;
}

function stopPlaying() {
  if (ui.pv && ui.pv.timer) clearInterval(ui.pv.timer);
  if (ui.pv) ui.pv.timer = null;
}

// The arrow keys, Home and End while a line is shown: step along the line (Left from its
// first move goes back to the game).
/** @param {string} key */
export function stepPv(key) {
  const pv = ui.pv;
  if (!pv) return;
  update(() => {
    stopPlaying();
    const last = pv.hubs.length - 1;
    /** @type {Record<string, number>} */
    const steps = { ArrowLeft: pv.upto - 1, ArrowRight: pv.upto + 1, Home: 0, End: last };
    const k = steps[key];
    if (k >= 0) showPv(Math.min(k, last), true, pv.line);
    else closePv();
  });
}

// The move shown marked in its line, and the line's tools shown with it (only then).
function markPv() {
  document.querySelectorAll("#lines .pv-move").forEach((el) => {
    const e = /** @type {HTMLElement} */ (el);
    e.classList.toggle(
      "shown",
      !!ui.pv && Number(e.dataset.index) === ui.pv.upto && Number(e.dataset.line) === ui.pv.line
    );
  });
  $("pv-tools").hidden = !ui.pv;
  $("pv-note").textContent = ui.pv ? "showing the line after " + ui.pv.pdn[ui.pv.upto] : "";
}

// ---------- the numbers ----------

/**
 * Whether a search is on for the position shown (analysis, or the engine thinking): its
 * score and arrow are shown only then (issue 69: they stayed after analysis stopped, as if
 * still true of the game). Its last lines stay listed, marked stopped, for "+ tree".
 */
export function searchLive() {
  return !!(ui.state && (ui.state.analyzing || ui.state.thinking));
}

export function renderInfo() {
  const st = ui.state;
  const i = searchLive() ? ui.info : null;
  const v = verdict();
  const searched = i ? scoreText(i.score_black !== undefined ? i.score_black : i.score) : "–";
  $("info-score").textContent = v && v.kind !== "search" && v.text === "draw (proved)" ? "draw (proved)" : i ? "Black " + searched : "–";
  $("info-depth").textContent = i ? String(i.depth) : "–";
  $("info-nodes").textContent = i ? Number(i.nodes).toLocaleString("en-US") : "–";
  renderPv();
  $("info-score").title = "in men, for Black (Black moves first); 99.xx is a proved win, 89.xx a database win";
  const e = $("egdb");
  if (st && st.egdb) {
    const d = st.egdb;
    const word = { win: "Black wins", loss: "Black loses", draw: "draw" }[d.black] || d.black;
    $("egdb-text").textContent =
      "database: " + word + (d.dtc !== null && d.dtc !== undefined ? " (" + d.dtc + " plies to the next capture or man move)" : "") +
      (d.black50 !== d.black ? " · with the 40-move rule: " + d.black50 : "");
    renderTableMoves(d.moves || []);
    e.hidden = false;
  } else {
    e.hidden = true;
  }
  renderEvalBar();
  const a = $("analyze");
  const on = !!(st && st.analyzing);
  a.setAttribute("aria-pressed", on ? "true" : "false");
  a.classList.toggle("on", on);
  a.textContent = on ? "Analysing (stop)" : "Analyse";
}

// The moves' verdicts drawn last, so that the list is made again only when they change.
let tableMovesSig = "";

/**
 * Each legal move with the tables' verdict for the side that plays it, as lichess's
 * tablebase panel: the quickest win first, then draws, then the longest loss. A click plays
 * the move.
 * @param {import("./types.js").MoveVerdict[]} moves
 */
function renderTableMoves(moves) {
  const sig = JSON.stringify(moves);
  if (sig === tableMovesSig) return;
  tableMovesSig = sig;
  const list = $("egdb-moves");
  list.textContent = "";
  for (const m of moves) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "egdb-move " + m.result;
    b.dataset.hub = m.hub;
    b.dataset.path = m.path.join(",");
    const plies = m.dtc === null || m.dtc === undefined ? "" : m.dtc === 0 ? " (ends the game)" : ` in ${m.dtc}`;
    const said = { win: "wins", draw: "draws", loss: "loses" }[m.result] || m.result;
    const rule = m.result50 !== m.result ? ` · 40-move rule: ${m.result50}` : "";
    const mv = document.createElement("span");
    mv.className = "egdb-move-name";
    mv.textContent = m.move;
    const v = document.createElement("span");
    v.className = "egdb-move-result";
    v.textContent = said + plies + rule;
    b.append(mv, v);
    b.title = `play ${m.move}: it ${said}${plies ? plies + " plies to the next capture or man move" : ""}`;
    li.appendChild(b);
    list.appendChild(li);
  }
}

// What is known of the position shown, for Black: {text, share (0..1 of the bar), kind}.
function verdict() {
  const st = ui.state;
  if (!st) return null;
  if (st.result) {
    const w = st.result.winner;
    if (!w) return { text: "draw (proved)", bar: "=", share: 0.5, kind: "result" };
    // PDN's result, White's score first, as the move list and the saved game write it.
    return { text: SIDE[w] + " has won", bar: w === "white" ? "1-0" : "0-1", share: w === "black" ? 1 : 0, kind: "result" };
  }
  if (st.egdb) {
    const v = st.egdb.black;
    if (v === "draw") return { text: "draw (proved)", bar: "=", share: 0.5, kind: "egdb" };
    return { text: v === "win" ? "Black wins" : "Black loses", bar: v === "win" ? "DB+" : "DB−", share: v === "win" ? 1 : 0, kind: "egdb" };
  }
  const i = searchLive() ? ui.info : null;
  // Without a search, the score the review (or a loaded game's [%eval]) gave the move shown.
  const node = i ? null : (st.nodes || []).find((n) => n.id === st.node);
  const given = node && node.eval !== null && node.eval !== undefined ? node.eval : null;
  if (!i && given === null) return null;
  const s = i ? String(i.score_black !== undefined ? i.score_black : i.score) : String(given);
  const v = Number(s);
  const share = Math.abs(v) >= 80 ? (v > 0 ? 0.98 : 0.02) : 1 / (1 + Math.exp(-0.9 * v));
  return { text: "Black " + scoreText(s) + (i ? "" : " (the move's score)"), bar: scoreText(s), share, kind: i ? "search" : "review" };
}

export function renderEvalBar() {
  const v = ui.setup ? null : verdict();
  const bar = $("evalbar");
  // Black's share grows from Black's side of the board.
  bar.classList.toggle("flipped", !ui.flipped);
  const share = v ? v.share : 0.5;
  $("evalbar-black").style.flex = "0 0 " + (100 * share).toFixed(1) + "%";
  $("evalbar-white").style.flex = "1 1 0";
  $("evalbar-text").textContent = v ? v.bar : "";
  bar.dataset.share = share.toFixed(3);
  // Nothing known yet: the bar is greyed, not half and half, which reads as "equal".
  bar.classList.toggle("empty", !v);
  bar.title = v ? v.text + " (scores for Black)" : "no evaluation yet (analyse, or review the game)";
}

// What the list of lines was last built from: the state and each line's `info`.
/** @type {unknown[] | null} */
let listed = null;
// The pointer is on a "+ tree" button: the list is not built again until it leaves.
let held = false;

// Every analysis line: its score for Black and its numbered moves. Hovering a move shows
// the position after it (`wireAnalysis`); a click pins it. A list that would come out the
// same is only marked again, not rebuilt: rebuilding it under the pointer would hover it
// again, and again.
function renderPv() {
  const st = ui.state;
  const box = $("lines");
  const stopped = !searchLive() && !!(ui.lines.length || ui.info);
  box.classList.toggle("stopped", stopped);
  $("lines-stopped").hidden = !stopped;
  const lines = (ui.lines.length ? ui.lines : ui.info ? [ui.info] : []).slice();
  // The line shown on the board is listed as it was shown, not as the analysis has it now.
  if (ui.pv) lines[ui.pv.line] = ui.pv.info;
  const from = [st, ...lines];
  const was = listed;
  if (was && was.length === from.length && from.every((x, i) => x === was[i])) {
    markPv();
    return;
  }
  // Held while the pointer is on a "+ tree" button (for the same position): the line looked
  // at is the one it adds, not a deeper one that came in between (issue 69, item 8).
  if (held && was && was[0] === st && box.childElementCount) {
    markPv();
    return;
  }
  listed = from;
  box.textContent = "";
  if (!lines.length) {
    const empty = document.createElement("div");
    empty.className = "line";
    const pv = document.createElement("div");
    pv.className = "pv";
    pv.id = "info-pv";
    empty.appendChild(pv);
    box.appendChild(empty);
  }
  lines.forEach((i, line) => {
    if (!st || !i) return;
    const row = document.createElement("div");
    row.className = "line";
    row.dataset.line = String(line + 1);
    if (lines.length > 1) {
      const sc = document.createElement("span");
      sc.className = "line-score";
      sc.textContent = scoreText(i.score_black !== undefined ? i.score_black : i.score);
      row.appendChild(sc);
    }
    const pv = document.createElement("div");
    pv.className = "pv";
    if (line === 0) pv.id = "info-pv";
    const moves = i.pv_pdn || i.pv || [];
    moves.forEach((m, k) => {
      const span = document.createElement("span");
      span.className = "pv-move";
      span.dataset.index = String(k);
      span.dataset.line = String(line);
      const n = moveNumber(st.ply + k);
      if (n.first || k === 0) {
        const no = document.createElement("span");
        no.className = "pv-no";
        no.textContent = n.no + (n.first ? "." : "…");
        span.appendChild(no);
      }
      span.appendChild(document.createTextNode(m));
      span.addEventListener("click", () => {
        update(() => {
          stopPlaying();
          if (ui.pv && ui.pv.line !== line) closePv();
          showPv(k, true, line);
        });
      });
      pv.appendChild(span);
    });
    row.appendChild(pv);
    // The whole line into the game's tree, after the position analysed.
    const add = document.createElement("button");
    add.type = "button";
    add.className = "line-add";
    add.textContent = "+ tree";
    add.title = "add this line to the game's tree, as a variation";
    add.addEventListener("click", () => addLine(st.node, (i.pv || []).slice()));
    row.appendChild(add);
    box.appendChild(row);
  });
  markPv();
}

export function wireAnalysis() {
  hoverArrows($("egdb-moves"), "button.egdb-move");
  // A move of the tables' list played.
  $("egdb-moves").addEventListener("click", (/** @type {MouseEvent} */ ev) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest("button.egdb-move"));
    if (b && b.dataset.hub) send({ type: "move", move: b.dataset.hub });
  });
  $("analyze").addEventListener("click", () => {
    send(analyzeRequest(!(ui.state && ui.state.analyzing)));
  });
  // The line shown, up to the move shown on the board, into the game's tree.
  $("pv-add").addEventListener("click", () => {
    if (ui.pv && ui.state) addLine(ui.state.node, ui.pv.hubs.slice(0, ui.pv.upto + 1));
  });
  $("pv-close").addEventListener("click", () => update(closePv));
  // Play the line shown from the move shown to its end, a move every pvPlayMs().
  $("pv-play").addEventListener("click", () =>
    update((ui) => {
      if (!ui.pv) showPv(0, true);
      if (!ui.pv) return;
      ui.pv.pinned = true;
      stopPlaying();
      const timer = setInterval(() => {
        const pv = ui.pv;
        if (!pv || pv.timer !== timer || pv.upto + 1 >= pv.hubs.length) {
          clearInterval(timer);
          if (pv && pv.timer === timer) update(() => (pv.timer = null));
          return;
        }
        update(() => pv.upto++);
      }, pvPlayMs());
      ui.pv.timer = timer;
    })
  );
  // Hovering is the pointer moving over a move, not a move drawn under a resting pointer:
  // the list is drawn again with each `info`, and when a line closes, which must not open
  // it again.
  $("lines").addEventListener("mousemove", (/** @type {MouseEvent} */ e) => {
    const span = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.target).closest(".pv-move"));
    if (!span || (ui.pv && ui.pv.pinned)) return;
    const k = Number(span.dataset.index);
    const line = Number(span.dataset.line);
    if (!ui.pv || ui.pv.upto !== k || ui.pv.line !== line) update(() => showPv(k, false, line));
  });
  $("lines").addEventListener("mouseleave", () => {
    if (ui.pv && !ui.pv.pinned) update(closePv);
  });
  // The list is held while the pointer is on a "+ tree" button; it catches up once the
  // pointer is elsewhere (0.4 s on: after a touch's click, which comes after its
  // pointerleave). Not on the moves: a move clicked shows the line as the analysis has it,
  // which the list must then show.
  const release = () => {
    if (!held) return;
    held = false;
    setTimeout(() => update(), 400);
  };
  $("lines").addEventListener("pointerover", (/** @type {PointerEvent} */ e) => {
    if (/** @type {HTMLElement} */ (e.target).closest(".line-add")) held = true;
    else release();
  });
  $("lines").addEventListener("pointerleave", release);
}
