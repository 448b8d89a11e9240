// The game review (docs/BOARD.md `review`): its strength (kept in localStorage), its marks
// in the move list, each side's summary, the evaluation graph under it, and stepping
// between marked moves. What a marked move teaches is js/teach.js's.

import { ui, $, MARKS, historySig, scoreText } from "./state.js";
import { send } from "./socket.js";
import { showMessage } from "./messages.js";
import { el } from "./draw.js";
import { renderMoves } from "./movelist.js";
import { renderControls } from "./status.js";

const GRAPH = { w: 600, h: 140, clip: 5 };

// ---------- the review's strength: per position, as the server takes it ----------

const STRENGTH_STORE = "poolshark-review";
// Each kind's default, and its bounds (docs/BOARD.md `review`).
const STRENGTH = {
  nodes: { value: 50000, min: 1, max: 1e9, whole: true, what: "nodes a position, from 1 to 1,000,000,000" },
  depth: { value: 8, min: 1, max: 30, whole: true, what: "a depth from 1 to 30" },
  movetime: { value: 0.5, min: 0.01, max: 60, whole: false, what: "seconds a position, above 0 and at most 60" },
};

function loadStrength() {
  try {
    const v = JSON.parse(localStorage.getItem(STRENGTH_STORE) || "null");
    if (v && STRENGTH[v.kind] && isFinite(Number(v.value))) {
      $("review-kind").value = v.kind;
      $("review-value").value = String(v.value);
    }
  } catch (e) {
    // Storage may be off (private windows): the defaults stand.
  }
}

function saveStrength() {
  try {
    localStorage.setItem(STRENGTH_STORE, JSON.stringify({ kind: $("review-kind").value, value: Number($("review-value").value) }));
  } catch (e) {
    // As above.
  }
}

// The strength typed, as the fields of a `review` or `retry` request ({nodes: N}, {depth: N}
// or {movetime: S}), or null with a message when it is out of bounds.
export function reviewBudget() {
  const kind = $("review-kind").value;
  const s = STRENGTH[kind];
  let v = Number($("review-value").value);
  if (s && s.whole) v = Math.round(v);
  if (!s || !isFinite(v) || v < s.min || v > s.max) {
    showMessage("error", "review strength: give " + (s ? s.what : "nodes, a depth or seconds"));
    return null;
  }
  return { [kind]: v };
}

function startReview() {
  const st = ui.state;
  if (!st || !st.history.length) {
    showMessage("error", "no moves to review: play or load a game first");
    return;
  }
  const budget = reviewBudget();
  if (!budget) return;
  ui.review = { sig: historySig(st), plies: {}, total: st.history.length, running: true, stopped: false, done: null, last: 0 };
  ui.retry = null;
  send(Object.assign({ type: "review" }, budget));
  renderReview();
  renderMoves();
  renderControls();
}

export function onReviewPly(msg) {
  const r = ui.review;
  if (!r) return;
  r.plies[msg.ply] = Object.assign({}, msg, { mark: msg.mark || null });
  r.last = msg.ply;
  renderReview();
  renderMoves();
}

export function onReviewDone(msg) {
  const r = ui.review;
  if (!r) return;
  r.running = false;
  r.stopped = !!msg.stopped;
  r.done = msg;
  renderReview();
  renderMoves();
  renderControls();
}

// The marked plies, in order.
function markedPlies() {
  const r = ui.review;
  if (!r) return [];
  return Object.keys(r.plies)
    .map(Number)
    .filter((k) => r.plies[k].mark)
    .sort((a, b) => a - b);
}

// Each side's summary once the review has ended: its marks, the mean loss in men and its
// accuracy (docs/ANNOTATE.md).
function renderSummary() {
  const r = ui.review;
  const table = $("review-summary");
  table.textContent = "";
  table.hidden = !(r && r.done);
  if (table.hidden) return;
  const row = (cells, head) => {
    const tr = document.createElement("tr");
    cells.forEach((c, i) => {
      const td = document.createElement(head || i === 0 ? "th" : "td");
      td.textContent = c;
      tr.appendChild(td);
    });
    table.appendChild(tr);
    return tr;
  };
  const head = row(["", "?!", "?", "??", "mean loss", "accuracy"], true);
  head.children[4].title = "the mean of what each move gave away against the best, in men";
  head.children[5].title = "how close the moves came to the best on the evaluation's win-probability curve, in %";
  for (const side of ["black", "white"]) {
    const s = r.done[side] || {};
    const tr = row([side === "black" ? "Black" : "White", s.inaccuracies || 0, s.mistakes || 0, s.blunders || 0,
      Number(s.mean_loss || 0).toFixed(2), Number(s.accuracy === undefined ? 100 : s.accuracy).toFixed(1) + "%"]);
    tr.id = "summary-" + side;
  }
}

