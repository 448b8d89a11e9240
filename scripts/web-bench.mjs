// `bench` on the WebAssembly build under node (scripts/web-bench.sh): the module's progress
// lines on stderr, its last line, `nodes N nps X`, on stdout, as `poolshark bench` prints.
import { readFile } from "node:fs/promises";
import { load, CHANNEL } from "../web/engine/module.js";

const [wasmPath, depth = "11", hash = "16"] = process.argv.slice(2);
const bytes = await readFile(wasmPath);
const { exports } = await load(bytes, (channel, text) => {
  if (channel === CHANNEL.out) process.stdout.write(text + "\n");
  else process.stderr.write(text + "\n");
});
process.exitCode = exports.poolshark_bench(Number(depth), Number(hash));
