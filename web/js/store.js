// The game and the settings kept across a reload (localStorage): saved after every state.
// The game is kept as the server's PDN of it (variations, comments, marks, scores, tags,
// clocks; every chapter of a study, docs/BOARD.md "Studies"), asked for quietly (`save_pdn` with `quiet`) whenever its tree changes, with the
// path to the node shown and the chapter; a reload restores it in one request, `load_pdn`
// with `study`, that chapter as its `game` and that `path`
// (docs/BOARD.md), then sets the players, the strength and the analysis as they were. A timed
// game comes back with its clocks (`load_pdn`'s `clock`): the time the page was away is
// counted against the side to move, whose clock ran on all the while.
//
// Each tab keeps its own game (js/tabs.js): a reload brings back the tab's own, a new tab the
// game kept last, of which it keeps a copy of its own; one tab's save never drops another's.
// The records of tabs closed since, each with a game no other record holds, are offered by
// the note as a file until forgotten.
//
// A kept record is never overwritten before it has loaded: nothing is saved while it loads.
// One that the board refuses as it is loads again without the move shown (`path`), then
// without the clocks, then without both, and the page says what it left out. One whose PDN
// the board refuses all the same (another variant, an illegal move, over the board's load
// limit), or that is no record at all (not JSON, the wrong shape), is put aside as it was
// (`poolshark-board-aside-` and the time, one key each, never written again), said in words
// and offered as a file until it is forgotten; the game played next is kept in its place. A
// game that no longer fits in the browser's storage is said to be so, and the older copy
// kept is marked, so that a reload says it is one; where the storage is off, a note says that
// a reload loses the game.

import { ui, $, update } from "./state.js";
import { send, overLimit } from "./socket.js";
import { showMessage } from "./messages.js";
import { analyzeRequest } from "./analysis.js";
import { download, sizeText } from "./pdn.js";
import { STORE, tabId, readMine, writeMine, myKey, openingKey, openingCopy, closedTabs } from "./tabs.js";

// The key of the game kept last (js/share.js puts it aside when a link opens).
export { STORE };
// Where a kept record that could not be loaded back is put aside, with the time after it.
const ASIDE = "poolshark-board-aside-";

// A short hash of the game's tree with its notes: a kept PDN is of the tree with this hash.
/** @param {import("./types.js").StateMsg} st */
export function treeSig(st) {
  const text =
    st.start_fen + JSON.stringify(st.nodes || []) + JSON.stringify(st.tags || {}) + JSON.stringify([st.chapters || [], st.chapter || 1]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16) + ":" + text.length;
}

// The node shown as the moves from the start (what `load_pdn`'s `path` takes, and a game
// link's `path`, js/share.js): node ids are
// the server's and are not kept by a reload, and a promotion reorders the variations, but
// the moves stay; and should the kept PDN be a move behind, the server plays that move.
/**
 * @param {import("./types.js").StateMsg} st
 * @returns {string[]}
 */
export function pathTo(st) {
  const nodes = new Map((st.nodes || []).map((n) => [n.id, n]));
  const path = [];
  let n = nodes.get(st.node);
  while (n && n.parent !== null && n.parent !== undefined) {
    const parent = nodes.get(n.parent);
    if (!parent) break;
    path.unshift(/** @type {string} a move's node has its move */ (n.hub));
    n = parent;
  }
  return path;
}

// The page is going (a game brought back swapped the records, and the page loads again with
// it): nothing more is saved, so that a state or a PDN arriving meanwhile does not write over
// the record it will open.
let going = false;

/** Save nothing more from this page (js/share.js, before it swaps the kept records). */
export function stopKeeping() {
  going = true;
}

// After a state: a game whose tree changed asks for its PDN (`onQuietPdn` keeps it).
/** @param {import("./types.js").StateMsg} st */
export function keepNotes(st) {
  // A puzzle is not the game kept (js/puzzle.js).
  if (st.puzzle || st.practice) return;
  const sig = treeSig(st);
  if (sig === ui.notesSig) return;
  update((ui) => {
    ui.notesSig = sig;
  });
  send({ type: "save_pdn", quiet: true });
}

