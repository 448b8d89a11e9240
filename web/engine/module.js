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
 * Reads a file the module asks for by name (an endgame table, crates/wasm/src/tables.rs), at
 * once: its bytes, or null where it cannot be had (the reader logs why).
 * @typedef {(name: string) => Uint8Array | null} ReadFile
 */

/**
 * Instantiate `source` (a WebAssembly.Module, or the .wasm file's bytes). `onEmit(channel,
 * text)` receives every text the module emits; `readFile` serves the files it asks for
 * (none where it is left out).
 * @param {WebAssembly.Module | BufferSource} source
 * @param {(channel: number, text: string) => void} onEmit
 * @param {ReadFile} [readFile]
 * @returns {Promise<Wasm>}
 */
export async function load(source, onEmit, readFile = () => null) {
  /** @type {WebAssembly.Memory | null} */
  let memory = null;
  const mem = () => {
    if (!memory) throw new Error("the module called its host before its memory is known");
    return memory;
  };
  /** @type {{name: string, bytes: Uint8Array} | null} the file read last, until copied */
  let fetched = null;
  const env = {
    /** @type {(channel: number, ptr: number, len: number) => void} */
    poolshark_emit(channel, ptr, len) {
      onEmit(channel, decoder.decode(new Uint8Array(mem().buffer, ptr, len)));
    },
    poolshark_now_ms: () => performance.now(),
    poolshark_unix_ms: () => Date.now(),
    /** @type {(ptr: number, len: number) => number} the file's bytes, or -1 */
    poolshark_file_len(ptr, len) {
      const name = decoder.decode(new Uint8Array(mem().buffer, ptr, len));
      const bytes = readFile(name);
      fetched = bytes ? { name, bytes } : null;
      return bytes ? bytes.length : -1;
    },
    /** @type {(ptr: number, len: number, dst: number) => void} copies the file read last */
    poolshark_file_read(ptr, len, dst) {
      const name = decoder.decode(new Uint8Array(mem().buffer, ptr, len));
      if (!fetched || fetched.name !== name) throw new Error("poolshark_file_read of a file not fetched: " + name);
      new Uint8Array(mem().buffer, dst, fetched.bytes.length).set(fetched.bytes);
      fetched = null;
    },
  };
  // A Module instantiates to an Instance; bytes to an Instance with its Module.
  const result = /** @type {WebAssembly.Instance | WebAssembly.WebAssemblyInstantiatedSource} */ (
    await WebAssembly.instantiate(source, { env })
  );
  const instance = "instance" in result ? result.instance : result;
  const exports = /** @type {Exports} */ (instance.exports);
  memory = exports.memory;
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
    new Uint8Array(mem().buffer, ptr, bytes.length).set(bytes);
    return exports[name](ptr, bytes.length, ...rest);
  }
  return { exports, call };
}
