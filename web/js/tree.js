// The move tree (docs/BOARD.md `nodes`): every move of the game and every variation tried
// beside it, drawn as lichess does. The main line runs in numbered rows; the variations at
// a move stand under its row in parentheses, and a variation inside a variation is indented
// under the move it branches from. Each move is a click away (goto by node); the current
// line (`state.line`) is the one Left and Right walk, Up and Down choose among the
// variations at a branch, and a menu promotes or deletes a variation. Marks, NAGs and
// comments, the review's or the PDN's, stand with their moves.

import { ui, $, MARKS, scoreText, moveNumber, clocksLive } from "./state.js";
import { send } from "./socket.js";

// Every mark a move can carry, by the name its CSS class uses: the review's three and the
// three a PDN may bring.
/** @type {Record<string, string>} */
const MARK_NAMES = Object.assign({ "!": "good", "!!": "brilliant", "!?": "interesting" }, MARKS);

/** @typedef {import("./types.js").StateMsg} StateMsg */
/** @typedef {import("./types.js").TreeNode} TreeNode */
/** @typedef {Map<number, TreeNode>} Nodes */

/**
 * What drawing the move list needs: the state, its nodes by id and the current line.
 * @typedef {{st: StateMsg, nodes: Nodes, line: number[]}} TreeContext
 */

/**
 * A child the state names, which it lists (each node comes after its parent).
 * @param {Nodes} nodes
 * @param {number} id
 * @returns {TreeNode}
 */
function child(nodes, id) {
  const n = nodes.get(id);
  if (!n) throw new Error("the state names node " + id + " but does not list it");
  return n;
}

/**
 * A request on the tree from the menu or the buttons, or false where it cannot be made.
 * @typedef {{promote: import("./types.js").Request | false, main: import("./types.js").Request | false,
 *   del: import("./types.js").Request | false, onMain?: boolean}} TreeActions
 */

// The state's nodes by id.
/**
 * @param {StateMsg | null} st
 * @returns {Nodes}
 */
export function nodeMap(st) {
  const m = new Map();
  for (const n of (st && st.nodes) || []) m.set(n.id, n);
  return m;
}

// The main line's nodes, the root first.
/**
 * @param {StateMsg | null} st
 * @returns {TreeNode[]}
 */
export function mainLine(st) {
  const nodes = nodeMap(st);
  const line = [];
  let n = st && st.nodes && st.nodes[0];
  while (n) {
    line.push(n);
    n = n.children.length ? nodes.get(n.children[0]) : null;
  }
  return line;
}

// A node's mark and score: those a review reported since the last state (which keeps
// them in its nodes from then on), else the node's own.
/** @param {TreeNode} node */
export function notesOf(node) {
  const live = ui.review && ui.review.live && ui.review.live[node.id];
  return live || { mark: node.mark, eval: node.eval, best: node.best };
}

// Ply `ply` (from 1) as the PDN the server writes numbers it (`moveNumber`).
/** @param {number} ply */
function numberOf(ply) {
  return moveNumber(ply - 1);
}

/**
 * @param {string} cls
 * @param {string} [text]
 */
function span(cls, text) {
  const s = document.createElement("span");
  s.className = cls;
  if (text !== undefined) s.textContent = text;
  return s;
}

// One move: its text, mark and NAGs.
/**
 * @param {TreeContext} ctx
 * @param {TreeNode} node
 * @param {number} ply
 */
function moveEl(ctx, node, ply) {
  const m = span("move");
  const onLine = ctx.line[ply] === node.id;
  if (node.id === ctx.st.node) m.classList.add("current");
  if (onLine && ply > ctx.st.ply) m.classList.add("ahead");
  if (onLine) {
    // The current line's moves keep the ids and plies the page always had.
    m.id = "ply-" + ply;
    m.dataset.ply = String(ply);
  }
  m.dataset.node = String(node.id);
  m.appendChild(document.createTextNode(node.pdn || ""));
  const notes = notesOf(node);
  const title = [];
  if (notes.mark) {
    const name = MARK_NAMES[notes.mark] || "mark";
    m.appendChild(span("mark mark-" + name, notes.mark));
    title.push(name + (notes.best && MARKS[notes.mark] ? "; best " + notes.best : ""));
  }
  for (const nag of node.nags || []) m.appendChild(span("nag", " $" + nag));
  if (notes.eval !== null && notes.eval !== undefined) title.push("Black " + scoreText(notes.eval));
  if (title.length) m.title = title.join(" · ");
  return m;
}

/**
 * @param {string} text
 * @param {string} [cls]
 */
function commentEl(text, cls) {
  return span("comment" + (cls ? " " + cls : ""), text);
}

// A variation from its first move `first` (ply `ply`), with the variations inside it, in
// parentheses; `depth` 1 under the main line, more inside another variation.
/**
 * @param {TreeContext} ctx
 * @param {TreeNode} first
 * @param {number} ply
 * @param {number} depth
 * @returns {HTMLElement}
 */