// A `pdn` that answers `keepNotes`: kept with the tree it is of, the tree asked for last.
/** @param {string} text */
export function onQuietPdn(text) {
  if (going || ui.keep.loading || ui.keep.held !== null) return;
  const v = loadSaved();
  if (!v) return;
  v.pdn = text;
  v.pdn_sig = ui.notesSig;
  v.tab = tabId() || undefined;
  delete v.stale;
  write(JSON.stringify(v), text.length);
}

// The game and the settings of state `st` saved.
/** @param {import("./types.js").StateMsg} st */
export function save(st) {
  // The kept record stays as it is until it has loaded (or has been put aside); a puzzle or
  // a practice is not the game kept (js/puzzle.js).
  if (going || ui.keep.loading || ui.keep.held !== null || st.puzzle || st.practice) return;
  const old = loadSaved();
  const c = st.clock;
  const text = JSON.stringify({
    // The tab that keeps it (js/tabs.js).
    tab: tabId() || undefined,
    start_fen: st.start_fen,
    tree_sig: treeSig(st),
    // The kept PDN (see the note), the tree it is of, and the node shown in this tree.
    pdn: old && old.pdn,
    pdn_sig: old && old.pdn_sig,
    // The PDN is of an older tree than the last one asked for, which did not fit.
    stale: (old && old.stale) || undefined,
    path: pathTo(st),
    // The study's chapter shown (from 1): the kept PDN is the whole study.
    chapter: st.chapter || 1,
    white: st.white,
    black: st.black,
    level: st.level,
    flipped: ui.flipped,
    analyzing: st.analyzing,
    multipv: ui.multipv,
    // A timed game's clocks while they are live, and when they read so (ms since 1970).
    clock: c && c.live ? { black_ms: c.black_ms, white_ms: c.white_ms, running: c.running, base_ms: c.base_ms, inc_ms: c.inc_ms } : null,
    saved_at: Date.now(),
  });
  write(text, (old && old.pdn && old.pdn.length) || text.length);
}

/**
 * Keep a record; where the browser's storage has no room for it, say so once and mark the
 * older record kept, so that a reload says it brings back an older copy.
 * @param {string} text the record's JSON
 * @param {number} size the game's size, for the message
 */
function write(text, size) {
  try {
    writeMine(text);
    if (ui.keep.full)
      update((ui) => {
        ui.keep.full = false;
      });
  } catch (e) {
    if (!(e instanceof DOMException && (e.name === "QuotaExceededError" || e.code === 22))) {
      // Storage is off (a browser set to keep nothing for sites): the page works without it,
      // but a note that stays says that a reload loses the game.
      if (!ui.keep.off)
        update((ui) => {
          ui.keep.off = true;
        });
      return;
    }
    markStale();
    if (ui.keep.full) return;
    update((ui) => {
      ui.keep.full = true;
    });
    showMessage(
      "error",
      `this game (${sizeText(size)}) does not fit in this browser's storage any more: a reload would bring back ` +
        "an older copy of it. To keep it all, save it as a file (PDN: save)",
    );
  }
}

// The record kept marked as an older copy of the game shown (see `write`).
function markStale() {
  try {
    const v = loadSaved();
    if (v && !v.stale) {
      v.stale = true;
      localStorage.setItem(myKey(), JSON.stringify(v));
    }
  } catch (e) {
    // No room even for that: the message said it.
  }
}

// This tab's record (js/tabs.js), or null.
function loadSaved() {
  return parseRecord(readMine());
}

/**
 * A record's text as a record, or null.
 * @param {string | null} raw
 */
function parseRecord(raw) {
  try {
    const v = JSON.parse(raw || "null");
    return v && typeof v.start_fen === "string" ? v : null;
  } catch (e) {
    return null;
  }
}

/**
 * The record the page opens with (js/tabs.js) as text, and what is wrong with its shape (""
 * if nothing), or null where nothing is kept (or storage is off).
 * @returns {{raw: string, bad: string} | null}
 */
function readKept() {
  let raw;
  try {
    raw = localStorage.getItem(openingKey());
  } catch (e) {
    return null;
  }
  return raw === null ? null : { raw, bad: fault(raw) };
}

/**
 * What is wrong with a kept record's text as a record, or "".
 * @param {string} raw
 * @returns {string}
 */
