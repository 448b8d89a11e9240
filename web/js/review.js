// The game review (docs/BOARD.md `review`): its strength (kept in localStorage), its
// progress, each side's summary, the evaluation graph under the move list, and stepping
// between marked moves. A review reviews the main line; the server keeps each move's mark
// and score in its node (`state.nodes`), which is where the list and the graph read them,
// so they stay with their moves whatever else is played; the summary is the state's own
// (`state.review`, over the main line as it stands), so it survives a reload and follows the
// main line. What a marked move teaches is js/teach.js's, from the nodes' `review`.

import { ui, $, MARKS, mainSig, scoreText, update, clocksLive } from "./state.js";
import { send } from "./socket.js";
import { showMessage } from "./messages.js";
import { el } from "./draw.js";
import { mainLine, notesOf } from "./tree.js";

const GRAPH = { w: 600, h: 140, clip: 5 };

// ---------- the review's strength: per position, as the server takes it ----------

const STRENGTH_STORE = "poolshark-review";
// Each kind's default, and its bounds (docs/BOARD.md `review`).
/** @type {Record<string, {value: number, min: number, max: number, whole: boolean, what: string}>} */
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

// What a whole review or retry may search, all its positions together (docs/BOARD.md
// `review`); a depth gets its share of the nodes from the server.
/** @type {Record<string, number>} */
const TOTAL = { nodes: 1e9, movetime: 300 };

// The strength typed, as the fields of a `review` or `retry` request ({nodes: N}, {depth: N}
// or {movetime: S}) that searches `positions` positions, or null with a message when it is
// out of bounds.
/**
 * @param {number} positions
 * @returns {Record<string, number> | null}
 */
export function reviewBudget(positions) {
  const kind = $("review-kind").value;
  const s = STRENGTH[kind];
  let v = Number($("review-value").value);
  if (s && s.whole) v = Math.round(v);
  if (!s || !isFinite(v) || v < s.min || v > s.max) {
    showMessage("error", "review strength: give " + (s ? s.what : "nodes, a depth or seconds"));
    return null;
  }
  const total = TOTAL[kind];
  if (total && v * positions > total) {
    const most = kind === "nodes" ? Math.floor(total / positions) : Math.floor((total / positions) * 1000) / 1000;
    showMessage("error", "review strength: " + positions + " positions at " + v + (kind === "nodes" ? " nodes" : " s") +
      " each is more than the " + total + (kind === "nodes" ? " nodes" : " s") + " a review may take in all: give at most " + most);
    return null;
  }
  return { [kind]: v };
}

// The server refused the review just asked for (an `error` before the `state` that accepts
// it): there is none running.
export function onReviewRefused() {
  const r = ui.review;
  if (!r || !r.asked) return;
  update((ui) => {
    ui.review = null;
  });
}

function startReview() {
  const st = ui.state;
  const total = st ? mainLine(st).length - 1 : 0;
  if (!st || total < 1) {
    showMessage("error", "no moves to review: play or load a game first");
    return;
  }
  const budget = reviewBudget(total + 1);
  if (!budget) return;
  update((ui) => {
    ui.review = { sig: mainSig(st), plies: {}, total, running: true, stopped: false, done: null, last: 0, live: {}, asked: true };
    ui.retry = null;
  });
  send(/** @type {import("./types.js").Request} */ (Object.assign({ type: "review" }, budget)));
}

/** @param {import("./types.js").ReviewPlyMsg} msg */
export function onReviewPly(msg) {
  const r = ui.review;
  if (!r) return;
  update(() => {
    r.plies[msg.ply] = Object.assign({}, msg, { mark: msg.mark || null });
    // The node keeps a mark it came with (a loaded PDN's): `node_mark` is what it shows now.
    const shown = msg.node_mark === undefined ? msg.mark : msg.node_mark;
    if (msg.node !== undefined) r.live[msg.node] = { mark: shown || null, eval: msg.score, best: msg.best };
    r.last = msg.ply;
  });
}

