// The message area under the board: notes and errors, newest first, at most four.

import { $ } from "./state.js";

/**
 * @param {string} kind `error` or `note`, the message's class
 * @param {string} text
 */
export function showMessage(kind, text) {
  const box = $("messages");
  const div = document.createElement("div");
  div.className = "msg " + kind;
  div.textContent = text;
  box.prepend(div);
  while (box.children.length > 4) box.lastChild.remove();
}

export function clearMessages() {
  $("messages").textContent = "";
}

/**
 * Remove the messages whose text begins with `prefix`: what they said is no longer so.
 * @param {string} prefix
 */
export function dropMessages(prefix) {
  for (const m of Array.from($("messages").children)) if ((m.textContent || "").startsWith(prefix)) m.remove();
}
