// The poolshark board page, its entry: the server's messages to the modules that show
// them, the game's buttons and keys, and the settings (players, strength, analysis lines).
// The server owns the game and checks every request; this page never decides what is
// legal, it only shows the `legal` list it was sent.
//
// Modules, each importing only those below it: state (the shared `ui`), messages, socket,
// clock and sound, draw (the board), status, tree (the move list), annotate (comments, marks,
// tags, lines into the tree), review, teach, learn, analysis, explorer (the opening explorer), play (clicks and the capture
// chooser), render (all of it), derive (what follows from a change, before the render), keys,
// setup, study (the chapters), pdn, tabs (which kept game is this tab's), store (kept across a reload), share, puzzle (copying and links), and this one. Every change to `ui` goes through `update` (js/state.js), which draws
// the page once afterwards; nothing here draws a part of it by hand.

import { ui, $, legalFrom, modeOf, sideAt, update } from "./state.js";
import { connect, send, onHello } from "./socket.js";
import { showMessage, clearMessages, dropMessages } from "./messages.js";
import { onClockState, chosenClock, wireClock } from "./clock.js";
import { playMoveSound, wireSound } from "./sound.js";
import { startAnim, stopAnim } from "./draw.js";
import { wireTree } from "./tree.js";
import { wireAnnotate } from "./annotate.js";
import { onReviewPly, onReviewDone, onReviewRefused, reviewOnState, wireReview } from "./review.js";
import { onRetryResult, wireTeach } from "./teach.js";
import { learnOnResult, wireLearn } from "./learn.js";
import { onInfo, analyzeRequest, closePv, wireAnalysis } from "./analysis.js";
import "./render.js"; // registers the page's one render with `update`
import "./derive.js"; // registers the state derived before each render
import { onSquareClick, closeChooser, wireChooser } from "./play.js";
import { placeSetupPiece, wireSetup } from "./setup.js";
import { onGames, onPdn, wirePdn, pdnLoadRefused, pdnOnState } from "./pdn.js";
import { save, restore, keepNotes, onQuietPdn, asideUnreadable, keptOnState, keptRefused, wireKept, leaveTraining } from "./store.js";
import { claimed } from "./tabs.js";
import { puzzleOnState, puzzleSend, wirePuzzle, onAnalysePdn } from "./puzzle.js";
import { openLink, linkRefused, linkOnState, onSharePdn, wireShare } from "./share.js";
import { wireKeys } from "./keys.js";
import { wireStudy } from "./study.js";
import { onExplorer, explorerOnState, wireExplorer } from "./explorer.js";

// How the board's refusal of a request while a timed game's clocks run begins.
const TIMED_REFUSAL = "a timed game is on";

/** @param {import("./types.js").ServerMsg} msg a message of the board's */
function onMessage(msg) {
  switch (msg.type) {
    case "hello":
      onHello(msg);
      break;
    case "state":
      onState(msg);
      break;
    case "info":
      onInfo(msg);
      break;
    case "review_ply":
      onReviewPly(msg);
      break;
    case "review_done":
      onReviewDone(msg);
      break;
    case "retry_result":
      onRetryResult(msg);
      learnOnResult(msg);
      break;
    case "games":
      onGames(msg);
      break;
    case "explorer":
      onExplorer(msg);
      break;
    case "pdn": {
      if (msg.quiet) {
        onQuietPdn(msg.pdn || "");
        break;
      }
      // The server answers in order: the oldest `save_pdn` not yet answered asked for it
      // (the quiet ones, js/store.js, say so themselves).
      let purpose;
      update((ui) => {
        purpose = ui.pdnFor.shift();
      });
      if (purpose === "copy" || purpose === "link") onSharePdn(purpose, msg.pdn || "");
      else if (purpose === "analyse") onAnalysePdn(msg.pdn || "");
      else onPdn(msg.pdn || "");
      break;
    }
    case "error":
      update((ui) => {
        ui.restoring = false; // a saved game that did not load: the next move is played
        if (ui.setup) ui.setup.sent = false;
        if (ui.retry && ui.retry.pending) ui.retry.pending = null;
      });
      onReviewRefused();
      // The kept game's load and a link's say their refusals in words of their own.
      if (!keptRefused(msg.message || "error") && !linkRefused(msg.message || "error") && !pdnLoadRefused(msg.message || "error"))
        showMessage("error", msg.message || "error");
      break;
    case "pong":
      break;
    default:
      // A newer server may say more; nothing here depends on it.
      break;
  }
}

