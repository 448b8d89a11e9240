// The page's search worker under node (worker_threads instead of a Web Worker): the same
// logic, web/engine/search.js.
import { parentPort } from "node:worker_threads";
import { searchWorker } from "../../web/engine/search.js";

const onMessage = searchWorker((msg) => parentPort.postMessage(msg));
parentPort.on("message", onMessage);
