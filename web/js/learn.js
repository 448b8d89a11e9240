// Learn from your mistakes (issue 61, Build 4; docs/BOARD.md): after a review, one side's
// marked moves in turn. At each, the position before it and "find a better move", judged by
// the server as teach.js's retry judges (the best, or a move within the review's margin of
// it, counts); after a wrong try a hint (the piece to move, ringed on the board), after a
// second the answer; "next" goes on, and the end gives a tally. Each question is a retry
// (`ui.retry` with `learn` set), so the teaching panel asks and judges it; this module keeps
// the run (`ui.learn`) and its compact panel.

import { ui, $, update, SIDE, MARKS, mainSig, modeOf, sideAt, clocksLive } from "./state.js";
import { send } from "./socket.js";
import { clearMessages, showMessage } from "./messages.js";
import { reviewed } from "./teach.js";

/**
 * The main line's plies that the review marked for `side`, in order.
 * @param {any} st the server's state
 * @param {string} side "black" or "white"
 * @returns {number[]}
 */
export function markedPlies(st, side) {
  const plies = [];
  for (let k = 1; k < st.line.length; k++) {
    const p = reviewed(k);
    if (p && MARKS[p.mark] && sideAt(st, k - 1) === side) plies.push(k);
  }
  return plies;
}

/**
 * The side to learn for when none is chosen: the person's when playing the engine, else
 * the side with more marked moves (Black on a tie).
 * @param {any} st the server's state
 * @returns {string}
 */
function defaultSide(st) {
  const mode = modeOf(st);
  if (mode === "black" || mode === "white") return mode;
  return markedPlies(st, "white").length > markedPlies(st, "black").length ? "white" : "black";
}

/**
 * Ask question `i` of the run: the position before its marked move, as a retry.
 * @param {number} i
 */
function ask(i) {
  const l = ui.learn;
  if (!l) return;
  const ply = l.plies[i];
  update((u) => {
    l.i = i;
    l.tries = 0;
    l.hint = false;
    l.settled = null;
    u.hint = null;
    u.retry = { ply, armed: false, pending: null, result: null, answer: false, learn: true };
  });
  clearMessages();
  send({ type: "goto", ply: ply - 1 });
}

function start() {
  const st = ui.state;
  if (!st) return;
  const side = $("learn-side").value || defaultSide(st);
  const plies = markedPlies(st, side);
  if (!plies.length) {
    showMessage("error", "no marked moves of " + SIDE[side] + "'s to learn from: review the game first");
    return;
  }
  update((u) => {
    u.learn = { side, plies, sig: mainSig(st), i: 0, tries: 0, hint: false, settled: null, outcome: {} };
  });
  ask(0);
}

function stop() {
  clearMessages();
  update((u) => {
    u.learn = null;
    u.hint = null;
    if (u.retry && u.retry.learn) u.retry = null;
  });
}

/**
 * A retry's verdict (`retry_result`), for the question asked: a right move counts (with a
 * hint if one was given); a wrong one gives the hint, then the answer.
 * @param {any} res the `retry_result` message
 */
export function learnOnResult(res) {
  const l = ui.learn;
  const t = ui.retry;
  if (!l || !t || !t.learn || res.ply !== l.plies[l.i] || l.settled) return;
  update((u) => {
    const run = l;
    run.tries += 1;
    // Found after the answer was shown: not found.
    if (u.retry && u.retry.answer) {
      run.settled = "missed";
      u.hint = null;
    } else if (res.good) {
      run.settled = run.hint ? "hint" : "found";
    } else if (!run.hint) {
      run.hint = true;
      const p = reviewed(res.ply);
      u.hint = p && p.best_path && p.best_path.length ? p.best_path[0] : null;
    } else {
      run.settled = "missed";
      u.hint = null;
      if (u.retry) u.retry.answer = true;
    }
    if (run.settled) run.outcome[res.ply] = run.settled;
  });
}

/**
 * The tally of a finished run: "2 of 3 found, 1 with a hint".
 * @param {any} l the run (`ui.learn`)
 * @returns {string}
 */
function tally(l) {
  const outcomes = Object.values(l.outcome);
  const found = outcomes.filter((o) => o !== "missed").length;
  const hinted = outcomes.filter((o) => o === "hint").length;
  return found + " of " + l.plies.length + " found" + (hinted ? ", " + hinted + " with a hint" : "") + ".";
}

// The run ends when the main line changes, or when the person walked away from a question
// (derived after each batch of changes, js/derive.js, once teach.js has settled the retry).
export function deriveLearn() {
  const st = ui.state;
  const l = ui.learn;
  if (l && st && (l.sig !== mainSig(st) || (!l.done && !ui.retry))) {
    ui.learn = null;
    ui.hint = null;
  }
}

// Draw the start row (after a review with marked moves) and the run's panel.
export function renderLearn() {
  const st = ui.state;
  const running = !!(ui.review && ui.review.running);
  const run = ui.learn;
  const any = !!st && (markedPlies(st, "black").length > 0 || markedPlies(st, "white").length > 0);
  $("learn-row").hidden = !any || !!run;
  $("learn-start").disabled = running || !ui.connected || (!!st && clocksLive(st));
  if (any && !run && !$("learn-side").dataset.chosen) $("learn-side").value = defaultSide(st);
  const box = $("learn");
  box.hidden = !run;
  if (!run) return;
  const text = $("learn-text");
  const next = $("learn-next");
  if (run.done) {
    text.textContent = "Learn from your mistakes (" + SIDE[run.side] + "): " + tally(run);
    next.hidden = true;
    $("learn-stop").textContent = "close";
    return;
  }
  $("learn-stop").textContent = "stop";
  const k = run.plies[run.i];
  const head = "Learn from your mistakes (" + SIDE[run.side] + "), " + (run.i + 1) + " of " + run.plies.length + ": ";
  let say = "find a better move.";
  if (run.settled === "found") say = "found!";
  else if (run.settled === "hint") say = "found, with a hint.";
  else if (run.settled === "missed") say = "not found: the answer is on the board.";
  else if (run.hint) say = "not that one. Hint: the ringed piece moves.";
  text.textContent = head + say;
  text.dataset.ply = String(k);
  next.hidden = !run.settled;
  next.textContent = run.i + 1 < run.plies.length ? "next ▶" : "finish";
}

function next() {
  const l = ui.learn;
  if (!l || !l.settled) return;
  if (l.i + 1 < l.plies.length) {
    ask(l.i + 1);
    return;
  }
  const k = l.plies[l.i];
  clearMessages();
  update((u) => {
    l.done = true;
    u.hint = null;
    u.retry = null;
  });
  send({ type: "goto", ply: k });
}

export function wireLearn() {
  $("learn-start").addEventListener("click", start);
  $("learn-stop").addEventListener("click", stop);
  $("learn-next").addEventListener("click", next);
  $("learn-side").addEventListener("change", () => {
    $("learn-side").dataset.chosen = "1";
  });
}
