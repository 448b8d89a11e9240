// The poolshark WebAssembly module (crates/wasm), loaded the same way in the page's workers and
// under node: it imports the clock and one function through which it emits text, each text on
// a numbered channel (crates/wasm/src/host.rs), and exports functions that take text.

export const CHANNEL = { out: 1, err: 2, event: 3, reply: 4, start: 5, stop: 6 };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Instantiate `source` (a WebAssembly.Module, or the .wasm file's bytes). `onEmit(channel,
// text)` receives every text the module emits. Returns { exports, call(name, text, ...rest) }.
export async function load(source, onEmit) {
  let memory = null;
  const env = {
    poolshark_emit(channel, ptr, len) {
      onEmit(channel, decoder.decode(new Uint8Array(memory.buffer, ptr, len)));
    },
    poolshark_now_ms: () => performance.now(),
    poolshark_unix_ms: () => Date.now(),
  };
  const result = await WebAssembly.instantiate(source, { env });
  const instance = result.instance || result;
  const exports = instance.exports;
  memory = exports.memory;
  // Call export `name` with `text` as its first two arguments (pointer, length), the module
  // taking the memory back.
  function call(name, text, ...rest) {
    const bytes = encoder.encode(text);
    const ptr = exports.poolshark_alloc(bytes.length);
    new Uint8Array(memory.buffer, ptr, bytes.length).set(bytes);
    return exports[name](ptr, bytes.length, ...rest);
  }
  return { exports, call };
}
