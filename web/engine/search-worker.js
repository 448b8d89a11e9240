// The page's search worker: see search.js.
import { searchWorker } from "./search.js";

const onMessage = searchWorker((msg) => self.postMessage(msg));
self.onmessage = (ev) => onMessage(ev.data);
