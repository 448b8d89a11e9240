// Move and capture sounds, made with WebAudio (no sound files to fetch), and the switch
// that turns them off, remembered in localStorage.

import { $ } from "./state.js";

const STORE = "poolshark-sound";

/** @type {AudioContext | null} */
let ctx = null; // the AudioContext, made at the first sound (browsers want a gesture first)

export function soundOn() {
  try {
    return localStorage.getItem(STORE) !== "off";
  } catch (e) {
    return true;
  }
}

/** @param {boolean} on */
function setSound(on) {
  try {
    localStorage.setItem(STORE, on ? "on" : "off");
  } catch (e) {
    // Storage may be off: the switch then lasts for this page only.
  }
  showSwitch(on);
}

/** @param {boolean} on */
function showSwitch(on) {
  const b = $("sound");
  b.setAttribute("aria-pressed", on ? "true" : "false");
  b.classList.toggle("on", on);
  b.textContent = on ? "sound on" : "sound off";
}

function context() {
  // Older Safari has it under its prefix only.
  const prefixed = /** @type {{webkitAudioContext?: typeof AudioContext}} */ (/** @type {unknown} */ (window));
  const Ctx = window.AudioContext || prefixed.webkitAudioContext;
  if (!Ctx) return null;
  if (!ctx) ctx = new Ctx();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// A wooden "tock": a short sine that drops in pitch and dies away.
/**
 * @param {AudioContext} ac
 * @param {number} at
 * @param {number} freq
 * @param {number} gain
 * @param {number} length
 */
function tock(ac, at, freq, gain, length) {
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = "sine";
  osc.frequency.setValueAtTime(freq, at);
  osc.frequency.exponentialRampToValueAtTime(freq * 0.55, at + length);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.004);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(ac.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

// A rattle of pieces taken: a burst of noise through a band-pass filter.
/**
 * @param {AudioContext} ac
 * @param {number} at
 * @param {number} length
 */
function rattle(ac, at, length) {
  const n = Math.floor(ac.sampleRate * length);
  const buf = ac.createBuffer(1, n, ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / n, 3);
  const src = ac.createBufferSource();
  src.buffer = buf;
  const band = ac.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = 1800;
  band.Q.value = 1.2;
  const amp = ac.createGain();
  amp.gain.value = 0.5;
  src.connect(band).connect(amp).connect(ac.destination);
  src.start(at);
}

// The sound of a move just played: a capture rattles, a plain move knocks. Nothing when
// the switch is off or the browser has no WebAudio. The switch counts the sounds made
// (`data-played`, `data-last`), which is how a test sees that one was.
/** @param {boolean} capture */
export function playMoveSound(capture) {
  if (!soundOn()) return;
  const ac = context();
  if (!ac) return;
  const at = ac.currentTime + 0.01;
  if (capture) {
    tock(ac, at, 420, 0.5, 0.09);
    rattle(ac, at + 0.05, 0.16);
  } else {
    tock(ac, at, 660, 0.45, 0.11);
  }
  const b = $("sound");
  b.dataset.played = String(Number(b.dataset.played || 0) + 1);
  b.dataset.last = capture ? "capture" : "move";
}

export function wireSound() {
  showSwitch(soundOn());
  $("sound").addEventListener("click", () => {
    const on = !soundOn();
    setSound(on);
    if (on) context();
  });
}
