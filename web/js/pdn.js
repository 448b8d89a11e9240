// PDN in and out: loading a pasted text or a file (and choosing among its games), and
// saving the game the server writes.

import { ui, $, update } from "./state.js";
import { send, byteLength } from "./socket.js";
import { showMessage, clearMessages, dropMessages } from "./messages.js";
import { MAX_CHAPTERS } from "./study.js";

// A PDN of several games: offer them all, and say which one is shown.
/** @param {import("./types.js").GamesMsg} msg */
export function onGames(msg) {
  const sel = $("games");
  sel.textContent = "";
  for (const g of msg.games || []) {
    const t = g.tags || {};
    const o = document.createElement("option");
    o.value = String(g.number);
    const names = [t.Black, t.White].filter(Boolean).join(" – ");
    o.textContent =
      g.number + ". " + [names, t.Event, t.Date, t.Result].filter(Boolean).join(", ") + " (" + g.plies + " plies)";
    sel.appendChild(o);
  }
  // The server lists the first games only (and the one shown): say how many more there are.
  const listed = (msg.games || []).length;
  const count = msg.count || listed;
  if (count > listed) {
    const o = document.createElement("option");
    o.disabled = true;
    o.textContent = "… " + (count - listed) + " more games not listed";
    sel.appendChild(o);
  }
  sel.value = String(msg.loaded);
  $("games-row").hidden = false;
  // A study holds at most 64 chapters (js/study.js).
  $("games-study").hidden = count > MAX_CHAPTERS;
  $("games-study").textContent = `open all ${count} as a study`;
  $("games-note").textContent = "game " + msg.loaded + " of " + count + " loaded";
  showMessage("note", "the PDN holds " + count + " games: game " + msg.loaded + " is shown; choose another in the PDN panel");
}

/**
 * Whether the PDN box may take a saved game's text: it holds nothing of the user's that the
 * text would lose. It may when it is empty, holds what the page last wrote there, or holds
 * the one game last loaded from it; not when it holds a text of several games (saving one
 * of them would lose the others) or something typed since.
 * @returns {boolean}
 */
function boxFree() {
  const text = /** @type {HTMLTextAreaElement} */ ($("pdn-input")).value;
  if (!text.trim() || text === ui.pdnWritten) return true;
  return text === ui.pdnText && $("games-row").hidden;
}

// The server's PDN of the game: offered as a download, and shown in the box unless that
// would lose text there (`boxFree`).
/** @param {string} text */
export function onPdn(text) {
  const shown = boxFree();
  if (shown) {
    $("pdn-input").value = text;
    update((ui) => {
      ui.pdnWritten = text;
    });
  }
  download(text, "poolshark.pdn");
  savedAt = ui.state ? ui.state.node : null;
  showMessage(
    "note",
    shown
      ? "PDN saved (poolshark.pdn), and shown in the PDN box"
      : "PDN saved (poolshark.pdn); the PDN box keeps its text (the file's games, or what you typed), so nothing of it is lost"
  );
}

/**
 * Offer `text` as a file named `name` (a PDN, or a kept record that is none: js/store.js).
 * @param {string} text
 * @param {string} name
 */
