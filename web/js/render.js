// Everything drawn again from `ui`: after a new state, or a change of mode on the page.

import { ui, setRenderer } from "./state.js";
import { renderBoard } from "./draw.js";
import { renderStatus, renderControls } from "./status.js";
import { renderMoves } from "./tree.js";
import { closePv, renderInfo } from "./analysis.js";
import { renderReview } from "./review.js";
import { renderClocks } from "./clock.js";
import { syncTeach, renderTeach } from "./teach.js";
import { renderAnnotate } from "./annotate.js";
import { markChoice } from "./play.js";
import { renderShare } from "./share.js";
import { renderKept } from "./store.js";
import { renderBuild } from "./socket.js";
import { renderKeys } from "./keys.js";
import { renderLearn } from "./learn.js";

export function render() {
  if (ui.setup) closePv();
  syncTeach();
  renderBoard();
  renderStatus();
  renderMoves();
  renderAnnotate();
  renderInfo();
  renderControls();
  renderReview();
  renderClocks();
  renderTeach();
  markChoice();
  renderShare();
  renderKept();
  renderBuild();
  renderKeys();
  renderLearn();
}

setRenderer(render);
