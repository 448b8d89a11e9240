// The board's worker under node (scripts/web-test.sh): the WebAssembly build of the session
// core, hosted as the static page hosts it (web/engine/board-host.js, searches in a worker of
// their own), driven with docs/BOARD.md messages; and its review set beside `poolshark
// serve`'s, ply by ply, at a fixed node budget.
import test from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { workerBoard, serverBoard } from "./boards.mjs";
import { load, CHANNEL } from "../../web/engine/module.js";

const WASM = process.env.POOLSHARK_WASM || "target/web/poolshark.wasm";
const BINARY = process.env.POOLSHARK;
const GAME = await readFile(new URL("../data/web-review.pdn", import.meta.url), "utf8");

const isState = (m) => m.type === "state";

test("a board opens with hello and a state, and plays a move", async () => {
  const b = await workerBoard(WASM);
  try {
    await b.inbox.until((m) => m.type === "hello");
    const { msg: start } = await b.inbox.until(isState);
    assert.equal(start.fen, "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    const from = b.inbox.all.length;
    b.send({ type: "move", move: "11-15" });
    const { msg } = await b.inbox.until(isState, from);
    assert.deepEqual(msg.history.map((h) => h.pdn), ["11-15"]);
    const bad = b.inbox.all.length;
    b.send({ type: "move", move: "1-5" });
    const { msg: err } = await b.inbox.until((m) => m.type === "error", bad);
    assert.match(err.message, /1-5/);
    b.send("{not json");
    await b.inbox.until((m) => m.type === "error", bad + 1);
  } finally {
    await b.close();
  }
});

test("the engine answers a move on its own search worker", async () => {
  const b = await workerBoard(WASM);
  try {
    await b.inbox.until(isState);
    b.send({ type: "level", depth: 4 });
    const from = b.inbox.all.length;
    b.send({ type: "new", white: "engine", black: "human" });
    b.send({ type: "move", move: "11-15" });
    const { msg } = await b.inbox.until((m) => isState(m) && m.history.length === 2, from);
    assert.equal(msg.history[0].pdn, "11-15");
  } finally {
    await b.close();
  }
});

test("a search worker that dies ends its job with an error, and the board goes on", async () => {
  // A stand-in for a worker whose module traps on its first job.
  const dying = () => {
    let onError = null;
    return {
      post: (m) => m.job && setTimeout(() => onError("RuntimeError: unreachable"), 0),
      terminate: () => {},
      onMessage: () => {},
      onError: (fn) => (onError = fn),
    };
  };
  const b = await workerBoard(WASM, dying);
  try {
    await b.inbox.until(isState);
    const from = b.inbox.all.length;
    b.send({ type: "engine_move" });
    const { msg, at } = await b.inbox.until((m) => m.type === "error", from);
    assert.match(msg.message, /the engine stopped: RuntimeError: unreachable/);
    await b.inbox.until((m) => isState(m) && !m.thinking, at);
    const next = b.inbox.all.length;
    b.send({ type: "move", move: "11-15" });
    await b.inbox.until((m) => isState(m) && m.history.length === 1, next);
  } finally {
    await b.close();
  }
});

test("analysis sends info, and after stop no more", async () => {
  const b = await workerBoard(WASM);
  try {
    await b.inbox.until(isState);
    const from = b.inbox.all.length;
    b.send({ type: "analyze", on: true });
    const { at } = await b.inbox.until((m) => m.type === "info" && m.depth >= 3, from);
    const asked = performance.now();
    b.send({ type: "stop" });
    const { at: stopped } = await b.inbox.until((m) => isState(m) && !m.analyzing, at);
    const took = performance.now() - asked;
    console.log(`stop answered after ${took.toFixed(1)} ms`);
    await new Promise((r) => setTimeout(r, 500));
    const late = b.inbox.all.slice(stopped).filter((m) => m.type === "info");
    assert.deepEqual(late, [], "info after the stop");
  } finally {
    await b.close();
  }
});

test("the worker's review equals the server's ply by ply", { skip: !BINARY && "POOLSHARK (the native binary) not set" }, async () => {
  const review = async (b) => {
    await b.inbox.until(isState);
    const from = b.inbox.all.length;
    b.send({ type: "load_pdn", pdn: GAME });
    b.send({ type: "review", nodes: 3000 });
    const { at } = await b.inbox.until((m) => m.type === "review_done", from);
    return b.inbox.all.slice(from, at + 1).filter((m) => m.type === "review_ply" || m.type === "review_done");
  };
  const w = await workerBoard(WASM);
  const s = await serverBoard(BINARY);
  try {
    const [fromWorker, fromServer] = [await review(w), await review(s)];
    assert.ok(fromServer.length > 10, "the review covers the game");
    assert.deepEqual(fromWorker, fromServer);
    console.log(`${fromServer.length - 1} plies reviewed, equal`);
  } finally {
    await w.close();
    await s.close();
  }
});

// The network's SIMD128 loops, the search and the table in WebAssembly, held to the native
// build: the bench's node count steers on every evaluation, so one wrong lane changes it.
test("the WebAssembly bench searches the native bench's nodes", { skip: !BINARY && "POOLSHARK (the native binary) not set" }, async () => {
  const lines = [];
  const { exports } = await load(await readFile(WASM), (channel, text) => {
    if (channel === CHANNEL.out) lines.push(text);
  });
  assert.equal(exports.poolshark_bench(11, 16), 0);
  const native = execFileSync(BINARY, ["bench"], { stdio: ["ignore", "pipe", "ignore"] }).toString();
  const nodes = (text) => text.match(/^nodes (\d+) nps/m)[1];
  assert.equal(nodes(lines.join("\n")), nodes(native));
  console.log(`wasm: ${lines.at(-1)}; native: ${native.trim().split("\n").at(-1)}`);
});
