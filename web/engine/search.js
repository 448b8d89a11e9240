// The search worker's logic (search-worker.js in the page, a worker_threads worker under node):
// one WebAssembly instance holding one engine, 64 MiB of table as each board's under `poolshark
// serve`, that runs each search job it is sent to its end, posting the job's events as they
// come. The board's worker stops a job by ending this worker: a module running a search
// reads no message until it returns.

import { load, CHANNEL } from "./module.js";

// Hash table size of the page's engine, as `poolshark serve` gives each board by default.
export const HASH_MB = 64;

/**
 * `post(message)` sends to the board's worker. Returns the handler of its messages:
 * { module } first (the compiled WebAssembly.Module), then { job } (a job's JSON text).
 * @param {(msg: import("./board-host.js").SearchMessage) => void} post
 * @returns {(msg: {module: WebAssembly.Module} | {job: string}) => Promise<void>}
 */
export function searchWorker(post) {
  /** @type {import("./module.js").Wasm | null} */
  let wasm = null;
  /** @type {Promise<void> | null} */
  let ready = null;
  return async function onMessage(msg) {
    if ("module" in msg) {
      ready = load(msg.module, (channel, text) => {
        if (channel === CHANNEL.event) post({ event: text });
        else if (channel === CHANNEL.err) post({ log: text });
      }).then((w) => {
        wasm = w;
        if (w.exports.poolshark_engine_new(HASH_MB) !== 0) post({ log: "no engine" });
        post({ ready: true });
      });
      return;
    }
    if ("job" in msg) {
      await ready;
      if (!wasm) return;
      wasm.call("poolshark_engine_run", msg.job);
      post({ idle: true });
    }
  };
}