function fault(raw) {
  let v;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    return "it is not the text this page keeps";
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return "it is not a game this page keeps";
  if (typeof v.start_fen !== "string") return "it has no start position";
  if (v.pdn !== undefined && v.pdn !== null && typeof v.pdn !== "string") return "its game is not a PDN text";
  return "";
}

// ---------- records of tabs closed since ----------

/** The keys of the records of tabs closed since (js/tabs.js), offered by the note. */
let closedKeys = /** @type {string[]} */ ([]);

/**
 * The game a record holds, to tell two alike: its PDN (or its moves where it has none yet),
 * "" where it holds no game (a fresh one), the text itself where it is no record.
 * @param {string} raw
 * @returns {string}
 */
function gameOf(raw) {
  const v = parseRecord(raw);
  if (!v) return raw ? "?" + raw : "";
  if (typeof v.pdn === "string" && v.pdn) {
    const movetext = v.pdn.replace(/^\s*\[.*\]\s*$/gm, "").replace(/(^|\s)(\*|1-0|0-1|1\/2-1\/2)(?=\s|$)/g, " ");
    return movetext.trim() !== "" || /^\s*\[FEN /m.test(v.pdn) ? v.pdn : "";
  }
  const path = Array.isArray(v.path) ? v.path : [];
  return path.length || Array.isArray(v.tree) || Array.isArray(v.moves) ? raw : "";
}

// Count the records of tabs closed since, each with a game no other record holds (the
// others are dropped): the note offers them.
function findClosed() {
  closedTabs(gameOf).then((keys) => {
    closedKeys = keys;
    update((ui) => {
      ui.keep.closed = keys.length;
    });
  });
}

// ---------- leaving a puzzle or a practice ----------

/**
 * A puzzle or practice (which is never kept) left by `new`, `load_pdn` or `setup`: the game
 * kept before it is not in sight, so it is put aside, offered by the note, before the game
 * now on the board is saved in its place. (**back to my game** loads it again instead.)
 * @param {import("./types.js").StateMsg | null} old
 * @param {import("./types.js").StateMsg} st
 */
export function leaveTraining(old, st) {
  const was = !!old && !!(old.puzzle || old.practice);
  if (!was || st.puzzle || st.practice || ui.keep.loading || ui.keep.held !== null) return;
  const raw = readMine();
  if (raw === null || gameOf(raw) === "") return;
  setAside(raw, "The game you kept before the puzzle or practice is put aside, not lost, as a new game took its place.", myKey());
}

// ---------- records put aside ----------

/** @returns {string[]} the keys of the records put aside, oldest first */
function asideKeys() {
  const keys = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith(ASIDE)) keys.push(k);
    }
  } catch (e) {
    // Storage off: nothing is put aside.
  }
  return keys.sort();
}

/**
 * A key for a record put aside: the time, made unique (two put aside in one millisecond, as a
 * link does with two games, must not share a key).
 * @returns {string}
 */
function asideKey() {
  let t = Date.now();
  while (localStorage.getItem(ASIDE + t) !== null) t++;
  return ASIDE + t;
}

/**
 * Move the record under `key` (a game a link put aside, js/share.js) to the records put aside,
 * and say `why` in the note. False, the record left where it is, where there is no room.
 * @param {string} key
 * @param {string} why
 * @returns {boolean}
 */
export function moveAside(key, why) {
  let raw;
  try {
    raw = localStorage.getItem(key);
    if (raw === null) return true;
    localStorage.removeItem(key);
    localStorage.setItem(asideKey(), raw);
  } catch (e) {
    try {
      if (raw !== undefined && raw !== null) localStorage.setItem(key, raw);
    } catch (e2) {
      // As it was before the remove, or storage is off.
    }
    return false;
  }
  update((ui) => {
    ui.keep.why = why;
    ui.keep.aside = asideKeys().length;
  });
  return true;
}

/**
 * Put the kept record `raw` aside, under a key of its own (moved, so that it fits where it
 * fitted), and say `why` in the note. Where it cannot be moved it stays the kept record, and
 * nothing is saved over it while this page is open (`held`).
 * @param {string} raw
 * @param {string} why
 * @param {string} [key] where it is kept: the record the page opened with (js/tabs.js)
 */
