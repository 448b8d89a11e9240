// The board's session in a worker (board-worker.js in the page; tests/web under node): the
// WebAssembly module's board (crates/wasm's `poolshark_board_*`, over the session core that
// `poolshark serve` runs too) takes docs/BOARD.md messages as JSON text and answers on
// channels: a reply for the page, a search job to start, a job to stop. Jobs run in a second
// worker (search.js) so that this one keeps reading the page's messages while the engine
// thinks; a stop ends that worker at once (a fresh one, with a fresh table, takes the next
// job) and the board carries on from the events it already had.

import { load, CHANNEL } from "./module.js";

/**
 * A search worker as the board's host drives it (a Web Worker in the page, a worker_threads
 * worker under node): messages to it, its end, and its messages and errors.
 * @typedef {object} SearchWorker
 * @property {(msg: {module: WebAssembly.Module} | {job: string}) => void} post
 * @property {() => void} terminate
 * @property {(fn: (msg: SearchMessage) => void) => void} onMessage
 * @property {(fn: (message: string) => void) => void} onError
 */

/**
 * What a search worker posts (search.js): a job's event (JSON text), a log line, that it is
 * ready, or that its job ended.
 * @typedef {{event: string} | {log: string} | {ready: true} | {idle: true}} SearchMessage
 */

export class BoardHost {
  /**
   * @param {object} host
   * @param {WebAssembly.Module} host.module the compiled module
   * @param {(text: string) => void} host.post a reply to the page
   * @param {() => SearchWorker} host.spawnSearch a new search worker
   * @param {(text: string) => void} [host.log] diagnostics
   * @param {string} [host.tables] the endgame tables' list (egdb/index.json's text; none
   *   where empty), whose files `readFile` serves
   * @param {import("./module.js").ReadFile} [host.readFile]
   */
  constructor({ module, post, spawnSearch, log, tables, readFile }) {
    this.module = module;
    this.tables = tables || "";
    this.readFile = readFile;
    this.post = post;
    this.spawnSearch = spawnSearch;
    this.log = log || (() => {});
    /** @type {SearchWorker | null} the worker running the job */
    this.search = null;
    /** @type {SearchWorker | null} a worker ready for the next job */
    this.spare = null;
    /** @type {number | null} the id of the job the search worker runs */
    this.job = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    /** @type {string[]} texts sent before the module was ready */
    this.queue = [];
    /** @type {import("./module.js").Wasm | null} */
    this.wasm = null;
  }

  async start() {
    const wasm = await load(this.module, (channel, text) => this.onEmit(channel, text), this.readFile);
    this.wasm = wasm;
    this.spare = this.newSearch();
    wasm.call("poolshark_board_new", this.tables);
    wasm.exports.poolshark_board_open();
    this.afterCall();
    for (const text of this.queue.splice(0)) this.request(text);
  }

  /** @param {string} text a request's JSON text */
  request(text) {
    if (!this.wasm) {
      this.queue.push(text);
      return;
    }
    this.wasm.call("poolshark_board_request", text);
    this.afterCall();
  }

  /**
   * @param {number} channel
   * @param {string} text
   */
  onEmit(channel, text) {
    if (channel === CHANNEL.reply) this.post(text);
    else if (channel === CHANNEL.start) this.startJob(text);
    else if (channel === CHANNEL.stop) this.stopJob(Number(text));
    else this.log(text);
  }

  /** @returns {SearchWorker} */
  newSearch() {
    const search = this.spawnSearch();
    search.onMessage((msg) => {
      if (search !== this.search || !this.wasm) return; // a stopped worker's last words
      if ("event" in msg) {
        this.wasm.call("poolshark_board_event", msg.event);
        this.afterCall();
      } else if ("log" in msg) {
        this.log(msg.log);
      }
    });
    // A search worker that dies (the module trapped on a panic) ends its job as failed, so
    // the board says so and takes requests again; a fresh worker takes the next job.
    search.onError((message) => {
      if (search === this.spare) this.spare = null;
      if (search !== this.search) return;
      const id = this.job;
      this.search = null;
      this.job = null;
      search.terminate();
      if (id !== null && this.wasm) {
        const text = JSON.stringify({ event: "failed", id, message: "the engine stopped: " + message });
        this.wasm.call("poolshark_board_event", text);
        this.afterCall();
      }
    });
    search.post({ module: this.module });
    return search;
  }

  /** @param {string} text the job's JSON text */
  startJob(text) {
    if (!this.search) {
      this.search = this.spare || this.newSearch();
      this.spare = null;
    }
    this.job = JSON.parse(text).id;
    this.search.post({ job: text });
  }

  /** @param {number} id */
  stopJob(id) {
    if (this.search && this.job === id) {
      this.search.terminate();
      this.search = null;
      this.job = null;
      this.spare = this.spare || this.newSearch();
    }
  }

  // End the searches and the timer (the page's worker never needs this; node's tests do).
  close() {
    for (const s of [this.search, this.spare]) if (s) s.terminate();
    this.search = this.spare = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  // After each call into the board: wake it for its next timer (a clock's flag).
  afterCall() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const wasm = this.wasm;
    if (!wasm) return;
    const ms = wasm.exports.poolshark_board_next_wake_ms();
    if (ms >= 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        wasm.exports.poolshark_board_tick();
        this.afterCall();
      }, Math.min(ms, 2 ** 31 - 1));
    }
  }
}
