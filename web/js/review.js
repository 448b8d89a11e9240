// The game review (docs/BOARD.md `review`): its marks in the move list, the evaluation
// graph under it, and stepping between marked moves.

import { ui, $, MARKS, historySig, scoreText } from "./state.js";
import { send } from "./socket.js";
import { showMessage } from "./messages.js";
import { el } from "./draw.js";
import { renderMoves } from "./movelist.js";
import { renderControls } from "./status.js";

const GRAPH = { w: 600, h: 140, clip: 5 };

function startReview() {
  const st = ui.state;
  if (!st || !st.history.length) {
    showMessage("error", "no moves to review: play or load a game first");
    return;
  }
  ui.review = { sig: historySig(st), plies: {}, total: st.history.length, running: true, stopped: false, done: null, last: 0 };
  send({ type: "review" });
  renderReview();
  renderMoves();
  renderControls();
}

export function onReviewPly(msg) {
  const r = ui.review;
  if (!r) return;
  r.plies[msg.ply] = { score: msg.score, best: msg.best, mark: msg.mark || null };
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

function counts(side) {
  const c = side || {};
  return (c.inaccuracies || 0) + "?! " + (c.mistakes || 0) + "? " + (c.blunders || 0) + "??";
}

export function renderReview() {
  const r = ui.review;
  const status = $("review-status");
  const st = ui.state;
  if (!r) status.textContent = "";
  else if (r.running) status.textContent = "reviewing ply " + Math.min(r.last + 1, r.total) + " of " + r.total + " (stop to cancel)";
  else if (r.stopped) status.textContent = "review stopped after ply " + r.last + " of " + r.total;
  else if (r.done) status.textContent = "reviewed: Black " + counts(r.done.black) + " · White " + counts(r.done.white);
  const marked = markedPlies();
  const ply = st ? st.ply : 0;
  $("next-mistake").disabled = !marked.some((k) => k > ply);
  $("prev-mistake").disabled = !marked.some((k) => k < ply);
  $("review-run").disabled = !ui.connected || !st || !!(r && r.running) || !!(st && st.thinking);
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
  $("review-run").addEventListener("click", startReview);
  $("next-mistake").addEventListener("click", () => stepMistake(1));
  $("prev-mistake").addEventListener("click", () => stepMistake(-1));
  $("graph").addEventListener("click", (e) => {
    const p = e.target.closest("[data-ply]");
    if (p) send({ type: "goto", ply: Number(p.getAttribute("data-ply")) });
  });
}
