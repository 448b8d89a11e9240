// The board as SVG: squares, pieces, the last move, the selected piece's targets, capture
// paths, the best move's arrow, and a capture played jump by jump. It draws what `ui` says
// and never changes the game.

import { ui, $, legalFrom, update } from "./state.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 100; // the SVG viewBox is 8 cells of 100 units

// Milliseconds per jump when a capture is shown step by step (a test may slow it down).
const animMs = () => Number(/** @type {Window & {boardAnimMs?: number}} */ (window).boardAnimMs || 450);

/** @typedef {Object<string, string>} Pieces square number -> b/w men, B/W kings */

// ---------- geometry (docs/RULES.md R2) ----------

// The row and column of square n seen from White's side, whatever the board's turn: row 0
// is the far row, which holds 1-4 on the files b, d, f, h; row 7 holds 29-32 on a, c, e, g.
/** @param {number} n */
function fixedCell(n) {
  const r = Math.floor((n - 1) / 4);
  return { r, c: 2 * ((n - 1) % 4) + (r % 2 === 0 ? 1 : 0) };
}

// Square n (1-32) as a row and column on the board as it is turned.
/** @param {number} n */
function squareCell(n) {
  const { r, c } = fixedCell(n);
  return ui.flipped ? { r: 7 - r, c: 7 - c } : { r, c };
}

/** @param {number} n */
function squareCentre(n) {
  const { r, c } = squareCell(n);
  return { x: c * CELL + CELL / 2, y: r * CELL + CELL / 2 };
}

// An SVG element with its attributes, added to `parent` if given.
/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {Element} [parent]
 * @returns {SVGElement}
 */
export function el(tag, attrs, parent) {
  const e = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  if (parent) parent.appendChild(e);
  return e;
}

// ---------- a capture shown jump by jump ----------

// The captured square of each jump of `path`: the one on the diagonal between its ends.
/**
 * @param {number[]} path
 * @param {number[]} captured
 * @returns {(number | null)[]}
 */
function jumpOrder(path, captured) {
  /** @type {(number | null)[]} */
  const out = [];
  for (let j = 0; j + 1 < path.length; j++) {
    const a = fixedCell(path[j]);
    const b = fixedCell(path[j + 1]);
    const hit = captured.find((sq) => {
      const c = fixedCell(sq);
      const t = (c.r - a.r) / (b.r - a.r);
      return t > 0 && t < 1 && Math.abs(a.c + t * (b.c - a.c) - c.c) < 1e-9;
    });
    out.push(hit === undefined ? null : hit);
  }
  return out;
}

// Show the move from `old` to `st` (one ply on) jump by jump, if it is a capture (called
// inside `update`, with the new state).
/**
 * @param {import("./types.js").StateMsg} old
 * @param {import("./types.js").StateMsg} st
 */
export function startAnim(old, st) {
  stopAnim();
  const h = st.history[st.ply - 1];
  if (!h || !h.captured || !h.captured.length || !h.path || h.path.length < 2) return;
  const order = jumpOrder(h.path, h.captured);
  const mover = old.pieces[String(h.path[0])];
  if (!mover) return;
  /** @type {Pieces[]} */
  const frames = [];
  /** @type {Pieces} */
  let pieces = Object.assign({}, old.pieces);
  delete pieces[String(h.path[0])];
  for (let j = 0; j < h.path.length; j++) {
    const f = Object.assign({}, pieces);
    f[String(h.path[j])] = mover;
    frames.push(f);
    if (j < order.length && order[j] !== null) {
      pieces = Object.assign({}, pieces);
      delete pieces[String(order[j])];
    }
  }
  /** @type {NonNullable<import("./types.js").Ui["anim"]>} */
  const anim = { frames, step: 0, timer: null };
  ui.anim = anim;
  // Each step of the animation draws the board itself: a frame shown is not the page's state
  // (nothing else on the page depends on it), so it does not go through `update`.
  const tick = () => {
    const a = ui.anim;
    if (!a) return;
    a.step++;
    if (a.step >= a.frames.length) {
      ui.anim = null;
    } else {
      a.timer = setTimeout(tick, animMs());
    }
    renderBoard();
  };
  anim.timer = setTimeout(tick, animMs());
}

export function stopAnim() {
  if (ui.anim && ui.anim.timer) clearTimeout(ui.anim.timer);
  ui.anim = null;
}

// ---------- a line of the analysis on the board ----------

// The pieces after a move in Hub notation (from-to, or from x to x each piece taken).
/**
 * @param {Pieces} pieces
 * @param {string} hub
 * @returns {Pieces}
 */
function applyHub(pieces, hub) {
  const parts = hub.split(/[-x]/).map(Number);
  const from = parts[0];
  const to = parts[1];
  const out = Object.assign({}, pieces);
  let p = out[String(from)];
  delete out[String(from)];
  if (hub.includes("x")) for (const c of parts.slice(2)) delete out[String(c)];
  if (p === "b" && to >= 29) p = "B"; // R14: a man crowns on the far row
  if (p === "w" && to <= 4) p = "W";
  if (p) out[String(to)] = p;
  return out;
}

