// The WebSocket to the server (docs/BOARD.md): one per page, JSON both ways. A closed socket
// is not reopened: the server's game is gone with it, and the page says to reload.

import { $, ui } from "./state.js";
import { showMessage } from "./messages.js";

// Open the socket; `onMessage` gets each message parsed, `onClose` runs once it closes.
export function connect(onMessage, onClose) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(proto + "://" + location.host + "/ws");
  ui.ws = ws;
  ws.addEventListener("open", () => {
    ui.connected = true;
    setConn("connected", "connected");
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      showMessage("error", "the server sent something that is not JSON");
      return;
    }
    onMessage(msg);
  });
  ws.addEventListener("close", () => {
    ui.connected = false;
    setConn("disconnected", "disconnected: reload the page to start again");
    onClose();
  });
  ws.addEventListener("error", () => {
    // A close event follows; it says what the user needs to know.
  });
}

export function send(msg) {
  if (!ui.ws || ui.ws.readyState !== WebSocket.OPEN) {
    showMessage("error", "not connected to the server");
    return;
  }
  ui.ws.send(JSON.stringify(msg));
}

function setConn(cls, text) {
  const c = $("conn");
  c.className = "conn " + cls;
  c.textContent = text;
}

// The server's version, from its `hello`.
export function onHello(msg) {
  $("conn").title = "poolshark " + (msg.version || "");
}