/** @param {import("./types.js").ReviewDoneMsg} msg */
export function onReviewDone(msg) {
  const r = ui.review;
  if (!r) return;
  update(() => {
    r.running = false;
    r.stopped = !!msg.stopped;
    r.done = msg;
  });
}

// A new state holds every mark reported so far. A finished review goes once the main line
// has no score left (a new game, another loaded).
/** @param {import("./types.js").StateMsg} st */
export function reviewOnState(st) {
  const r = ui.review;
  if (!r) return;
  r.asked = false;
  r.live = {};
  if (!r.running && !mainLine(st).some((n) => n.eval !== null && n.eval !== undefined)) ui.review = null;
}

// The main line's scored moves, as {k (ply), node, mark, eval, best}: the review's, or a
// loaded PDN's `[%eval]`.
/** @param {import("./types.js").StateMsg | null} st */
function scored(st) {
  return mainLine(st)
    .slice(1)
    .map((node, i) => Object.assign({ k: i + 1, node }, notesOf(node)))
    .filter((p) => p.eval !== null && p.eval !== undefined);
}

// The main line's ply of the position shown, or the ply shown off the main line.
/** @param {import("./types.js").StateMsg} st */
function mainPly(st) {
  const k = mainLine(st).findIndex((n) => n.id === st.node);
  return k >= 0 ? k : st.ply;
}

// The main line's moves a review marks, in order.
/** @param {import("./types.js").StateMsg} st */
function marked(st) {
  return scored(st).filter((p) => p.mark && MARKS[p.mark]);
}

// Each side's summary over the main line's reviewed moves, as the state has it
// (docs/BOARD.md `State.review`): so it comes back with a reloaded game and follows the main
// line. Its marks, the mean loss in men and its accuracy (docs/ANNOTATE.md); not while a
// review runs.
function renderSummary() {
  const r = ui.review;
  const sum = ui.state && ui.state.review;
  const table = $("review-summary");
  table.textContent = "";
  table.hidden = !sum || !!(r && r.running);
  if (!sum || table.hidden) return;
  const row = (/** @type {(string | number)[]} */ cells, /** @type {boolean} */ head = false) => {
    const tr = document.createElement("tr");
    cells.forEach((c, i) => {
      const td = document.createElement(head || i === 0 ? "th" : "td");
      td.textContent = String(c);
      tr.appendChild(td);
    });
    table.appendChild(tr);
    return tr;
  };
  const head = row(["", "?!", "?", "??", "mean loss", "accuracy"], true);
  /** @type {HTMLElement} */ (head.children[4]).title = "the mean of what each move gave away against the best, in men";
  /** @type {HTMLElement} */ (head.children[5]).title = "how close the moves came to the best on the evaluation's win-probability curve, in %";
  for (const side of /** @type {const} */ (["black", "white"])) {
    const s = sum[side];
    const tr = row([side === "black" ? "Black" : "White", s.inaccuracies || 0, s.mistakes || 0, s.blunders || 0,
      Number(s.mean_loss || 0).toFixed(2), Number(s.accuracy === undefined ? 100 : s.accuracy).toFixed(1) + "%"]);
    tr.id = "summary-" + side;
  }
}

export function renderReview() {
  const r = ui.review;
  const status = $("review-status");
  const st = ui.state;
  const sum = st && st.review;
  if (r && r.running) status.textContent = "reviewing ply " + Math.min(r.last + 1, r.total) + " of " + r.total + " (stop to cancel)";
  else if (r && r.stopped && r.sig === (st && mainSig(st))) status.textContent = "review stopped after ply " + r.last + " of " + r.total;
  else if (sum) status.textContent = "reviewed: " + sum.plies + (sum.plies === sum.of ? "" : " of " + sum.of) + " plies";
  else status.textContent = "";
  const bad = st ? marked(st) : [];
  const ply = st ? mainPly(st) : 0;
  $("next-mistake").disabled = !bad.some((p) => p.k > ply);
  $("prev-mistake").disabled = !bad.some((p) => p.k < ply);
  // No review while a timed game's clocks run (the board refuses it: it is analysis).
  $("review-run").disabled =
    !ui.connected ||
    !st ||
    !!(r && r.running) ||
    !!st.thinking ||
    clocksLive(st) ||
    !!(st.puzzle && st.puzzle.result === "playing") ||
    !!(st.practice && st.practice.result === "playing");
  renderSummary();
  renderGraph();
}