// The pieces after the line's moves up to the one shown.
/**
 * @param {Pieces} start the position the line starts from
 * @param {import("./types.js").PvShown} pv
 * @returns {Pieces}
 */
function pvPieces(start, pv) {
  let p = start;
  for (let k = 0; k <= pv.upto && k < pv.hubs.length; k++) p = applyHub(p, pv.hubs[k]);
  return p;
}

// ---------- drawing ----------

// The move that led to the position shown, if any.
function lastMove() {
  const st = ui.state;
  if (!st || st.ply < 1 || !st.history[st.ply - 1]) return null;
  const h = st.history[st.ply - 1];
  const parts = (h.hub || "").split(/[-x]/).map(Number);
  return {
    from: parts[0],
    to: parts[1],
    path: h.path && h.path.length ? h.path : [parts[0], parts[1]],
    captured: h.captured || [],
  };
}

// An arrow along a move's landing squares (`path`, from the origin to the destination),
// jump by jump for a capture, its head on the last jump.
/**
 * @param {Element} svg
 * @param {number[]} path
 * @param {string} [cls]
 */
function drawArrow(svg, path, cls) {
  const pts = path.map(squareCentre);
  const a = pts[pts.length - 2];
  const b = pts[pts.length - 1];
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const tip = { x: b.x - ux * 18, y: b.y - uy * 18 };
  const base = { x: tip.x - ux * 34, y: tip.y - uy * 34 };
  const g = el("g", {
    class: cls || "best-arrow",
    "data-from": path[0],
    "data-to": path[path.length - 1],
    "data-path": path.join("-"),
  }, svg);
  const line = pts.slice(0, -1).concat([base]).map((p) => p.x + "," + p.y);
  el("polyline", { points: line.join(" "), class: "arrow" }, g);
  el("polygon", {
    points: [tip.x + "," + tip.y, base.x - uy * 22 + "," + (base.y + ux * 22), base.x + uy * 22 + "," + (base.y - ux * 22)].join(" "),
    class: "arrowhead",
  }, g);
}

// The landing squares of a move in Hub notation in the position shown: the legal move's
// path (a capture's jumps), else its origin and destination.
/**
 * @param {string} hub
 * @returns {number[] | null}
 */
function hubPath(hub) {
  const m = ui.state && ui.state.legal.find((l) => l.hub === hub);
  if (m && m.path && m.path.length >= 2) return m.path;
  const parts = hub.split(/[-x]/).map(Number);
  return parts.length >= 2 ? [parts[0], parts[1]] : null;
}

