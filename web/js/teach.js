// What a reviewed game teaches at a marked move: the best move as an arrow along its jumps,
// its line, the scores of the move played and of the best, and "find a better move": the
// position before the mistake on the board, the player's move judged by the server
// (docs/BOARD.md `retry`) as good as the best or not, and the answer on request.

import { ui, $, SIDE, MARKS, historySig, mainSig, scoreText, moveNumber, sideAt, update, clocksLive } from "./state.js";
import { send } from "./socket.js";
import { showMessage, clearMessages } from "./messages.js";
import { reviewBudget } from "./review.js";
import { addLine } from "./annotate.js";

// The review of ply k of the line shown, while it is on the main line: from the node's own
// `review` (docs/BOARD.md `TreeNode.review`, which a saved and loaded game keeps), else the
// running review's message not yet in a state. Shaped as a `review_ply` message.
/**
 * @param {number} k the ply (from 1) of the line shown
 * @returns {any} the review of its move as a `review_ply` message, or null
 */
export function reviewed(k) {
  const st = ui.state;
  if (!st || historySig(st) !== mainSig(st)) return null;
  const id = (st.line || [])[k];
  const node = k > 0 && id !== undefined ? nodesOf(st).get(id) : null;
  const rv = node && node.review;
  if (rv && rv.best_score !== undefined) {
    return {
      ply: k, node: node.id, move: node.pdn, mark: rv.mark, node_mark: node.mark, loss: rv.loss, score: node.eval,
      best: node.best, best_score: rv.best_score, best_path: rv.best_path || [], pv: rv.line || [],
    };
  }
  const r = ui.review;
  if (!r || r.sig !== historySig(st)) return null;
  return r.plies[k] || null;
}

// Each state's nodes by id, made once per state (a state is never changed).
const byId = new WeakMap();

/**
 * @param {any} st a state
 * @returns {Map<number, any>}
 */
function nodesOf(st) {
  let m = byId.get(st);
  if (!m) {
    m = new Map((st.nodes || []).map((/** @type {import("./types.js").TreeNode} */ n) => [n.id, n]));
    byId.set(st, m);
  }
  return m;
}

// The move number as the move list writes it before ply k's move ("5." or "5…").
/** @param {number} k */
function moveNo(k) {
  const n = moveNumber(k - 1);
  return n.no + (n.first ? "." : "…");
}

// Keep the retry in step with the position shown, and choose the arrow to draw: derived
// after each batch of changes, before the board is drawn (js/derive.js).
export function deriveTeach() {
  const st = ui.state;
  const t = ui.retry;
  if (t) {
    if (!st || !reviewed(t.ply)) ui.retry = null;
    else if (st.ply === t.ply - 1) t.armed = true;
    // Walked away from the position (once there, or before getting there).
    // (A question of learn.js's is asked from anywhere: it waits for its position.)
    else if (t.armed || (st.ply !== t.ply && !t.learn)) ui.retry = null;
  }
  ui.reviewArrow = null;
  if (!st) return;
  if (ui.retry) {
    const p = reviewed(ui.retry.ply);
    if (ui.retry.armed && ui.retry.answer) ui.reviewArrow = answerOf(p).best_path;
    return;
  }
  // The best move in place of a marked one is drawn on the position it was to be played
  // in, before the mistake: drawn after it, it started from a square the mistake had emptied,
  // or jumped a man already taken (issue 69, item 8). At the marked move the panel names it.
  const next = reviewed(st.ply + 1);
  if (next && next.mark && next.best_path) ui.reviewArrow = next.best_path;
}

// The best move to show as the answer: the retry's own search's if it judged a move, else
// the review's.
/**
 * @param {any} p the review of the move (`reviewed`)
 * @returns {any}
 */
function answerOf(p) {
  const res = ui.retry && ui.retry.result;
  return res && res.best_path ? res : p;
}

// The most moves of a best line shown (a search's line can run on far longer).
const LINE_PLIES = 12;

// A line of PDN moves from before ply k, numbered as the move list numbers them: the
// parts for `setText`, each move whole.
/**
 * @param {number} k
 * @param {string[]} moves
 * @returns {(string | [string])[]}
 */
function lineParts(k, moves) {
  /** @type {(string | [string])[]} */
  const parts = [];
  moves.slice(0, LINE_PLIES).forEach((m, i) => {
    const n = moveNumber(k - 1 + i);
    const no = n.first || i === 0 ? n.no + (n.first ? ". " : "… ") : "";
    if (i > 0) parts.push(" ");
    parts.push([no + m]);
  });
  if (moves.length > LINE_PLIES) parts.push(" …");
  return parts;
}

// Fill `box` with text, each move (`[move]`, a one-item list) kept whole on its line.
/**
 * @param {HTMLElement} box
 * @param {(string | [string])[]} parts
 */
function setText(box, parts) {
  box.textContent = "";
  for (const part of parts) {
    if (Array.isArray(part)) {
      const m = document.createElement("span");
      m.className = "mv";
      m.textContent = part[0];
      box.appendChild(m);
    } else box.appendChild(document.createTextNode(part));
  }
}

/**
 * @param {import("./types.js").StateMsg} st
 * @param {number} k
 * @param {any} p the review of the move (`reviewed`), or the answer (`answerOf`)
 */
