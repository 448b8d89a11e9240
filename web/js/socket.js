// The page's line to its board (docs/BOARD.md), JSON both ways, over one of two transports:
// the WebSocket to `poolshark serve`, or, where the page is a static copy (`make web`), a
// worker running the same board in WebAssembly (web/engine/board-worker.js). Either way the page
// sees the same messages, and scripts and tests reach them as `window.boardTransport`:
// `send(text)` takes one message's JSON text, `onMessage(fn)` calls `fn` with each reply's.
// A closed socket is not reopened: the server's game is gone with it, and the page says to
// reload.
//
// The static page's service worker (web/sw.js) keeps one build: a new one installed while
// a tab is open waits, so that the tab's page, workers and module stay of one build. The tab
// says a new version is ready; a reload (or its button) opens it where the tab is the page's
// only one, and never reloads another tab.

import { $, ui, update } from "./state.js";
import { showMessage } from "./messages.js";

/** @typedef {(text: string) => void} TextFn */

/** @type {TextFn[]} who hears each reply's JSON text (`window.boardTransport.onMessage`) */
const listeners = [];
/** @type {TextFn | null} the open transport's send */
let sendText = null;

/**
 * The page's transport as scripts and tests reach it.
 * @typedef {object} BoardTransport
 * @property {(text: string) => void} send
 * @property {(fn: TextFn) => void} onMessage
 */

// Which transport this copy of the page uses: "worker" where `make web` marked its copy of
// index.html (`<meta name="poolshark-transport" content="worker">`), else "websocket".
function transportKind() {
  const mark = /** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="poolshark-transport"]'));
  return mark && mark.content === "worker" ? "worker" : "websocket";
}

// Open the transport; `onMessage` gets each message parsed, `onClose` runs once it closes.
/**
 * @param {(msg: import("./types.js").ServerMsg) => void} onMessage
 * @param {() => void} onClose
 */
export async function connect(onMessage, onClose) {
  /** @type {TextFn} */
  const deliver = (text) => {
    for (const fn of listeners) fn(text);
    let msg;
    try {
      msg = JSON.parse(text);
    } catch (e) {
      showMessage("error", "the board sent something that is not JSON");
      return;
    }
    onMessage(msg);
  };
  /** @type {Window & {boardTransport?: BoardTransport}} */ (window).boardTransport = {
    send: (text) => {
      if (!sendText) throw new Error("the board is not connected");
      sendText(String(text));
    },
    onMessage: (fn) => listeners.push(fn),
  };
  if (transportKind() === "worker") await openWorker(deliver, onClose);
  else openSocket(deliver, onClose);
}

/**
 * @param {TextFn} deliver
 * @param {() => void} onClose
 */
function openSocket(deliver, onClose) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(proto + "://" + location.host + "/ws");
  ws.addEventListener("open", () => {
    update((ui) => {
      ui.connected = true;
    });
    sendText = (text) => ws.send(text);
    setConn("connected", "connected");
  });
  ws.addEventListener("message", (ev) => deliver(ev.data));
  ws.addEventListener("close", () => {
    update((ui) => {
      ui.connected = false;
      ui.closed = true;
    });
    sendText = null;
    setConn("disconnected", "disconnected: reload the page to start again");
    onClose();
  });
  ws.addEventListener("error", () => {
    // A close event follows; it says what the user needs to know.
  });
}

/**
 * @param {TextFn} deliver
 * @param {() => void} onClose
 */
async function openWorker(deliver, onClose) {
  // A reload while a new build waits opens the new build (this page is the old one's).
  if (await openNewBuild()) return;
  let module;
  try {
    const res = await fetch("poolshark.wasm");
    if (!res.ok) throw new Error("poolshark.wasm: HTTP " + res.status);
    module = await WebAssembly.compile(await res.arrayBuffer());
  } catch (e) {
    setConn("disconnected", "the engine could not be loaded: " + (e instanceof Error ? e.message : String(e)));
    update((ui) => {
      ui.closed = true;
    });
    onClose();
    return;
  }
  const worker = new Worker("engine/board-worker.js", { type: "module" });
  worker.addEventListener("message", (ev) => deliver(ev.data));
  worker.addEventListener("error", (ev) => {
    update((ui) => {
      ui.connected = false;
      ui.closed = true;
    });
    sendText = null;
    setConn("disconnected", "the engine stopped: " + (ev.message || "an error") + "; reload the page");
    onClose();
  });
  worker.postMessage({ module });
  sendText = (text) => worker.postMessage(text);
  update((ui) => {
    ui.connected = true;
  });
  setConn("connected", "in this browser");
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").then(watchBuilds, (e) => console.warn("no offline copy:", e));
  }
}

// ---------- a new build of the static page ----------

/**
 * Where a new build waits and this is the page's only tab: let it take over and reload into
 * it. Resolves true when the page is reloading.
 * @returns {Promise<boolean>}
 */