export function setAside(raw, why, key = openingKey()) {
  let moved = false;
  try {
    localStorage.removeItem(key);
    localStorage.setItem(asideKey(), raw);
    moved = true;
  } catch (e) {
    try {
      localStorage.setItem(key, raw);
    } catch (e2) {
      // As it was before the remove, or storage is off.
    }
  }
  update((ui) => {
    ui.keep.why = why;
    ui.keep.held = moved ? null : raw;
    ui.keep.aside = asideKeys().length;
  });
}

// At the first state: a kept record that is no record (not JSON, the wrong shape) is put
// aside with a word, before a link or the kept game is opened.
export function asideUnreadable() {
  update((ui) => {
    ui.keep.aside = asideKeys().length;
  });
  const kept = readKept();
  if (kept && kept.bad) setAside(kept.raw, "The game kept from your last visit could not be read (" + kept.bad + ").");
}

// The records put aside as one file: their PDN, or their text where they have none.
function saveAside() {
  const texts = [];
  let pdn = true;
  const raws = [...asideKeys(), ...closedKeys].map((k) => localStorage.getItem(k) || "");
  if (ui.keep.held !== null) raws.push(ui.keep.held);
  for (const raw of raws) {
    const v = fault(raw) ? null : JSON.parse(raw);
    if (v && v.pdn) texts.push(v.pdn);
    else {
      texts.push(raw);
      pdn = false;
    }
  }
  download(texts.join("\n"), pdn ? "poolshark-kept.pdn" : "poolshark-kept.txt");
}

// Forget the records put aside (in words: the note's button).
function forgetAside() {
  for (const k of [...asideKeys(), ...closedKeys]) {
    try {
      localStorage.removeItem(k);
    } catch (e) {
      // Storage off: nothing was kept.
    }
  }
  const held = ui.keep.held !== null;
  closedKeys = [];
  update((ui) => {
    ui.keep.aside = 0;
    ui.keep.closed = 0;
    ui.keep.why = "";
    ui.keep.held = null;
  });
  if (held && ui.state) save(ui.state);
}

/** The note on records put aside, drawn from `ui` (js/render.js). */
export function renderKept() {
  const k = ui.keep;
  const shown = k.aside > 0 || k.held !== null || k.off || k.closed > 0;
  $("kept-note").hidden = !shown;
  if (!shown) return;
  $("kept-save").hidden = $("kept-forget").hidden = k.off;
  if (k.off) {
    $("kept-note-text").textContent =
      "This browser keeps nothing for this page (its storage is off): a reload would lose the game on the board. " +
      "To keep it, save it as a file (PDN: save).";
    return;
  }
  const many = k.aside + k.closed + (k.held !== null ? 1 : 0) > 1;
  const closed =
    k.closed === 0
      ? ""
      : k.closed === 1
        ? "A game played in a tab closed since is kept in this browser, shown in no tab."
        : `${k.closed} games played in tabs closed since are kept in this browser, shown in no tab.`;
  const text = !k.why && k.aside === 0 && k.held === null
    ? closed + (many ? " Save them as a file (then load one with PDN: load), or forget them:" : " Save it as a file (then load it with PDN: load), or forget it:")
    : (closed ? closed + " " : "") + (k.why
    ? k.why +
      (k.held !== null
        ? " There is no room to put it aside, so the game you play now is not kept: save it as a file, then forget it."
        : many
          ? " It is kept aside with others, not lost: save them as a file, or forget them."
          : " It is kept aside, not lost: save it as a file, or forget it.")
    : many
      ? `${k.aside} games kept from earlier visits could not be loaded back; they are kept aside, not lost:`
      : "A game kept from an earlier visit could not be loaded back; it is kept aside, not lost:");
  $("kept-note-text").textContent = text;
  $("kept-save").textContent = many ? "save them as a file" : "save it as a file";
  $("kept-forget").textContent = many ? "forget them" : "forget it";
}

/** The note's buttons. */
export function wireKept() {
  $("kept-save").addEventListener("click", saveAside);
  $("kept-forget").addEventListener("click", forgetAside);
}

// ---------- bringing the kept game back ----------