export function renderBoard() {
  const svg = $("board");
  svg.textContent = "";
  svg.classList.toggle("setup", !!ui.setup);
  svg.classList.toggle("preview", !!ui.pv && !ui.setup);
  svg.dataset.animStep = ui.anim ? String(ui.anim.step) : "";
  el("rect", { x: 0, y: 0, width: 800, height: 800, class: "light" }, svg);

  const st = ui.state;
  let pieces = ui.setup ? ui.setup.pieces : st ? st.pieces : {};
  if (!ui.setup && ui.pv && st) pieces = pvPieces(st.pieces, ui.pv);
  else if (!ui.setup && ui.anim) pieces = ui.anim.frames[ui.anim.step];
  const lm = ui.setup || ui.pv ? null : lastMove();
  const last = lm ? [lm.from, lm.to] : [];
  // The men the last move took, shown faintly where they stood once it is played.
  const gone = lm && !ui.anim ? new Set(lm.captured) : new Set();
  const mover = lm && st && st.pieces[String(lm.to)];
  const goneColour = mover && (mover === "b" || mover === "B") ? "w" : "b";
  const targets = new Set(ui.selected !== null ? legalFrom(ui.selected).map((m) => m.to) : []);
  const preview = ui.preview ? new Set(ui.preview.captured) : new Set();

  for (let n = 1; n <= 32; n++) {
    const { r, c } = squareCell(n);
    const x = c * CELL;
    const y = r * CELL;
    const g = el("g", { "data-square": n, class: "square" }, svg);
    el("rect", { x, y, width: CELL, height: CELL, class: "dark" }, g);
    if (lm && last.includes(n)) {
      el("rect", { x, y, width: CELL, height: CELL, class: n === lm.to ? "last-to" : "last-from" }, g);
      g.setAttribute("data-last", n === lm.to ? "to" : "from");
    }
    if (n === ui.selected) el("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: "selected" }, g);
    if (n === ui.hint) el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL / 2 - 2, class: "hint" }, g);
    const num = el("text", { x: x + 5, y: y + 17, class: "num" }, g);
    num.textContent = String(n);
    const p = pieces[String(n)];
    if (p) {
      g.setAttribute("data-piece", p);
      drawPiece(g, x + CELL / 2, y + CELL / 2, p);
    }
    if (targets.has(n)) {
      if (p) el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 44, class: "target-ring" }, g);
      else el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 15, class: "target" }, g);
      g.setAttribute("data-target", "1");
    }
    if (preview.has(n)) {
      el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 44, class: "taken" }, g);
      g.setAttribute("data-taken", "1");
    }
    if (gone.has(n) && !p) {
      const ghost = el("g", { class: "ghost" }, g);
      drawPiece(ghost, x + CELL / 2, y + CELL / 2, goneColour);
      el("line", { x1: x + 28, y1: y + 28, x2: x + 72, y2: y + 72, class: "cross" }, g);
      el("line", { x1: x + 72, y1: y + 28, x2: x + 28, y2: y + 72, class: "cross" }, g);
      g.setAttribute("data-captured-last", "1");
    }
  }
  // The last capture's path, jump by jump.
  if (lm && lm.captured.length && lm.path.length >= 2) {
    const pts = lm.path.map((sq) => {
      const c = squareCentre(sq);
      return c.x + "," + c.y;
    });
    el("polyline", { points: pts.join(" "), class: "last-path" }, svg);
  }
  // The best move of the analysis (or of the engine's thinking) as an arrow.
  // Only while the search is on: a stopped search's arrow is no longer shown (issue 69).
  const live = !!(ui.state && (ui.state.analyzing || ui.state.thinking));
  if (live && !ui.setup && !ui.pv && !ui.anim && ui.info && ui.info.pv && ui.info.pv.length) {
    const path = hubPath(ui.info.pv[0]);
    if (path) drawArrow(svg, path);
  }
  // The review's best move, at a marked move or as the answer to "find a better move".
  if (!ui.setup && !ui.pv && !ui.anim && ui.reviewArrow && ui.reviewArrow.length >= 2)
    drawArrow(svg, ui.reviewArrow, "review-arrow");
  // The explorer's or the tables' move under the pointer (js/explorer.js, js/analysis.js).
  if (!ui.setup && !ui.pv && !ui.anim && ui.hoverArrow && ui.hoverArrow.length >= 2)
    drawArrow(svg, ui.hoverArrow, "hover-arrow");

  // Capture paths: every capture of the selected piece faintly, the previewed one boldly.
  /** @type {[import("./types.js").Move, string][]} */
  const paths = [];
  if (ui.preview) paths.push([ui.preview, "path bold"]);
  else if (ui.selected !== null)
    legalFrom(ui.selected)
      .filter((m) => m.captured.length && m.path.length > 2)
      .forEach((m) => paths.push([m, "path"]));
  for (const [m, cls] of paths) {
    const pts = m.path.map((sq) => {
      const p = squareCentre(sq);
      return p.x + "," + p.y;
    });
    el("polyline", { points: pts.join(" "), class: cls }, svg);
  }
}

/**
 * @param {Element} g
 * @param {number} cx
 * @param {number} cy
 * @param {string} p
 */
function drawPiece(g, cx, cy, p) {
  const white = p === "w" || p === "W";
  const cls = white ? "piece white" : "piece black";
  el("circle", { cx, cy: cy + 4, r: 38, class: "shadow" }, g);
  el("circle", { cx, cy, r: 38, class: cls }, g);
  el("circle", { cx, cy, r: 27, class: cls + " inner" }, g);
  if (p === "W" || p === "B") {
    // A crown: the king must read as a king at a glance, in either colour.
    const d =
      `M${cx - 19},${cy + 11} L${cx - 22},${cy - 12} L${cx - 10},${cy - 1} ` +
      `L${cx},${cy - 17} L${cx + 10},${cy - 1} L${cx + 22},${cy - 12} L${cx + 19},${cy + 11} Z`;
    el("path", { d, class: "crown" }, g);
    el("rect", { x: cx - 19, y: cy + 13, width: 38, height: 5, class: "crown" }, g);
  }
}

/**
 * The arrow of the move under the pointer (or the keyboard's focus), from a row's or a
 * button's `data-path`; none when it leaves.
 * @param {HTMLElement} box
 * @param {string} selector
 */
export function hoverArrows(box, selector) {
  const show = (/** @type {Event} */ ev) => {
    const el = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (ev.target).closest(selector));
    const path = el && el.dataset.path ? el.dataset.path.split(",").map(Number) : null;
    if (JSON.stringify(path) === JSON.stringify(ui.hoverArrow)) return;
    update((ui) => {
      ui.hoverArrow = path;
    });
  };
  const hide = () => {
    if (ui.hoverArrow)
      update((ui) => {
        ui.hoverArrow = null;
      });
  };
  box.addEventListener("mouseover", show);
  box.addEventListener("focusin", show);
  box.addEventListener("mouseleave", hide);
  box.addEventListener("focusout", hide);
}
