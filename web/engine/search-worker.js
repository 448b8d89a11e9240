// The page's search worker: see search.js.
import { searchWorker } from "./search.js";

const scope = /** @type {DedicatedWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const onMessage = searchWorker((msg) => scope.postMessage(msg));
scope.onmessage = (/** @type {MessageEvent} */ ev) => onMessage(ev.data);