function variationEl(ctx, first, ply, depth) {
  const box = document.createElement("div");
  box.className = "variation";
  box.dataset.depth = String(depth);
  box.appendChild(span("paren", "("));
  if (first.before) box.appendChild(commentEl(first.before, "before"));
  let n = numberOf(ply);
  box.appendChild(span("move-no", n.no + (n.first ? "." : "…")));
  box.appendChild(moveEl(ctx, first, ply));
  let needNumber = !!first.comment;
  if (first.comment) box.appendChild(commentEl(first.comment));
  let at = first;
  while (at.children.length) {
    const next = child(ctx.nodes, at.children[0]);
    ply++;
    n = numberOf(ply);
    const label = n.first ? n.no + "." : needNumber ? n.no + "…" : null;
    if (label) box.appendChild(span("move-no", label));
    box.appendChild(moveEl(ctx, next, ply));
    needNumber = false;
    if (next.comment) {
      box.appendChild(commentEl(next.comment));
      needNumber = true;
    }
    for (const id of at.children.slice(1)) {
      box.appendChild(variationEl(ctx, child(ctx.nodes, id), ply, depth + 1));
      needNumber = true;
    }
    at = next;
  }
  box.appendChild(span("paren", ")"));
  return box;
}

/**
 * @param {HTMLElement} box
 * @param {number} no
 * @param {boolean} second
 */
function newRow(box, no, second) {
  const row = document.createElement("div");
  row.className = "move-row";
  row.appendChild(span("move-no", no + "."));
  if (second) row.appendChild(span("move-dots", "…"));
  box.appendChild(row);
  return row;
}

