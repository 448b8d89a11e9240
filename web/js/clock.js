// The clocks of a timed game: both shown beside the board (the side at the bottom of the
// board has its clock under it, so they flip with it), the running one counted down between
// states from the server's figure, and the time-control chooser of the new-game panel.
// The server owns the clocks and the flag (docs/BOARD.md, "Clocks"); this page only shows
// them: each `state` resets the count from what the server says, so it never drifts.

import { ui, $, SIDE } from "./state.js";

// The chooser's controls, minutes + seconds of increment.
/** @type {Record<string, [number, number]>} */
const CONTROLS = { "1+1": [1, 1], "3+2": [3, 2], "5+3": [5, 3], "15+10": [15, 10] };
// A clock is low under this many ms, or under a fifth of the base in shorter games.
const LOW_MS = 10000;
// How often the running clock is redrawn.
const TICK_MS = 100;

let received = 0; // performance.now() when the last state's clock figures were made
/** @type {ReturnType<typeof setInterval> | null} */
let timer = null;

// A new state: its clock figures count from now. The running clock's tick draws the clocks
// itself: time passing is not a change of the page's state, so it does not go through
// `update`.
/** @param {import("./types.js").StateMsg} st */
export function onClockState(st) {
  received = performance.now();
  const running = !!(st.clock && st.clock.running);
  if (running && !timer) timer = setInterval(renderClocks, TICK_MS);
  if (!running && timer) {
    clearInterval(timer);
    timer = null;
  }
}

// `side`'s time left in ms now, counted down from the last state if its clock runs.
/**
 * @param {"black" | "white"} side
 * @returns {number | null}
 */
export function timeLeft(side) {
  const c = ui.state && ui.state.clock;
  if (!c) return null;
  const ms = side === "black" ? c.black_ms : c.white_ms;
  const gone = c.running === side ? performance.now() - received : 0;
  return Math.max(0, ms - gone);
}

// As players read a clock: m:ss, h:mm:ss past an hour, tenths under ten seconds.
/** @param {number} ms */
export function clockText(ms) {
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return "0:0" + Math.floor(tenths / 10) + "." + (tenths % 10);
  }
  const s = Math.floor(ms / 1000);
  const mmss = String(Math.floor(s / 60) % 60).padStart(s >= 3600 ? 2 : 1, "0") + ":" + String(s % 60).padStart(2, "0");
  return s >= 3600 ? Math.floor(s / 3600) + ":" + mmss : mmss;
}

export function renderClocks() {
  const st = ui.state;
  const c = st && st.clock;
  for (const id of ["clock-top", "clock-bottom"]) $(id).hidden = !c || !!ui.setup;
  if (!st || !c || ui.setup) return;
  // Not flipped, Black's men start at the top (squares 1-12).
  /** @type {"black" | "white"} */
  const bottom = ui.flipped ? "black" : "white";
  const top = bottom === "black" ? "white" : "black";
  const flagged = st.result && st.result.reason === "time forfeit" ? st.result.winner : null;
  const low = Math.min(LOW_MS, c.base_ms / 5);
  /** @type {[string, "black" | "white"][]} */
  const boxes = [["clock-top", top], ["clock-bottom", bottom]];
  for (const [id, side] of boxes) {
    const box = $(id);
    const left = timeLeft(side) || 0;
    box.dataset.side = side;
    box.querySelector(".clock-side").textContent = SIDE[side] + (st[side] === "engine" ? " (engine)" : "");
    box.querySelector(".clock-time").textContent = clockText(left);
    box.classList.toggle("running", c.running === side);
    box.classList.toggle("low", left < low);
    box.classList.toggle("flagged", !!flagged && flagged !== side);
  }
}

// The chosen time control as `new`'s `clock` field (seconds), null for none, or undefined
// (with `error` called) when the custom one does not read.
/**
 * @param {(text: string) => void} error
 * @returns {import("./types.js").ClockSpec | null | undefined}
 */
export function chosenClock(error) {
  const v = $("clock-control").value;
  if (v === "none") return null;
  let [min, inc] = CONTROLS[v] || [Number($("clock-min").value), Number($("clock-inc").value)];
  if (!isFinite(min) || min <= 0 || !isFinite(inc) || inc < 0) {
    error("time control: give minutes above 0 and seconds of increment from 0");
    return undefined;
  }
  return { base: Math.round(min * 60 * 1000) / 1000, inc };
}

export function wireClock() {
  const custom = () => {
    $("clock-custom").hidden = $("clock-control").value !== "custom";
  };
  $("clock-control").addEventListener("change", custom);
  custom();
}
