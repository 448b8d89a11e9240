// The poolshark WebAssembly module (crates/wasm), loaded the same way in the page's workers and
// under node: it imports the clock and one function through which it emits text, each text on
// a numbered channel (crates/wasm/src/host.rs), and exports functions that take text.

export const CHANNEL = { out: 1, err: 2, event: 3, reply: 4, start: 5, stop: 6 };

/**
 * The module's exports (crates/wasm): its memory, and functions of numbers (a text is a
 * pointer and a length into the memory, `Wasm.call` puts it there).
 * @typedef {{memory: WebAssembly.Memory} & Record<string, (...args: number[]) => number>} Exports
 */

/**
 * A loaded module: its exports, and `call(name, text, ...rest)`, which calls export `name`
 * with `text` as its first two arguments.
 * @typedef {object} Wasm
 * @property {Exports} exports
 * @property {(name: string, text: string, ...rest: number[]) => number} call
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Instantiate `source` (a WebAssembly.Module, or the .wasm file's bytes). `onEmit(channel,
 * text)` receives every text the module emits.
 * @param {WebAssembly.Module | BufferSource} source
 * @param {(channel: number, text: string) => void} onEmit
 * @returns {Promise<Wasm>}
 */
export async function load(source, onEmit) {
  /** @type {WebAssembly.Memory | null} */
  let memory = null;
  const env = {
    /** @type {(channel: number, ptr: number, len: number) => void} */
    poolshark_emit(channel, ptr, len) {
      if (!memory) throw new Error("poolshark_emit before the module's memory is known");
      onEmit(channel, decoder.decode(new Uint8Array(memory.buffer, ptr, len)));
    },
    poolshark_now_ms: () => performance.now(),
    poolshark_unix_ms: () => Date.now(),
  };
  // A Module instantiates to an Instance; bytes to an Instance with its Module.
  const result = /** @type {WebAssembly.Instance | WebAssembly.WebAssemblyInstantiatedSource} */ (
    await WebAssembly.instantiate(source, { env })
  );
  const instance = "instance" in result ? result.instance : result;
  const exports = /** @type {Exports} */ (instance.exports);
  const mem = exports.memory;
  memory = mem;
  /**
   * Call export `name` with `text` as its first two arguments (pointer, length), the module
   * taking the memory back.
   * @param {string} name
   * @param {string} text
   * @param {...number} rest
   * @returns {number}
   */
  function call(name, text, ...rest) {
    const bytes = encoder.encode(text);
    const ptr = exports.poolshark_alloc(bytes.length);
    new Uint8Array(mem.buffer, ptr, bytes.length).set(bytes);
    return exports[name](ptr, bytes.length, ...rest);
  }
  return { exports, call };
}
