// The state derived from the rest of `ui`, computed once after each batch of changes and
// before the render (state.js's `update`), so that the render only reads `ui` and two
// renders of the same `ui` draw the same page: the line shown on the board closed while
// pieces are placed, the retry kept in step with the position shown and the review's arrow
// chosen (teach.js), and a "learn from your mistakes" run ended when its question was left
// (learn.js, after the retry is settled).

import { ui, setDeriver } from "./state.js";
import { closePv } from "./analysis.js";
import { deriveTeach } from "./teach.js";
import { deriveLearn } from "./learn.js";

function derive() {
  if (ui.setup) closePv();
  deriveTeach();
  deriveLearn();
}

setDeriver(derive);
