// The page's board worker: the session core in WebAssembly (board-host.js), with searches in
// a worker of its own (search-worker.js). The page posts { module } first, then each
// docs/BOARD.md message's JSON text; this worker posts each reply's JSON text back.
//
// The endgame tables are files beside the page (egdb/, `poolshark egdb web`): their list is
// fetched before the board is made, and a file when the board first needs it, at once (a
// synchronous request: the board's answer waits for it, as a native board reads its file).
// The service worker keeps them all, so they are there offline.
import { BoardHost } from "./board-host.js";

const TABLES = new URL("../egdb/", import.meta.url);

/**
 * The tables' list, or "" where this copy of the page has none.
 * @returns {Promise<string>}
 */
async function tablesList() {
  try {
    const r = await fetch(new URL("index.json", TABLES));
    if (r.ok) return await r.text();
    if (r.status !== 404) console.warn("poolshark: the endgame tables' list:", r.status, r.statusText);
  } catch (e) {
    console.warn("poolshark: the endgame tables' list could not be fetched:", e);
  }
  return "";
}

/**
 * A table file's bytes, or null (the reason in the console).
 * @param {string} name
 * @returns {Uint8Array | null}
 */
function readTable(name) {
  try {
    const xhr = new XMLHttpRequest();
    xhr.open("GET", new URL(name, TABLES), false);
    xhr.responseType = "arraybuffer";
    xhr.send();
    if (xhr.status === 200) return new Uint8Array(xhr.response);
    console.warn("poolshark: endgame table " + name + ":", xhr.status, xhr.statusText);
  } catch (e) {
    console.warn("poolshark: endgame table " + name + " could not be fetched:", e);
  }
  return null;
}

const scope = /** @type {DedicatedWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** @type {BoardHost | null} */
let host = null;
/** @type {string[]} texts the page sent before the module */
const early = [];
scope.onmessage = (/** @type {MessageEvent} */ ev) => {
  const msg = ev.data;
  if (msg && msg.module) {
    tablesList().then((tables) => made(msg.module, tables));
  } else if (typeof msg === "string") {
    if (host) host.request(msg);
    else early.push(msg);
  }
};

/**
 * @param {WebAssembly.Module} module
 * @param {string} tables the tables' list
 */
function made(module, tables) {
  const h = new BoardHost({
    module,
    tables,
    readFile: readTable,
    post: (text) => scope.postMessage(text),
    log: (text) => console.warn("poolshark:", text),
    spawnSearch: () => {
      const w = new Worker(new URL("./search-worker.js", import.meta.url), { type: "module" });
      return {
        post: (m) => w.postMessage(m),
        terminate: () => w.terminate(),
        onMessage: (fn) => (w.onmessage = (e) => fn(e.data)),
        onError: (fn) => (w.onerror = (e) => {
          e.preventDefault();
          fn(e.message || "an error");
        }),
      };
    },
  });
  host = h;
  for (const text of early.splice(0)) h.request(text);
  h.start();
}