// A score for Black as a height on the graph: clipped to ±GRAPH.clip men, wins at the edge.
/** @param {string | null | undefined} score */
function graphY(score) {
  let v = Number(score);
  if (!isFinite(v)) v = 0;
  if (Math.abs(v) >= 80) v = v > 0 ? GRAPH.clip : -GRAPH.clip;
  v = Math.max(-GRAPH.clip, Math.min(GRAPH.clip, v));
  const half = GRAPH.h / 2 - 6;
  return GRAPH.h / 2 - (v / GRAPH.clip) * half;
}

// The main line's scores, a point per move.
function renderGraph() {
  const svg = $("graph");
  const st = ui.state;
  const points = st ? scored(st) : [];
  svg.textContent = "";
  const shown = !!st && (points.length > 0 || !!ui.review);
  svg.style.display = shown ? "block" : "none";
  if (!st || !shown) return;
  // The drawing's width is the graph's own, so that the points stay round.
  const w = Math.max(120, Math.round(svg.getBoundingClientRect().width) || GRAPH.w);
  svg.setAttribute("viewBox", "0 0 " + w + " " + GRAPH.h);
  const line = mainLine(st);
  const n = Math.max(line.length - 1, 1);
  const x = (/** @type {number} */ ply) => 6 + (ply / n) * (w - 12);
  // Black's advantage shaded above the middle line.
  el("rect", { x: 0, y: 0, width: w, height: GRAPH.h / 2, class: "g-black" }, svg);
  el("line", { x1: 0, x2: w, y1: GRAPH.h / 2, y2: GRAPH.h / 2, class: "g-axis" }, svg);
  const pts = [[x(0), GRAPH.h / 2]].concat(points.map((p) => [x(p.k), graphY(p.eval)]));
  el("polyline", { points: pts.map((p) => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" "), class: "g-line" }, svg);
  if (line.some((nd) => nd.id === st.node)) {
    const at = mainPly(st);
    el("line", { x1: x(at), x2: x(at), y1: 0, y2: GRAPH.h, class: "g-current", id: "graph-current" }, svg);
  }
  points.forEach((p) => {
    const bad = p.mark ? MARKS[p.mark] : undefined;
    const c = el(
      "circle",
      { cx: x(p.k), cy: graphY(p.eval), r: bad ? 5 : 3.5, class: "graph-point" + (bad ? " " + bad : ""), "data-ply": p.k, "data-node": p.node.id },
      svg
    );
    const t = el("title", {}, c);
    t.textContent = "ply " + p.k + ": " + p.node.pdn + (p.mark || "") + " Black " + scoreText(/** @type {string} scored */ (p.eval)) + (bad && p.best ? " (best " + p.best + ")" : "");
  });
}

/** @param {number} dir */
function stepMistake(dir) {
  const st = ui.state;
  if (!st) return;
  const bad = marked(st);
  const ply = mainPly(st);
  const p = dir > 0 ? bad.find((q) => q.k > ply) : bad.reverse().find((q) => q.k < ply);
  if (p) send({ type: "goto", node: p.node.id });
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
  // A click anywhere along the graph goes to the main line's ply nearest it (by x).
  $("graph").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const st = ui.state;
    if (!st) return;
    const line = mainLine(st);
    const box = $("graph").getBoundingClientRect();
    if (!box.width || line.length < 2) return;
    // As renderGraph places ply k: 6 + k / n * (w - 12), in a drawing as wide as the box.
    const n = line.length - 1;
    const k = Math.round(((e.clientX - box.left - 6) / Math.max(box.width - 12, 1)) * n);
    send({ type: "goto", node: line[Math.max(0, Math.min(n, k))].id });
  });
}