export function download(text, name) {
  const blob = new Blob([text], { type: name.endsWith(".pdn") ? "application/x-chess-pdn" : "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/**
 * A size as a person reads it: "2.0 MB", "312 KB".
 * @param {number} bytes
 */
export function sizeText(bytes) {
  return bytes >= 1 << 20 ? (bytes / (1 << 20)).toFixed(1) + " MB" : Math.ceil(bytes / 1024) + " KB";
}

// Whether a PDN of `bytes` bytes is over what the board loads; if so, say so (`what` names
// it: "the PDN", a file's name) and that nothing changed.
/**
 * @param {string} what
 * @param {number} bytes
 * @returns {boolean}
 */
function tooLarge(what, bytes) {
  // The message holds the text and a few fields more.
  if (bytes + 64 <= ui.limits.load_pdn) return false;
  clearMessages();
  showMessage(
    "error",
    `${what} is ${sizeText(bytes)}: the board loads a PDN of at most ${sizeText(ui.limits.load_pdn)}, ` +
      "so nothing was loaded and the board is as it was (split the file, or load its games one at a time)",
  );
  return true;
}

// The person's last load from the box or a file, until the board answers it: a refusal
// that names a move which cannot be played is offered again as a load of the moves before it
// (`partial`), the state of which says where it stopped.
/** @type {{pdn: string, game?: number, study?: boolean} | null} */
let asked = null;

/**
 * @param {string} text
 * @param {number} [game]
 * @param {boolean} [study] every game of the text as a chapter
 */
function loadText(text, game, study = false) {
  if (tooLarge("the PDN", byteLength(text))) return;
  clearMessages();
  update((ui) => {
    ui.pdnText = text;
    ui.pdnLoaded = true;
  });
  if (game === undefined || study) $("games-row").hidden = true;
  /** @type {{pdn: string, game?: number, study?: boolean}} */
  const load = { pdn: text };
  if (game !== undefined) load.game = game;
  if (study) load.study = true;
  asked = load;
  send({ type: "load_pdn", ...load });
}

/**
 * An `error` from the board: true when it refuses the person's load for a move that cannot
 * be played (said here, with the offer to load the moves before it).
 * @param {string} message
 * @returns {boolean}
 */
export function pdnLoadRefused(message) {
  const load = asked;
  asked = null;
  const m = load && /: move \d+\.(?:\.\.)? '[^']*' \(ply (\d+)\)/.exec(message);
  if (!load || !m) return false;
  const before = Number(m[1]) - 1;
  const box = $("messages");
  const div = document.createElement("div");
  div.className = "msg error";
  div.textContent = message + " ";
  const b = document.createElement("button");
  b.type = "button";
  b.id = "pdn-partial";
  b.textContent = before === 0 ? "load its start" : `load the ${before} ${before === 1 ? "move" : "moves"} before it`;
  b.addEventListener("click", () => {
    clearMessages();
    send({ type: "load_pdn", ...load, partial: true });
  });
  div.appendChild(b);
  box.prepend(div);
  return true;
}

// The node shown when the PDN was saved: the note that says so goes once another is shown.
/** @type {number | null} */
let savedAt = null;

/**
 * A state: the board answered the load (`asked` done); one loaded with `partial` says where
 * it stopped, in the error's words. Another move shown drops the "PDN saved" note.
 * @param {import("./types.js").StateMsg} st
 */
export function pdnOnState(st) {
  asked = null;
  if (savedAt !== null && st.node !== savedAt) {
    savedAt = null;
    dropMessages("PDN saved");
  }
  if (st.partial) showMessage("note", `Loaded the moves before ply ${st.partial.ply}, the first that cannot be played: ${st.partial.message}`);
}

export function wirePdn() {
  $("pdn-load").addEventListener("click", () => {
    const text = $("pdn-input").value;
    if (!text.trim()) {
      showMessage("error", "paste a PDN game into the box first");
      return;
    }
    loadText(text);
  });
  $("pdn-file").addEventListener("change", () => {
    const f = $("pdn-file").files[0];
    if (!f) return;
    // Checked before reading: a file of any size is refused without being read.
    if (tooLarge(f.name, f.size)) {
      $("pdn-file").value = "";
      return;
    }
    f.text().then((/** @type {string} */ text) => {
      $("pdn-input").value = text;
      loadText(text);
      $("pdn-file").value = "";
    });
  });
  $("games").addEventListener("change", () => {
    if (!ui.pdnText) return;
    loadText(ui.pdnText, Number($("games").value));
  });
  $("games-study").addEventListener("click", () => {
    if (!ui.pdnText) return;
    loadText(ui.pdnText, Number($("games").value) || 1, true);
  });
  $("pdn-save").addEventListener("click", () => {
    update((ui) => {
      ui.pdnFor.push("save");
    });
    send({ type: "save_pdn" });
  });
  // A study's chapter shown, alone.
  $("pdn-save-chapter").addEventListener("click", () => {
    update((ui) => {
      ui.pdnFor.push("save");
    });
    send({ type: "save_pdn", chapter: true });
  });
}
