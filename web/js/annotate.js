// Annotating on the board (docs/BOARD.md `annotate`, `tags`, `add_line`): the comment and
// mark of the move shown, edited under the move list; the game's tags, shown as a line above
// the move list and edited in fields; and lines added to the tree as variations (an engine
// line, the review's best line, a line clicked up to one of its moves). The server keeps
// all of it in the game and in its PDN; this module only asks and shows.

import { ui, $, update } from "./state.js";
import { send } from "./socket.js";
import { nodeMap } from "./tree.js";

/** The six marks, in the order their buttons stand. */
export const MARK_LIST = ["!", "?", "!!", "??", "!?", "?!"];

/** The tags the page edits (PDN's Seven Tag Roster), in their order. */
export const TAG_NAMES = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/**
 * Add moves after a node of the tree as a variation (following the moves already there).
 * The position shown stays where it is.
 * @param {number} node the node the line starts after
 * @param {string[]} moves the moves, Hub or PDN notation
 * @returns {void}
 */
export function addLine(node, moves) {
  if (!moves || !moves.length) return;
  send({ type: "add_line", node, moves });
}

/**
 * The tags as one line: "White vs Black, Event, Site, Round, Date" as far as they are known
 * (PDN's "?" is unknown).
 * @param {Object<string, string>} tags the state's tags
 * @returns {string}
 */
export function tagsLine(tags) {
  const known = (/** @type {string} */ k) => (tags && tags[k] && tags[k] !== "?" ? tags[k] : "");
  const players = known("White") || known("Black") ? (known("White") || "?") + " vs " + (known("Black") || "?") : "";
  const round = known("Round") ? "round " + known("Round") : "";
  return [players, known("Event"), known("Site"), round, known("Date")].filter((s) => s).join(", ") || "no tags";
}

/**
 * The node shown, as the state lists it.
 * @returns {any} the node, or null
 */
function shownNode() {
  const st = ui.state;
  return st ? nodeMap(st).get(st.node) || null : null;
}

/**
 * Draw the tags line, the tags fields (while open) and the editor of the move shown.
 * @returns {void}
 */
export function renderAnnotate() {
  const st = ui.state;
  const ok = !!(ui.connected && st && !ui.setup);
  const a = ui.annotate;
  $("tags-text").textContent = st ? tagsLine(st.tags || {}) : "";
  $("tags-edit").disabled = !ok;
  $("tags-form").hidden = !a.tagsOpen;
  const node = shownNode();
  const editor = $("note-editor");
  editor.hidden = !node;
  if (!node) return;
  // The text box follows the move shown; what is typed stays until it is saved or another
  // move is shown.
  const box = /** @type {HTMLTextAreaElement} */ ($("note-text"));
  const comment = node.comment || "";
  if (a.node !== node.id || (box.value === a.comment && comment !== a.comment)) {
    box.value = comment;
    a.node = node.id;
    a.comment = comment;
  }
  const root = node.parent === null;
  $("note-title").textContent = root ? "Comment before the first move" : "Comment and mark for " + (node.pdn || "");
  document.querySelectorAll("#note-marks button").forEach((b) => {
    const btn = /** @type {HTMLButtonElement} */ (b);
    const on = node.mark === btn.dataset.mark;
    btn.classList.toggle("on", on);
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    btn.disabled = !ok || root;
  });
  $("note-save").disabled = !ok;
  $("note-clear").disabled = !ok || !comment;
}

/**
 * Fill the tags fields from the state's tags.
 * @returns {void}
 */
function fillTags() {
  const tags = (ui.state && ui.state.tags) || {};
  for (const k of TAG_NAMES) /** @type {HTMLInputElement} */ ($("tag-" + k)).value = tags[k] || "";
}

/**
 * The buttons and fields of this module.
 * @returns {void}
 */
export function wireAnnotate() {
  $("note-marks").addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const b = /** @type {HTMLElement} */ (e.target).closest("button");
    const node = shownNode();
    if (!b || !node) return;
    // The active mark clicked again clears it.
    send({ type: "annotate", node: node.id, nag: node.mark === b.dataset.mark ? null : b.dataset.mark });
  });
  $("note-save").addEventListener("click", () => {
    const node = shownNode();
    if (!node) return;
    const text = /** @type {HTMLTextAreaElement} */ ($("note-text")).value;
    // What the server keeps is the box's from now on (trimmed there).
    update((ui) => {
      ui.annotate.comment = text;
    });
    send({ type: "annotate", node: node.id, comment: text });
  });
  $("note-clear").addEventListener("click", () => {
    const node = shownNode();
    if (!node) return;
    /** @type {HTMLTextAreaElement} */ ($("note-text")).value = "";
    update((ui) => {
      ui.annotate.comment = "";
    });
    send({ type: "annotate", node: node.id, comment: "" });
  });
  $("tags-edit").addEventListener("click", () => {
    fillTags();
    update((ui) => {
      ui.annotate.tagsOpen = !ui.annotate.tagsOpen;
    });
  });
  $("tags-cancel").addEventListener("click", () => {
    update((ui) => {
      ui.annotate.tagsOpen = false;
    });
  });
  $("tags-form").addEventListener("submit", (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    /** @type {Object<string, string>} */
    const tags = {};
    for (const k of TAG_NAMES) tags[k] = /** @type {HTMLInputElement} */ ($("tag-" + k)).value.trim();
    // An empty Result is the game's own ("*" while it goes on): leave it out.
    if (!tags.Result) delete tags.Result;
    update((ui) => {
      ui.annotate.tagsOpen = false;
      // Tags set here are kept across a reload as a loaded game's are (js/store.js).
      ui.pdnLoaded = true;
    });
    send({ type: "tags", tags });
  });
}
