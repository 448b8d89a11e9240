// The board's keys, all in one place (docs/BOARD.md, "Keys"): Esc closes the chooser, the
// line shown and the list of keys; Left, Right, Home and End step along the line shown, or
// else the current line of the game; Up and Down choose among the variations at a branch;
// `f` flips the board; space asks the engine for a move, or stops whatever it is doing (its
// move, analysis, a review); `?` shows or hides the list of keys. None of them acts while
// the user types in a box. The keys press the page's own buttons, so a key does only what
// its button would, when its button could.

import { ui, $, update } from "./state.js";
import { stepPv } from "./analysis.js";
import { stepVariation } from "./tree.js";

/**
 * Show or hide the list of keys.
 * @param {boolean} shown
 */
function showKeys(shown) {
  update((ui) => {
    ui.keysShown = shown;
  });
}

/** The list of keys, shown or hidden as `ui.keysShown` says (js/render.js). */
export function renderKeys() {
  $("keys-help").hidden = !ui.keysShown;
  $("keys-button").setAttribute("aria-expanded", String(ui.keysShown));
}

/**
 * Press button `id` if it can be pressed; true when it was.
 * @param {string} id
 * @returns {boolean}
 */
function press(id) {
  const b = /** @type {HTMLButtonElement} */ ($(id));
  if (b.disabled || b.hidden) return false;
  b.click();
  return true;
}

/**
 * Space: stop the engine where it runs (its move: "move now"; analysis; a review), else ask
 * it for a move.
 * @returns {boolean} whether it did something
 */
function engineKey() {
  return press("stop") || press("engine-move");
}

/**
 * A key pressed: what it does, if anything.
 * @param {KeyboardEvent} e
 */
function onKey(e) {
  const target = /** @type {Element} */ (e.target);
  if (e.key === "Escape") {
    if (ui.keysShown) {
      e.preventDefault();
      showKeys(false);
    } else if (ui.choice || ui.pv) {
      // Their own buttons close them (play.js, analysis.js).
      e.preventDefault();
      if (ui.choice) $("chooser-cancel").click();
      if (ui.pv) $("pv-close").click();
    }
    return;
  }
  if (target.closest("input, textarea, select") || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === "?") {
    e.preventDefault();
    showKeys(!ui.keysShown);
    return;
  }
  if (e.key === "f" || e.key === "F") {
    e.preventDefault();
    press("flip");
    return;
  }
  if (e.key === " ") {
    // Space on a button reached with Tab presses that button, as everywhere; a button last
    // clicked with the mouse keeps the focus but not the key. (`:focus-visible` cannot tell
    // them apart here: a key pressed makes the focus visible before its event is handled.)
    if (target.closest("button") && !pointerFocus) return;
    e.preventDefault();
    if (!ui.setup) engineKey();
    return;
  }
  if ((e.key === "ArrowUp" || e.key === "ArrowDown") && !ui.setup) {
    if (stepVariation(e.key === "ArrowDown" ? 1 : -1)) e.preventDefault();
    return;
  }
  const id = { ArrowLeft: "undo", ArrowRight: "redo", Home: "start", End: "end" }[e.key];
  if (id && ui.pv) {
    e.preventDefault();
    stepPv(e.key);
  } else if (id && !(/** @type {HTMLButtonElement} */ ($(id)).disabled)) {
    e.preventDefault();
    $(id).click();
  }
}

// Whether the focus was last moved by the pointer (a click), not by Tab: an input modality,
// not the page's state, so it is kept here.
let pointerFocus = true;

/** Listen for the keys, and for the list's buttons. */
export function wireKeys() {
  document.addEventListener("pointerdown", () => (pointerFocus = true), true);
  document.addEventListener(
    "keydown",
    (e) => {
      if (e.key === "Tab") pointerFocus = false;
    },
    true
  );
  document.addEventListener("keydown", onKey);
  $("keys-button").addEventListener("click", () => showKeys(!ui.keysShown));
  $("keys-close").addEventListener("click", () => showKeys(false));
}