export function renderReview() {
  const r = ui.review;
  const status = $("review-status");
  const st = ui.state;
  if (!r) status.textContent = "";
  else if (r.running) status.textContent = "reviewing ply " + Math.min(r.last + 1, r.total) + " of " + r.total + " (stop to cancel)";
  else if (r.stopped) status.textContent = "review stopped after ply " + r.last + " of " + r.total;
  else if (r.done) status.textContent = "reviewed: " + r.total + " plies";
  const marked = markedPlies();
  const ply = st ? st.ply : 0;
  $("next-mistake").disabled = !marked.some((k) => k > ply);
  $("prev-mistake").disabled = !marked.some((k) => k < ply);
  $("review-run").disabled = !ui.connected || !st || !!(r && r.running) || !!(st && st.thinking);
  renderSummary();
  renderGraph();
}

// A score for Black as a height on the graph: clipped to ±GRAPH.clip men, wins at the edge.
function graphY(score) {
  let v = Number(score);
  if (!isFinite(v)) v = 0;
  if (Math.abs(v) >= 80) v = v > 0 ? GRAPH.clip : -GRAPH.clip;
  v = Math.max(-GRAPH.clip, Math.min(GRAPH.clip, v));
  const half = GRAPH.h / 2 - 6;
  return GRAPH.h / 2 - (v / GRAPH.clip) * half;
}

function renderGraph() {
  const svg = $("graph");
  const r = ui.review;
  const st = ui.state;
  svg.textContent = "";
  svg.style.display = r && st ? "block" : "none";
  if (!r || !st) return;
  // The drawing's width is the graph's own, so that the points stay round.
  const w = Math.max(120, Math.round(svg.getBoundingClientRect().width) || GRAPH.w);
  svg.setAttribute("viewBox", "0 0 " + w + " " + GRAPH.h);
  const n = Math.max(r.total, 1);
  const x = (ply) => 6 + (ply / n) * (w - 12);
  // Black's advantage shaded above the middle line.
  el("rect", { x: 0, y: 0, width: w, height: GRAPH.h / 2, class: "g-black" }, svg);
  el("line", { x1: 0, x2: w, y1: GRAPH.h / 2, y2: GRAPH.h / 2, class: "g-axis" }, svg);
  const plies = Object.keys(r.plies).map(Number).sort((a, b) => a - b);
  const pts = [[x(0), GRAPH.h / 2]].concat(plies.map((k) => [x(k), graphY(r.plies[k].score)]));
  el("polyline", { points: pts.map((p) => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" "), class: "g-line" }, svg);
  el("line", { x1: x(st.ply), x2: x(st.ply), y1: 0, y2: GRAPH.h, class: "g-current", id: "graph-current" }, svg);
  plies.forEach((k) => {
    const p = r.plies[k];
    const c = el(
      "circle",
      { cx: x(k), cy: graphY(p.score), r: p.mark ? 5 : 3.5, class: "graph-point" + (p.mark ? " " + MARKS[p.mark] : ""), "data-ply": k },
      svg
    );
    const t = el("title", {}, c);
    t.textContent = "ply " + k + ": " + (st.history[k - 1] ? st.history[k - 1].pdn : "") + (p.mark || "") + " Black " + scoreText(p.score) + (p.mark ? " (best " + p.best + ")" : "");
  });
}

function stepMistake(dir) {
  const st = ui.state;
  if (!st) return;
  const marked = markedPlies();
  const k = dir > 0 ? marked.find((p) => p > st.ply) : marked.reverse().find((p) => p < st.ply);
  if (k !== undefined) send({ type: "goto", ply: k });
}

export function wireReview() {
  loadStrength();
  $("review-kind").addEventListener("change", () => {
    $("review-value").value = String(STRENGTH[$("review-kind").value].value);
    saveStrength();
  });
  $("review-value").addEventListener("change", saveStrength);
  $("review-run").addEventListener("click", startReview);
  $("next-mistake").addEventListener("click", () => stepMistake(1));
  $("prev-mistake").addEventListener("click", () => stepMistake(-1));
  $("graph").addEventListener("click", (e) => {
    const p = e.target.closest("[data-ply]");
    if (p) send({ type: "goto", ply: Number(p.getAttribute("data-ply")) });
  });
}