// The clocks to resume, as `load_pdn`'s `clock`: the running side's time less the time the
// page was away (at least 0: its flag then falls at once).
/** @returns {import("./types.js").ClockResume | null} */
/** @param {any} v the kept record, as read back (checked here) */
function resumedClock(v) {
  const c = v.clock;
  if (!c || typeof c.black_ms !== "number" || typeof c.white_ms !== "number") return null;
  const away = typeof v.saved_at === "number" ? Math.max(0, Date.now() - v.saved_at) : 0;
  const left = (/** @type {string} */ side) => Math.max(0, Math.round(c[side + "_ms"] - (c.running === side ? away : 0)));
  return { base: c.base_ms / 1000, inc: c.inc_ms / 1000, black_ms: left("black"), white_ms: left("white") };
}

// The first state of a connection is a fresh game: bring the saved one back into it.
/** @param {import("./types.js").StateMsg} st the first state, of a fresh game */
export function restore(st) {
  asideUnreadable();
  findClosed();
  const kept = readKept();
  const v = parseRecord(kept && kept.raw);
  if (!v) {
    save(st);
    return;
  }
  update((ui) => {
    if (typeof v.flipped === "boolean") ui.flipped = v.flipped;
    if ([1, 2, 3, 4, 5].includes(v.multipv)) ui.multipv = v.multipv;
  });
  if ([1, 2, 3, 4, 5].includes(v.multipv)) $("multipv").value = String(v.multipv);
  // A record kept before the first PDN of its game came back (the page went away between
  // the first moves and their PDN): its moves are its path, played from its start (a set-up
  // position, its start alone).
  const pathOk = Array.isArray(v.path) && v.path.every((/** @type {unknown} */ m) => typeof m === "string");
  if (!v.pdn && pathOk && (v.path.length || v.start_fen !== st.start_fen) && !Array.isArray(v.tree) && !Array.isArray(v.moves))
    v.pdn = `[GameType "23"]\n[SetUp "1"]\n[FEN "${v.start_fen}"]\n\n*\n`;
  if (typeof v.pdn === "string" && v.pdn) {
    // The game first, alone: its answer says whether it loaded (`keptOnState`, `keptRefused`),
    // and the settings follow it.
    // An older copy (`stale`) opens at its own end: the path is of the newer tree.
    const path = !v.stale && pathOk ? v.path : null;
    const clock = resumedClock(v);
    const chapter = Number.isInteger(v.chapter) && v.chapter >= 1 ? v.chapter : 1;
    const tries = [{ path, clock, chapter }];
    if (path && path.length) tries.push({ path: null, clock, chapter });
    if (clock) tries.push({ path, clock: null, chapter });
    if (path && path.length && clock) tries.push({ path: null, clock: null, chapter });
    // A chapter the study no longer has: its first, at its end.
    if (chapter > 1) tries.push({ path: null, clock: null, chapter: 1 });
    update((ui) => {
      ui.keep.loading = { v, raw: JSON.stringify(v), tries, at: 0 };
    });
    loadTry();
    return;
  }
  if (Array.isArray(v.tree) || Array.isArray(v.moves)) restoreOlder(v);
  sendSettings(v);
}

// Send the kept game's `load_pdn` as the try `ui.keep.loading.at` has it.
function loadTry() {
  const l = ui.keep.loading;
  if (!l) return;
  for (; l.at < l.tries.length; l.at++) {
    const t = l.tries[l.at];
    /** @type {import("./types.js").Request} */
    // The whole study, its chapter shown (a PDN kept before studies is a study of one).
    const req = { type: "load_pdn", pdn: l.v.pdn, study: true, game: t.chapter };
    // The node shown (its moves are played where the PDN kept is behind the tree shown).
    if (t.path) req.path = t.path;
    if (t.clock) req.clock = t.clock;
    const over = overLimit(req);
    if (over) {
      if (l.at + 1 < l.tries.length) continue;
      refused(`it is ${sizeText(over.bytes)}, more than this board loads (at most ${sizeText(over.limit)})`);
      return;
    }
    // The game comes back without a move's sound or animation (js/main.js).
    update((ui) => {
      ui.restoring = true;
    });
    send(req, true);
    return;
  }
}

