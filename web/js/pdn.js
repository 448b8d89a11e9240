// PDN in and out: loading a pasted text or a file (and choosing among its games), and
// saving the game the server writes.

import { ui, $, update } from "./state.js";
import { send } from "./socket.js";
import { showMessage, clearMessages } from "./messages.js";

// A PDN of several games: offer them all, and say which one is shown.
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
export function onPdn(text) {
  const shown = boxFree();
  if (shown) {
    $("pdn-input").value = text;
    update((ui) => {
      ui.pdnWritten = text;
    });
  }
  const blob = new Blob([text], { type: "application/x-chess-pdn" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "poolshark.pdn";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  showMessage(
    "note",
    shown
      ? "PDN saved (poolshark.pdn), and shown in the PDN box"
      : "PDN saved (poolshark.pdn); the PDN box keeps its text (the file's games, or what you typed), so nothing of it is lost"
  );
}

function loadText(text) {
  clearMessages();
  ui.pdnText = text;
  ui.pdnLoaded = true;
  $("games-row").hidden = true;
  send({ type: "load_pdn", pdn: text });
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
    f.text().then((text) => {
      $("pdn-input").value = text;
      loadText(text);
      $("pdn-file").value = "";
    });
  });
  $("games").addEventListener("change", () => {
    if (!ui.pdnText) return;
    clearMessages();
    send({ type: "load_pdn", pdn: ui.pdnText, game: Number($("games").value) });
  });
  $("pdn-save").addEventListener("click", () => {
    update((ui) => {
      ui.pdnFor.push("save");
    });
    send({ type: "save_pdn" });
  });
}
