// The page's board worker: the session core in WebAssembly (board-host.js), with searches in
// a worker of its own (search-worker.js). The page posts { module } first, then each
// docs/BOARD.md message's JSON text; this worker posts each reply's JSON text back.
import { BoardHost } from "./board-host.js";

const scope = /** @type {DedicatedWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** @type {BoardHost | null} */
let host = null;
/** @type {string[]} texts the page sent before the module */
const early = [];
scope.onmessage = (/** @type {MessageEvent} */ ev) => {
  const msg = ev.data;
  if (msg && msg.module) {
    const h = new BoardHost({
      module: msg.module,
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
  } else if (typeof msg === "string") {
    if (host) host.request(msg);
    else early.push(msg);
  }
};