function setLine(st, k, p) {
  const line = $("teach-line");
  line.textContent = "";
  if (!p || !p.pv || !p.pv.length) return;
  setText(line, lineParts(k, p.pv));
  const label = document.createElement("span");
  label.className = "label";
  label.textContent = "best line ";
  line.prepend(label);
}

export function renderTeach() {
  const st = ui.state;
  const box = $("teach");
  const t = ui.retry;
  const k = t ? t.ply : st ? st.ply : 0;
  const p = reviewed(k);
  const running = !!(ui.review && ui.review.running);
  box.hidden = !st || !p || (!t && !p.mark);
  if (!st || box.hidden) return;
  const mover = SIDE[sideAt(st, k - 1)];
  const played = p.move || (st.history[k - 1] ? st.history[k - 1].pdn : "");
  $("retry-start").hidden = !!t;
  const timed = clocksLive(st);
  $("retry-start").disabled = running || !ui.connected || timed;
  $("retry-start").title = running
    ? "wait for the review to end"
    : timed
      ? "not while a timed game's clocks run"
      : "go to the position before this move and try to find the best one";
  $("retry-back").hidden = !t;
  $("teach-add").hidden = !!t || !p.pv || !p.pv.length;
  $("retry-answer").hidden = !t || t.answer;
  const text = $("teach-text");
  const result = $("retry-text");
  result.textContent = "";
  result.className = "retry-text";
  if (!t) {
    setText(text, [
      [moveNo(k) + " " + played + p.mark], " (" + MARKS[p.mark] + ", " + mover + "): " + mover + " loses " +
        Number(p.loss).toFixed(2) + " men. After it: Black " + scoreText(p.score) + ". Best was ", [p.best],
      ": Black " + scoreText(p.best_score) + "." +
        (p.node_mark && p.node_mark !== p.mark ? " The game's own mark, " + p.node_mark + ", stays on the move." : ""),
    ]);
    setLine(st, k, p);
    return;
  }
  setText(text, ["Find a better move than ", [moveNo(k) + " " + played + p.mark], ": " + mover + " to move. Play it on the board."]);
  const res = t.result;
  if (t.pending) result.textContent = "judging " + t.pending + "…";
  else if (res) {
    result.classList.add(res.good ? "good" : "bad");
    result.textContent = verdict(res);
  }
  $("teach-line").textContent = "";
  if (t.answer) {
    const a = answerOf(p);
    const line = document.createElement("div");
    line.id = "retry-answer-text";
    line.textContent = "The answer: " + a.best + ": Black " + scoreText(a.best_score) + ".";
    result.appendChild(line);
    setLine(st, k, a);
  }
}

// What the server said of a move tried (`retry_result`), in words.
/** @param {import("./types.js").ReviewPlyMsg} res */
function verdict(res) {
  return res.good
    ? "✓ " + res.move + " is as good as the best: Black " + scoreText(res.score) + " after it."
    : "✗ " + res.move + " is not as good: it loses " + Number(res.loss).toFixed(2) + " men (Black " +
        scoreText(res.score) + " after it; the best move: Black " + scoreText(res.best_score) +
        "). Try again, or show the answer.";
}

// A move clicked on the board: in "find a better move", it is judged, not played. True
// when it was taken.
/**
 * @param {import("./types.js").Move} m
 * @returns {boolean}
 */
export function retryPlay(m) {
  const t = ui.retry;
  const st = ui.state;
  if (!t || !t.armed || !st || st.ply !== t.ply - 1) return false;
  const budget = reviewBudget(2);
  if (!budget) return true;
  clearMessages();
  update(() => {
    t.pending = m.pdn || m.hub;
    t.result = null;
  });
  send(/** @type {import("./types.js").Request} */ (Object.assign({ type: "retry", ply: t.ply, move: m.hub }, budget)));
  return true;
}

/** @param {import("./types.js").ReviewPlyMsg} msg */
export function onRetryResult(msg) {
  const t = ui.retry;
  if (!t || msg.ply !== t.ply) return;
  update(() => {
    t.pending = null;
    t.result = msg;
  });
  // Under the board too, where a phone shows it.
  showMessage(msg.good ? "note" : "wrong", verdict(msg));
}

export function wireTeach() {
  $("retry-start").addEventListener("click", () => {
    const st = ui.state;
    const p = st && reviewed(st.ply);
    if (!p || !p.mark) return;
    update((ui) => {
      ui.retry = { ply: st.ply, armed: false, pending: null, result: null, answer: false };
    });
    send({ type: "goto", ply: st.ply - 1 });
    // The move is to be found on the board: where the panel is below it (a phone, a narrow
    // window) the board comes back into view, whole.
    $("board").scrollIntoView({ block: "nearest" });
    clearMessages();
    showMessage("note", "Find a better move than " + (p.move || "") + p.mark + ": play it on the board.");
  });
  // The review's best line at the marked move, into the tree beside the move played.
  $("teach-add").addEventListener("click", () => {
    const st = ui.state;
    const p = st && reviewed(st.ply);
    if (p && p.pv && st.line && st.ply > 0) addLine(st.line[st.ply - 1], p.pv.slice());
  });
  $("retry-answer").addEventListener("click", () => {
    if (!ui.retry) return;
    update((ui) => {
      if (ui.retry) ui.retry.answer = true;
    });
  });
  $("retry-back").addEventListener("click", () => {
    if (!ui.retry) return;
    const k = ui.retry.ply;
    update((ui) => {
      ui.retry = null;
    });
    send({ type: "goto", ply: k });
  });
}