/** @param {import("./types.js").StateMsg} st */
function onState(st) {
  update(() => takeState(st));
  puzzleSend();
  pdnOnState(st);
  explorerOnState();
}

// What a new state changes in `ui` (inside `update`).
/** @param {import("./types.js").StateMsg} st */
function takeState(st) {
  const old = ui.state;
  ui.state = st;
  if (ui.flipped === null) ui.flipped = flipFor(modeOf(st), false);
  if (!ui.restored) {
    ui.restored = true;
    // A kept record that is no record is put aside first, whatever opens (js/store.js); a
    // share link opens instead of the game kept from the last visit (js/share.js).
    asideUnreadable();
    if (!openLink(st, true)) restore(st);
  } else {
    keptOnState();
    linkOnState();
    leaveTraining(old, st);
    save(st);
    keepNotes(st);
  }
  // A move is shown (a capture jump by jump, with its sound) when it is the one played from
  // the position shown last; not the saved game coming back after a reload (js/store.js),
  // whose `load_pdn` is the first request after the first state.
  const stepped = old && st.ply === old.ply + 1 && (!st.line || st.line[st.ply - 1] === old.node);
  const played = stepped && !ui.restoring && st.history[st.ply - 1];
  if (old) ui.restoring = false;
  if (played) startAnim(old, st);
  else if (!old || old.fen !== st.fen) stopAnim();
  if (played) playMoveSound(st.history[st.ply - 1].captured.length > 0);
  onClockState(st);
  // "a timed game is on" refused a request while the clocks ran: once they stop it is
  // no longer true, so it goes.
  if (!(st.clock && st.clock.running)) dropMessages(TIMED_REFUSAL);
  // How many states arrived: lets a test wait for the answer to its own request.
  const board = $("board");
  board.dataset.states = String(Number(board.dataset.states || 0) + 1);
  // The placed position was accepted; a rejected one leaves setup open to fix it.
  if (ui.setup && ui.setup.sent) ui.setup = null;
  if (!old || old.fen !== st.fen || old.ply !== st.ply) {
    ui.selected = null;
    closeChooser();
    // The last search was of another position; analysis restarts in the new one.
    ui.info = null;
    // A list's move under the pointer was of the position before.
    ui.hoverArrow = null;
    ui.lines = [];
    closePv();
  }
  reviewOnState(st);
  if (ui.selected !== null && !legalFrom(ui.selected).length) {
    ui.selected = null;
  }
  puzzleOnState(old, st);
}

// The transport closed (js/socket.js set `ui.connected` and `ui.closed`): draw it.
function onClose() {
  update();
}

// ---------- settings: players and strength ----------

// Whether Black sits at the bottom for these players: whoever plays alone does.
/**
 * @param {string} mode
 * @param {boolean | null} current
 */
function flipFor(mode, current) {
  if (mode === "black") return true;
  if (mode === "white" || mode === "human") return false;
  return current;
}

/** @type {Record<string, {black: "human" | "engine", white: "human" | "engine"}>} */
const PLAYERS = {
  black: { black: "human", white: "engine" },
  white: { black: "engine", white: "human" },
  human: { black: "human", white: "human" },
  engine: { black: "engine", white: "engine" },
};

// The level typed in the boxes as a `level` request, or null (with a message) if bad.
/** @returns {{type: "level", depth?: number, movetime?: number, level?: number} | null} */
function levelRequest() {
  const v = Number($("level-value").value);
  if (!isFinite(v) || v <= 0) {
    showMessage("error", "strength: give a positive number");
    return null;
  }
  return $("level-kind").value === "depth" ? { type: "level", depth: Math.round(v) } : { type: "level", movetime: v };
}

// The playing level chosen in its menu: 0 for full strength, else 1-10 (docs/LEVELS.md).
function chosenPlayLevel() {
  return Number($("play-level").value) || 0;
}

