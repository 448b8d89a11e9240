// Puzzles and endgame practice (docs/BOARD.md, "Puzzles", "Endgame practice"): the panel
// that asks for a puzzle (of a theme, or a streak) or a practice, says what to find and how
// it went, shows the solution, opens the puzzle for analysis in a new tab, and goes back to
// the game kept.
//
// The player's Glicko-2 rating is kept per browser (localStorage `poolshark-puzzle-player`)
// and handed to the board at the first state (`puzzle_player`); each finished puzzle's state
// carries the new one, which is kept. A puzzle never replaces the game kept (js/store.js
// saves nothing while `state.puzzle` is set); the puzzle shown is kept per tab
// (sessionStorage `poolshark-puzzle`), so a reload brings the kept game back and then the
// same puzzle, from its start. A practice is kept and brought back alike.

import { ui, $, update } from "./state.js";
import { send } from "./socket.js";
import { pdnLink } from "./share.js";
import { showMessage } from "./messages.js";
import { tabId } from "./tabs.js";

const PLAYER = "poolshark-puzzle-player";
const SHOWN = "poolshark-puzzle";

// The themes the filter offers, as the board names them (docs/PUZZLES.md).
const THEMES = [
  ["shot", "shot"],
  ["breakthrough", "breakthrough to crown"],
  ["kingTrap", "king trap"],
  ["multiJump", "multi-jump"],
  ["turkishStrike", "Turkish strike"],
  ["endgameWin", "endgame win (tables)"],
  ["defensiveMove", "defence"],
  ["oneMove", "one move"],
  ["short", "two moves"],
  ["long", "three moves"],
  ["veryLong", "four moves or more"],
];

// The practices, as the board names them (crates/engine/src/puzzle/practice.rs; a test there
// checks that each id is here).
const PRACTICES = [
  ["king-stops-man", "A king stops a man"],
  ["two-men-against-one", "Two men against one"],
  ["two-kings-corner", "Two kings trap a king in the corner"],
  ["three-kings", "Three kings against one"],
  ["hold-the-long-road", "Hold the long diagonal"],
];

/** @returns {{rating: number, rd: number, vol: number} | null} the player kept */
function keptPlayer() {
  try {
    const v = JSON.parse(localStorage.getItem(PLAYER) || "null");
    if (v && [v.rating, v.rd, v.vol].every((x) => typeof x === "number" && isFinite(x))) return v;
  } catch (e) {
    // Storage off or damaged: a new player.
  }
  return null;
}

/** @returns {import("./types.js").Request | null} the puzzle or practice this tab showed (not a tab it was copied from) */
function keptShown() {
  try {
    const v = JSON.parse(sessionStorage.getItem(SHOWN) || "null");
    if (!v || typeof v.id !== "string" || v.tab !== tabId()) return null;
    // A puzzle finished before the reload is brought back without moving the rating again.
    return v.kind === "practice" ? { type: "practice", id: v.id } : v.done ? { type: "puzzle", id: v.id, rated: false } : { type: "puzzle", id: v.id };
  } catch (e) {
    return null;
  }
}

/**
 * @param {string} key
 * @param {any} value null removes it
 * @param {Storage} store
 */
function keep(key, value, store) {
  try {
    if (value === null) store.removeItem(key);
    else store.setItem(key, JSON.stringify(value));
  } catch (e) {
    // Storage off: the rating lasts as long as the board.
  }
}

/**
 * A state (inside `update`, js/main.js): the player handed to the board at the first one,
 * the puzzle this tab showed asked for again once the kept game is back, the board turned
 * to the solver, and the rating and the puzzle shown kept.
 * @param {import("./types.js").StateMsg | null} old
 * @param {import("./types.js").StateMsg} st
 */
export function puzzleOnState(old, st) {
  if (!ui.puzzle.greeted) {
    ui.puzzle.greeted = true;
    const p = keptPlayer();
    if (p) ui.puzzle.send.push({ type: "puzzle_player", rating: p.rating, rd: p.rd, vol: p.vol });
    // A link opened instead wins over the puzzle, as over the game kept.
    const id = keptShown();
    if (id && !ui.link) ui.puzzle.resume = id;
  }
  if (ui.puzzle.resume && !ui.keep.loading && !(ui.link && ui.link.pending) && ui.restored) {
    ui.puzzle.send.push(ui.puzzle.resume);
    ui.puzzle.resume = null;
  }
  const p = st.puzzle;
  const was = old && old.puzzle;
  if (p && (!was || was.id !== p.id)) {
    // The solver at the bottom (`flipped`: Black at the bottom).
    ui.flipped = st.side === "black";
    ui.puzzle.before = p.player_rating;
    ui.puzzle.showSolution = false;
  }
  const pr = st.practice;
  const wasPr = old && old.practice;
  if (pr && (!wasPr || wasPr.id !== pr.id)) ui.flipped = st.side === "black";
  if (p) {
    keep(SHOWN, { kind: "puzzle", id: p.id, tab: tabId(), done: p.result !== "playing" }, sessionStorage);
    if (p.result !== "playing") keep(PLAYER, { rating: p.player_rating, rd: p.player_rd, vol: p.player_vol }, localStorage);
  } else if (pr) keep(SHOWN, { kind: "practice", id: pr.id, tab: tabId() }, sessionStorage);
  else if (was || wasPr) keep(SHOWN, null, sessionStorage);
}

/** Send what a state asked for (after the update that took it). */
export function puzzleSend() {
  const out = ui.puzzle.send.splice(0);
  for (const m of out) send(m, true);
}

