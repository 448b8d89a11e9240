// Two ways to a board for the node tests, each as { send(msg), inbox, close() }: the
// WebAssembly board as the page's worker runs it (web/engine/board-host.js, its searches in
// worker_threads), and `poolshark serve`'s over its WebSocket (node's WebSocket, which node 20
// has behind --experimental-websocket).
import { Worker } from "node:worker_threads";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BoardHost } from "../../web/engine/board-host.js";

// Replies as they come, and a way to wait for one.
export class Inbox {
  constructor() {
    this.all = [];
    this.waiters = [];
  }
  push(msg) {
    this.all.push(msg);
    for (const w of this.waiters.slice()) w.check();
  }
  // The first message from index `from` on that `pred` accepts (its index in `at`); an error
  // after `ms` (a guard against a hang, not a measure of speed).
  until(pred, from = 0, ms = 60000) {
    return new Promise((resolve, reject) => {
      const waiter = {
        check: () => {
          for (let i = from; i < this.all.length; i++) {
            if (pred(this.all[i])) {
              this.waiters.splice(this.waiters.indexOf(waiter), 1);
              clearTimeout(waiter.timer);
              resolve({ msg: this.all[i], at: i });
              return;
            }
          }
        },
      };
      waiter.timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error("no such message within " + ms + " ms; got: " + JSON.stringify(this.all.slice(from)).slice(0, 2000)));
      }, ms);
      this.waiters.push(waiter);
      waiter.check();
    });
  }
}

// `spawn` (optional) replaces the search worker, for a test of one that fails.
export async function workerBoard(wasmPath, spawn) {
  const module = await WebAssembly.compile(await readFile(wasmPath));
  const inbox = new Inbox();
  const workers = new Set();
  const host = new BoardHost({
    module,
    post: (text) => inbox.push(JSON.parse(text)),
    log: (text) => process.stderr.write("wasm: " + text + "\n"),
    spawnSearch: spawn || (() => {
      const w = new Worker(new URL("./node-search-worker.mjs", import.meta.url));
      workers.add(w);
      return {
        post: (m) => w.postMessage(m),
        terminate: () => {
          workers.delete(w);
          w.terminate();
        },
        onMessage: (fn) => w.on("message", fn),
        onError: (fn) => w.on("error", (e) => fn(e.message)),
      };
    }),
  });
  await host.start();
  return {
    send: (msg) => host.request(typeof msg === "string" ? msg : JSON.stringify(msg)),
    inbox,
    close: async () => {
      host.close();
      await Promise.all([...workers].map((w) => w.terminate()));
    },
  };
}

// The server is given an empty folder of tables, as the worker has none: an egdb/ in the
// working folder (read in the background, a group at a time) made its review differ from run
// to run, and from the worker's.
export async function serverBoard(binary) {
  const none = mkdtempSync(join(tmpdir(), "poolshark-no-tables-"));
  const child = spawn(binary, ["serve", "--port", "0", "--egdb", none], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/([^/\s]+)\//);
      if (m) resolve("ws://" + m[1] + "/ws");
    });
    child.on("exit", (code) => reject(new Error("poolshark serve exited: " + code)));
  });
  const inbox = new Inbox();
  const ws = new WebSocket(url);
  ws.addEventListener("message", (ev) => inbox.push(JSON.parse(ev.data)));
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", reject);
  });
  return {
    send: (msg) => ws.send(typeof msg === "string" ? msg : JSON.stringify(msg)),
    inbox,
    close: async () => {
      ws.close();
      child.kill();
    },
  };
}
