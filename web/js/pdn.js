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

// The server's PDN of the game: offered as a download and shown in the box.
export function onPdn(text) {
  $("pdn-input").value = text;
  const blob = new Blob([text], { type: "application/x-chess-pdn" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "poolshark.pdn";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  showMessage("note", "PDN saved (poolshark.pdn), and shown in the PDN box");
}

function loadText(text) {
  clearMessages();
  update((ui) => {
    ui.pdnText = text;
    ui.pdnLoaded = true;
  });
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
  $("pdn-save").addEventListener("click", () => send({ type: "save_pdn" }));
}