/** A theme's words on the page (its name where the page has none). */
function themeLabel(/** @type {string} */ name) {
  const t = THEMES.find(([n]) => n === name);
  return t ? t[1] : name;
}

/** The hub moves of a solution as the page writes them. */
function solutionText(/** @type {string[]} */ moves) {
  return moves.join(" ");
}

/** The panel, drawn from `ui` (js/render.js). */
export function renderPuzzle() {
  const st = ui.state;
  const p = st && st.puzzle;
  const kept = keptPlayer();
  const rating = p ? p.player_rating : kept ? Math.round(kept.rating) : 1500;
  $("puzzle-player").textContent = `your rating ${rating}` + (p && p.streak !== null ? ` · streak ${p.streak}` : "");
  const pr = st && st.practice;
  $("puzzle-info").hidden = !p;
  $("practice-info").hidden = !pr;
  const ok = ui.connected && !!st;
  for (const id of ["puzzle-next", "puzzle-streak", "practice-start"]) $(id).disabled = !ok;
  if (pr && st) renderPractice(pr, st);
  if (!p || !st) return;
  $("puzzle-task").textContent =
    p.result === "playing"
      ? `${st.side === "white" ? "White" : "Black"} to move: ${p.goal === "win" ? "find the winning move" : "find the one move that saves the game"}`
      : p.result === "solved"
        ? "Solved!"
        : "Not the move: the puzzle is failed.";
  $("puzzle-task").dataset.result = p.result;
  const delta = p.player_rating - (ui.puzzle.before === null ? p.player_rating : ui.puzzle.before);
  const change = p.result === "playing" || p.streak !== null ? "" : delta === 0 ? " (rating unchanged: played before)" : ` (${delta > 0 ? "+" : "−"}${Math.abs(delta)})`;
  $("puzzle-result").textContent =
    `Puzzle ${p.id}, rated ${p.rating}` +
    (p.result === "playing" ? "" : change) +
    (p.result !== "playing" ? " · " + p.themes.map(themeLabel).join(", ") : "");
  $("puzzle-show").hidden = p.solution === null;
  $("puzzle-show").textContent = ui.puzzle.showSolution ? "hide the solution" : "show the solution";
  $("puzzle-solution").hidden = !(ui.puzzle.showSolution && p.solution);
  $("puzzle-solution").textContent = p.solution ? "Solution: " + solutionText(p.solution) : "";
  $("puzzle-next").textContent = p.streak !== null && p.result === "solved" ? "next in the streak" : "next puzzle";
}

/**
 * The practice on the board.
 * @param {import("./types.js").PracticeState} pr
 * @param {import("./types.js").StateMsg} st
 */
function renderPractice(pr, st) {
  const c = st.counts;
  // In the status line's units (js/status.js): the 40-move count in plies, the 13-move count
  // in the lone king's moves (`thirteen` is twice them).
  const counts = c
    ? ` · 40-move count ${c.forty}/${c.forty_limit} plies` +
      (c.thirteen !== null ? ` · 13-move count ${Math.floor(c.thirteen / 2)}/${Math.floor(c.thirteen_limit / 2)} moves of the lone king` : "")
    : "";
  $("practice-task").textContent =
    pr.result === "playing"
      ? `${pr.name}: ${pr.goal === "win" ? "win against the tables' defence" : `hold the draw for ${pr.moves_to_hold} more moves`}`
      : pr.result === "solved"
        ? `${pr.name}: done!`
        : `${pr.name}: ${pr.goal === "win" ? "the win is gone" : "the draw is lost"}. Try again.`;
  $("practice-task").dataset.result = pr.result;
  $("practice-teaches").textContent = pr.teaches + counts;
}

/** The panel's controls. */
export function wirePuzzle() {
  const theme = $("puzzle-theme");
  for (const [value, label] of THEMES) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    theme.appendChild(o);
  }
  $("puzzle-next").addEventListener("click", () => {
    /** @type {import("./types.js").Request} */
    const req = { type: "puzzle" };
    if (theme.value) req.theme = theme.value;
    send(req);
  });
  $("puzzle-streak").addEventListener("click", () => send({ type: "puzzle", streak: true }));
  const practice = $("practice-id");
  for (const [value, label] of PRACTICES) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    practice.appendChild(o);
  }
  $("practice-start").addEventListener("click", () => send({ type: "practice", id: practice.value }));
  $("practice-leave").addEventListener("click", () => {
    keep(SHOWN, null, sessionStorage);
    location.reload();
  });
  $("puzzle-show").addEventListener("click", () =>
    update((ui) => {
      ui.puzzle.showSolution = !ui.puzzle.showSolution;
    })
  );
  // The puzzle in a study board of its own: a new tab opened on a link to its game.
  $("puzzle-analyse").addEventListener("click", () => {
    const tab = window.open("about:blank", "_blank");
    update((ui) => {
      ui.puzzle.analyse = tab;
      ui.pdnFor.push("analyse");
    });
    send({ type: "save_pdn" });
  });
  // Back to the game kept: the tab forgets its puzzle and loads again, as a reload does.
  $("puzzle-leave").addEventListener("click", () => {
    keep(SHOWN, null, sessionStorage);
    location.reload();
  });
}

/**
 * The PDN asked for by "analyse in a new tab": the tab opened on its link.
 * @param {string} pdn
 */
export function onAnalysePdn(pdn) {
  const tab = ui.puzzle.analyse;
  update((ui) => {
    ui.puzzle.analyse = null;
  });
  pdnLink(pdn).then(
    (link) => {
      if (tab && !tab.closed) tab.location.href = link;
      else window.open(link, "_blank");
    },
    (e) => showMessage("error", "the puzzle could not be opened for analysis: " + e.message)
  );
}
