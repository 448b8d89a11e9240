// Everything drawn again from `ui`: after a new state, or a change of mode on the page. It
// only reads `ui`: what follows from a change is derived before it runs (js/derive.js).

import { ui, setRenderer } from "./state.js";
import { renderBoard } from "./draw.js";
import { renderStatus, renderControls } from "./status.js";
import { renderMoves, renderStrip } from "./tree.js";
import { renderInfo } from "./analysis.js";
import { renderReview } from "./review.js";
import { renderClocks } from "./clock.js";
import { renderTeach } from "./teach.js";
import { renderAnnotate } from "./annotate.js";
import { markChoice } from "./play.js";
import { renderShare } from "./share.js";
import { renderKept } from "./store.js";
import { renderBuild } from "./socket.js";
import { renderKeys } from "./keys.js";
import { renderLearn } from "./learn.js";
import { renderPuzzle } from "./puzzle.js";
import { renderStudy } from "./study.js";
import { renderExplorer } from "./explorer.js";

export function render() {
  renderBoard();
  renderStatus();
  renderMoves();
  renderStrip();
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
  renderPuzzle();
  renderStudy();
  renderExplorer();
}

setRenderer(render);