// Send the typed strength and the chosen playing level if they are not those in force;
// false if the strength is bad.
function sendTypedLevel() {
  const req = levelRequest();
  if (!req) return false;
  const l = (ui.state && ui.state.level) || {};
  const limitChanged = req.depth !== undefined ? l.depth !== req.depth : l.movetime !== req.movetime;
  const level = chosenPlayLevel();
  if (limitChanged || (l.level || 0) !== level) send(Object.assign(req, { level }));
  return true;
}

// The ply "take back" goes to: against the engine, the player's last turn before this
// position (two plies, or more after a set-up); else one ply.
/** @param {import("./types.js").StateMsg} st */
function takeBackPly(st) {
  const human = (/** @type {"black" | "white"} */ side) => st[side] === "human";
  const one = human("black") !== human("white");
  if (one) for (let k = st.ply - 1; k >= 0; k--) if (human(sideAt(st, k))) return k;
  return st.ply - 1;
}

// ---------- wiring ----------

function wireGame() {
  $("board").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const g = /** @type {Element} */ (e.target).closest("[data-square]");
    if (!g) return;
    const sq = Number(g.getAttribute("data-square"));
    if (ui.setup) placeSetupPiece(sq);
    else onSquareClick(sq);
  });
  $("flip").addEventListener("click", () => {
    update((ui) => {
      ui.flipped = !ui.flipped;
    });
    if (ui.state) save(ui.state);
  });
  $("undo").addEventListener("click", () => {
    const st = ui.state;
    if (!st) return;
    const k = takeBackPly(st);
    if (k === st.ply - 1) send({ type: "undo" });
    else send({ type: "goto", ply: k });
  });
  $("redo").addEventListener("click", () => send({ type: "redo" }));
  $("start").addEventListener("click", () => send({ type: "goto", ply: 0 }));
  $("end").addEventListener("click", () => {
    if (ui.state) send({ type: "goto", ply: ui.state.history.length });
  });
  $("engine-move").addEventListener("click", () => send({ type: "engine_move" }));
  $("stop").addEventListener("click", () => send({ type: "stop" }));
}

function wireSettings() {
  $("new-game").addEventListener("click", () => {
    const mode = $("mode").value;
    const clock = chosenClock((m) => showMessage("error", m));
    if (clock === undefined) return;
    // A strength typed but not set is meant for this game.
    if (!sendTypedLevel()) return;
    update((ui) => {
      ui.flipped = flipFor(mode, ui.flipped);
      ui.setup = null;
      ui.pdnLoaded = false;
    });
    clearMessages();
    send(clock ? { type: "new", ...PLAYERS[mode], clock } : { type: "new", ...PLAYERS[mode] });
  });
  $("play-here").addEventListener("click", () => {
    const mode = $("mode").value;
    if (!sendTypedLevel()) return;
    update((ui) => {
      ui.flipped = flipFor(mode, ui.flipped);
      ui.setup = null;
    });
    clearMessages();
    send({ type: "players", ...PLAYERS[mode] });
  });
  $("level-kind").addEventListener("change", () => {
    $("level-value").value = $("level-kind").value === "depth" ? 8 : 1;
  });
  const sendLevel = () => {
    const req = levelRequest();
    if (req) send(Object.assign(req, { level: chosenPlayLevel() }));
  };
  $("level-set").addEventListener("click", sendLevel);
  // A playing level applies at once; the seconds or depth in force stay.
  $("play-level").addEventListener("change", () => send({ type: "level", level: chosenPlayLevel() }));
  $("level-value").addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "Enter") sendLevel();
  });
  $("multipv").addEventListener("change", () => {
    update((ui) => {
      ui.multipv = Number($("multipv").value) || 1;
      ui.lines = ui.info ? [ui.info] : [];
    });
    if (ui.state) save(ui.state);
    if (ui.state && ui.state.analyzing) send(analyzeRequest(true));
  });
}

wireGame();
wireSettings();
wireClock();
wireSound();
wireKeys();
wireChooser();
wireSetup();
wireAnalysis();
wireReview();
wireTeach();
wireLearn();
wireTree();
wireAnnotate();
wirePdn();
wireStudy();
wireExplorer();
wireKept();
wirePuzzle();
update();
wireShare();
// The board is reached once this tab knows which kept game is its own (js/tabs.js).
claimed.then(() => connect(onMessage, onClose));