async function openNewBuild() {
  if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return false;
  const reg = await navigator.serviceWorker.getRegistration().catch(() => undefined);
  if (!reg || !reg.waiting) return false;
  const reloading = await takeOver(reg.waiting);
  if (!reloading)
    update((ui) => {
      ui.newBuild = "others";
    });
  return reloading;
}

/**
 * Ask the waiting build's service worker to take over (it does where this is the only tab)
 * and reload once it has. Resolves true when the page is reloading.
 * @param {ServiceWorker} waiting
 * @returns {Promise<boolean>}
 */
function takeOver(waiting) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    // A worker that never answers is taken to refuse.
    const timer = setTimeout(() => resolve(false), 3000);
    channel.port1.onmessage = (ev) => {
      clearTimeout(timer);
      if (!ev.data) {
        resolve(false);
        return;
      }
      // It takes over: this page, of the old build, goes at once (at the latest after ten
      // seconds, should the change of worker never be told).
      resolve(true);
      navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
      setTimeout(() => location.reload(), 10000);
    };
    waiting.postMessage("take-over", [channel.port2]);
  });
}

/**
 * Say when a new build is ready while this tab is open (installed and waiting).
 * @param {ServiceWorkerRegistration} reg
 */
function watchBuilds(reg) {
  const ready = () => {
    if (reg.waiting && navigator.serviceWorker.controller)
      update((ui) => {
        ui.newBuild = ui.newBuild || "ready";
      });
  };
  reg.addEventListener("updatefound", () => {
    const w = reg.installing;
    if (w) w.addEventListener("statechange", ready);
  });
  ready();
  $("update-reload").onclick = () => {
    if (!reg.waiting) return location.reload();
    takeOver(reg.waiting).then((reloading) => {
      if (!reloading)
        update((ui) => {
          ui.newBuild = "others";
        });
    });
  };
}

/** The note that a new build is ready, drawn from `ui` (js/render.js). */
export function renderBuild() {
  $("update-note").hidden = !ui.newBuild;
  $("update-note-text").textContent =
    ui.newBuild === "others"
      ? "A new version of this page is ready. It opens when this is the page's only tab: close the others, then reload."
      : "A new version of this page is ready. Reload to use it: your game is kept.";
  $("update-reload").hidden = ui.newBuild === "others";
}

// The size of a text in bytes as UTF-8: what the board's limits count.
/** @param {string} text */
export function byteLength(text) {
  return new TextEncoder().encode(text).length;
}

// A message over the board's limits (`hello`) is refused here, in the board's own words, and
// not sent: over the WebSocket, a frame past the server's limit would close the connection
// and every control with it. While the kept game is being loaded back (js/store.js), or a
// link's game or position (js/share.js), only that request goes: the board answers in order,
// and a move's state taken for the load's answer would have the fresh game saved over the
// kept one. Returns whether it was sent.
/**
 * @param {import("./types.js").Request} msg a request to the board
 * @param {boolean} [opening] whether it opens the kept game or a link's
 */
export function send(msg, opening = false) {
  if (!sendText) {
    showMessage("error", "not connected to the board");
    return false;
  }
  if ((ui.keep.loading || (ui.link && ui.link.pending)) && !opening) {
    showMessage("note", ui.keep.loading ? "a moment: your game is coming back" : "a moment: the link is opening");
    return false;
  }
  const text = JSON.stringify(msg);
  const over = overLimit(msg, text);
  if (over) {
    showMessage(
      "error",
      `message too large: ${over.bytes} bytes (the limit is ${ui.limits.load_pdn}, and ${ui.limits.other} for anything but load_pdn and chapter_add)`,
    );
    return false;
  }
  sendText(text);
  return true;
}

/**
 * Whether a request is over the board's limit for its type (`hello`): its size in bytes and
 * that limit, or null when it is within it. Those who can say better what was too large (a
 * link, a kept game) ask before they send.
 * @param {import("./types.js").Request} msg
 * @param {string} [text] its JSON text, where made already
 * @returns {{bytes: number, limit: number} | null}
 */
export function overLimit(msg, text = JSON.stringify(msg)) {
  // A PDN may come in `load_pdn` and `chapter_add` (docs/BOARD.md, "Limits").
  const limit = msg.type === "load_pdn" || msg.type === "chapter_add" ? ui.limits.load_pdn : ui.limits.other;
  if (text.length <= limit / 3) return null;
  const bytes = byteLength(text);
  return bytes > limit ? { bytes, limit } : null;
}

/**
 * @param {string} cls
 * @param {string} text
 */
function setConn(cls, text) {
  const c = $("conn");
  c.className = "conn " + cls;
  c.textContent = text;
}

// The board's version, from its `hello`.
/** @param {import("./types.js").HelloMsg} msg */
export function onHello(msg) {
  $("conn").title = "poolshark " + (msg.version || "");
  if (msg.limits) update((u) => (u.limits = msg.limits));
  // For scripts and tests: the largest PDN the board loads, as the page reads it.
  $("conn").dataset.loadPdn = String(ui.limits.load_pdn);
}