/**
 * An `error` from the board: true when it answers the kept game's `load_pdn` (the next try
 * is sent, or the game is put aside and the error said in words).
 * @param {string} message the board's error
 * @returns {boolean}
 */
export function keptRefused(message) {
  const l = ui.keep.loading;
  if (!l) return false;
  if (l.at + 1 < l.tries.length) {
    l.at++;
    loadTry();
  } else {
    refused("the board says: " + message);
  }
  return true;
}

// The kept game's PDN was refused whatever was left out: put it aside, and go on with the
// fresh game, which is kept from now on.
/** @param {string} why */
function refused(why) {
  const l = ui.keep.loading;
  if (!l) return;
  update((ui) => {
    ui.keep.loading = null;
    ui.restoring = false;
  });
  let raw = l.raw;
  try {
    raw = localStorage.getItem(openingKey()) || raw;
  } catch (e) {
    // Storage off: the record read at the start is what there is.
  }
  // Another tab's game, which this new tab would have copied, stays that tab's.
  if (openingCopy()) showMessage("error", "The game kept last (in another tab) could not be opened here: " + why + ".");
  else setAside(raw, "Your kept game could not be loaded back: " + why + ".");
  sendSettings(l.v);
  if (ui.state) save(ui.state);
}

// A state: where it answers the kept game's `load_pdn`, the game is back (say what of it
// could not be) and the settings follow it.
export function keptOnState() {
  const l = ui.keep.loading;
  if (!l) return;
  update((ui) => {
    ui.keep.loading = null;
  });
  const t = l.tries[l.at];
  if (l.tries[0].chapter !== t.chapter)
    showMessage("note", "your study is back, at its first chapter: the chapter you were at could not be found in it");
  else if (l.tries[0].path && !t.path)
    showMessage("note", "your game is back, but not at the move you were at: that move could not be found in it");
  if (l.tries[0].clock && !t.clock)
    showMessage("note", "your game is back, but its clocks could not be set again (the board refused them): it goes on untimed");
  if (t.clock) showMessage("note", "the timed game goes on after the reload: the clock of the side to move ran while the page was away");
  if (l.v.stale)
    showMessage("note", "this is an older copy of your game: its last changes did not fit in the browser's storage");
  sendSettings(l.v);
}

// The kept settings: the strength, the players and the analysis.
/** @param {any} v the kept record */
function sendSettings(v) {
  const l = v.level || {};
  const level = Number.isInteger(l.level) && l.level >= 1 && l.level <= 10 ? { level: l.level } : {};
  if (l.depth) send({ type: "level", depth: l.depth, ...level });
  else if (l.movetime) send({ type: "level", movetime: l.movetime, ...level });
  send({ type: "players", white: v.white === "engine" ? "engine" : "human", black: v.black === "engine" ? "engine" : "human" });
  if (v.analyzing && !v.clock) send(analyzeRequest(true));
}

// A game kept by the page before it kept PDN (its tree as moves, `[parent's index, move]` in
// the order the nodes were made, or only its line as `moves`): played into the fresh game
// once, so that an update of the page loses no one's game. Each node goes in by `add_line`
// after its parent, which is the node made that many nodes before (node k is made k-th, from
// the root 0), then the node shown is shown; from then on the game is kept as its PDN.
/** @param {any} v the kept game, in the older page's shape */
function restoreOlder(v) {
  /** @type {[number, string][]} */
  const tree = Array.isArray(v.tree)
    ? v.tree.filter((/** @type {any} */ e) => Array.isArray(e) && typeof e[0] === "number" && typeof e[1] === "string")
    : (v.moves || []).filter((/** @type {any} */ m) => typeof m === "string").map((/** @type {string} */ m, /** @type {number} */ i) => [i, m]);
  if (!tree.length && v.start_fen === (ui.state && ui.state.start_fen)) return;
  update((ui) => {
    ui.restoring = true;
  });
  send({ type: "setup", fen: v.start_fen });
  for (const [parent, move] of tree) send({ type: "add_line", node: parent, moves: [move] });
  if (Array.isArray(v.tree) && typeof v.node === "number") send({ type: "goto", node: v.node });
  else if (typeof v.ply === "number") send({ type: "goto", ply: v.ply });
}