export function renderMoves() {
  const box = $("moves");
  box.textContent = "";
  const st = ui.state;
  renderTreeTools();
  if (!st || !st.nodes || !st.nodes.length) return;
  const ctx = { st, nodes: nodeMap(st), line: st.line || [] };
  const root = st.nodes[0];
  const start = span("move start" + (st.node === root.id ? " current" : ""), "start");
  start.dataset.ply = "0";
  start.dataset.node = String(root.id);
  start.id = "ply-0";
  box.appendChild(start);
  if (root.comment) box.appendChild(commentEl(root.comment, "main"));
  // The main line in rows of a move by each side; a row ends early where variations or a
  // comment stand under one of its moves.
  let row = null;
  let at = root;
  let ply = 0;
  while (at.children.length) {
    const next = child(ctx.nodes, at.children[0]);
    ply++;
    const n = numberOf(ply);
    if (!row || n.first) row = newRow(box, n.no, !n.first);
    row.appendChild(moveEl(ctx, next, ply));
    const alts = at.children.slice(1);
    if (alts.length || next.comment) {
      if (n.first && next.children.length) row.appendChild(span("move-dots", "…"));
      if (next.comment) box.appendChild(commentEl(next.comment, "main"));
      if (alts.length) {
        const vars = document.createElement("div");
        vars.className = "variations";
        for (const id of alts) vars.appendChild(variationEl(ctx, child(ctx.nodes, id), ply, 1));
        box.appendChild(vars);
      }
      row = null;
    }
    at = next;
  }
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

// ---------- promoting and deleting variations ----------

// The first move of the variation `id` is in: the nearest move, itself or before it, that
// is not its parent's main continuation; null on the main line.
/**
 * @param {Nodes} nodes
 * @param {number} id
 * @returns {TreeNode | null}
 */
function variationStart(nodes, id) {
  let n = nodes.get(id);
  while (n && n.parent !== null) {
    const parent = child(nodes, n.parent);
    if (parent.children[0] !== n.id) return n;
    n = parent;
  }
  return null;
}

// What can be done to node `id`: {promote, main, del} (each false or the request).
/**
 * @param {number} id
 * @returns {TreeActions}
 */
function actionsFor(id) {
  const st = ui.state;
  const nodes = nodeMap(st);
  const node = nodes.get(id);
  // A timed game's tree stays as played while its clocks are live (the board refuses these).
  const timed = !!st && clocksLive(st);
  if (!node || node.parent === null || timed) return { promote: false, main: false, del: false };
  const start = variationStart(nodes, id);
  return {
    promote: start ? { type: "promote", node: start.id, to_main: false } : false,
    main: start ? { type: "promote", node: id, to_main: true } : false,
    del: { type: "delete", node: id },
    onMain: !start,
  };
}

/**
 * @param {import("./types.js").Request | false} req
 * @param {boolean} [onMain]
 */
function act(req, onMain) {
  if (!req) return;
  // Deleting from the main line drops the rest of the game: ask first.
  if (req.type === "delete" && onMain && !window.confirm("Delete this move and every move after it from the game?")) return;
  send(req);
}

// The buttons under the list act on the move shown.
function renderTreeTools() {
  const st = ui.state;
  const ok = ui.connected && st && !ui.setup;
  const a = ok ? actionsFor(st.node) : { promote: false, main: false, del: false };
  $("var-promote").disabled = !a.promote;
  $("var-main").disabled = !a.main;
  $("var-delete").disabled = !a.del;
}

function closeMenu() {
  const menu = $("tree-menu");
  menu.hidden = true;
  menu.dataset.node = "";
}

// The menu of a move (right click): promote, make main, delete. On a phone the buttons
// under the list do the same for the move shown.
/**
 * @param {number} id
 * @param {number} x
 * @param {number} y
 */
function openMenu(id, x, y) {
  const a = actionsFor(id);
  if (!a.del) return;
  const menu = $("tree-menu");
  menu.dataset.node = String(id);
  $("menu-promote").disabled = !a.promote;
  $("menu-main").disabled = !a.main;
  menu.hidden = false;
  const panel = menu.offsetParent || document.body;
  const r = panel.getBoundingClientRect();
  menu.style.left = Math.max(0, Math.min(x - r.left, r.width - menu.offsetWidth)) + "px";
  menu.style.top = y - r.top + "px";
}

// Up and Down: the previous or next variation at the branch the move shown is on (among
// its siblings), or at the position shown (among the moves after it). True if it moved.
/**
 * @param {number} dir 1 or -1
 * @returns {boolean}
 */
export function stepVariation(dir) {
  const st = ui.state;
  if (!st || !st.nodes) return false;
  const nodes = nodeMap(st);
  const cur = nodes.get(st.node);
  if (!cur) return false;
  const parent = cur.parent === null ? null : nodes.get(cur.parent);
  let group;
  let i;
  if (parent && parent.children.length > 1) {
    group = parent.children;
    i = group.indexOf(cur.id);
  } else if (cur.children.length > 1) {
    group = cur.children;
    i = dir > 0 ? 0 : group.length;
  } else {
    return false;
  }
  const k = (i + dir + group.length) % group.length;
  send({ type: "goto", node: group[k] });
  return true;
}

// ---------- the move strip ----------

// The strip as last drawn (the line and the ply shown).
let stripSig = "";

/**
 * The current line as one row of moves under the board, at a phone's size (issue 69: the
 * move list is far below the board there, so the moves are worked beside it, as on
 * lichess's phone layout). The move shown is marked and kept in sight; a tap goes to a move.
 */
export function renderStrip() {
  const st = ui.state;
  const strip = $("move-strip");
  const history = (st && st.history) || [];
  const sig = JSON.stringify([history.map((m) => m.pdn), st ? st.ply : 0]);
  if (sig === stripSig) return;
  stripSig = sig;
  strip.textContent = "";
  if (!st) return;
  /** @type {HTMLElement | null} */
  let shown = null;
  history.forEach((m, i) => {
    const ply = i + 1;
    const n = numberOf(ply);
    if (n.first || ply === 1) strip.appendChild(span("strip-no", n.no + (n.first ? "." : "...")));
    const b = document.createElement("button");
    b.type = "button";
    b.className = "strip-move" + (ply === st.ply ? " current" : "");
    b.dataset.ply = String(ply);
    b.textContent = m.pdn;
    strip.appendChild(b);
    if (ply === st.ply) shown = b;
  });
  // The move shown in sight, the strip scrolled sideways only (the page stays where it is).
  const b = /** @type {HTMLElement | null} */ (shown);
  strip.scrollLeft = b ? Math.max(0, b.offsetLeft - strip.clientWidth / 2 + b.offsetWidth / 2) : 0;
}

export function wireTree() {
  $("move-strip").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest("[data-ply]"));
    if (b) send({ type: "goto", ply: Number(b.dataset.ply) });
  });
  const box = $("moves");
  box.addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const m = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest("[data-node]"));
    if (m) send({ type: "goto", node: Number(m.dataset.node) });
  });
  box.addEventListener("contextmenu", (/** @type {MouseEvent} */ e) => {
    const m = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest("[data-node]"));
    if (!m) return;
    e.preventDefault();
    openMenu(Number(m.dataset.node), e.clientX, e.clientY);
  });
  const menuAct = (/** @type {"promote" | "main" | "del"} */ kind) => {
    const id = Number($("tree-menu").dataset.node);
    closeMenu();
    const a = actionsFor(id);
    act(a[kind], a.onMain);
  };
  $("menu-promote").addEventListener("click", () => menuAct("promote"));
  $("menu-main").addEventListener("click", () => menuAct("main"));
  $("menu-delete").addEventListener("click", () => menuAct("del"));
  document.addEventListener("click", (e) => {
    if (!$("tree-menu").hidden && !(/** @type {Element} */ (e.target).closest("#tree-menu"))) closeMenu();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") closeMenu();
  });
  const toolAct = (/** @type {"promote" | "main" | "del"} */ kind) => {
    const st = ui.state;
    if (!st) return;
    const a = actionsFor(st.node);
    act(a[kind], a.onMain);
  };
  $("var-promote").addEventListener("click", () => toolAct("promote"));
  $("var-main").addEventListener("click", () => toolAct("main"));
  $("var-delete").addEventListener("click", () => toolAct("del"));
}
