// Which kept game is this tab's: two tabs never overwrite each other's (issue 69, item 3).
//
// Each tab has an id, kept in its sessionStorage (a reload keeps it; a new tab, or a tab
// duplicated from another, gets its own). The record saved last, whichever tab saved it, is
// kept at `poolshark-board` (js/store.js's `STORE`) and names its tab (`tab`); the records of
// the other tabs wait at `poolshark-board-tab-ID`. A tab that saves moves the record of the
// tab before it out of `STORE` to that tab's own key, then writes its own there: nothing is
// dropped, and a record is moved, never copied, so it fits where it fitted. A record without
// `tab` (kept by an older page, or written by a test) is the record of whichever tab opens it.
//
// A reload opens the tab's own record; a new tab, or the browser started again, opens the
// record kept last and keeps its own copy of it from then on.
//
// Where the browser has Web Locks, a tab holds a lock named after its id while it is open.
// That tells a duplicated tab (whose sessionStorage came with it) from a reload, and tells the
// records of tabs closed since from those of open ones: a closed tab's record that holds the
// same game as another record, or no game at all, is dropped; any other is offered by the
// note on games kept (js/store.js) as a file, until it is forgotten in words.

export const STORE = "poolshark-board";
const OTHER = "poolshark-board-tab-";
const SESSION = "poolshark-board-tab";
const LOCK = "poolshark-board-tab-";

/** This tab's id, once claimed; "" before, or where the browser keeps no session storage. */
let id = "";
/** Whether the page opened on a tab that had a kept record of its own (a reload). */
let reopened = false;

/** @returns {string} a fresh id: the time and a random part */
function freshId() {
  return Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
}

/** @returns {any} the Web Locks of this browser, or null */
function locks() {
  return typeof navigator !== "undefined" && navigator.locks ? navigator.locks : null;
}

/**
 * Hold the lock of `tab` while the page is open. Resolves true when it is held, false when
 * another page holds it.
 * @param {string} tab
 * @returns {Promise<boolean>}
 */
function holdLock(tab) {
  const l = locks();
  if (!l) return Promise.resolve(true);
  return new Promise((resolve) => {
    l.request(LOCK + tab, { ifAvailable: true }, (/** @type {any} */ lock) => {
      resolve(!!lock);
      // Held until the page goes.
      return lock ? new Promise(() => {}) : undefined;
    }).catch(() => resolve(true));
  });
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Choose this tab's id: the one its session storage keeps (a reload), unless another open
 * page holds it (a duplicated tab, which then takes an id of its own). A reload may find the
 * page before it still holding the lock for a moment: it asks again for half a second.
 * @returns {Promise<void>}
 */
async function claim() {
  let kept = "";
  try {
    kept = sessionStorage.getItem(SESSION) || "";
  } catch (e) {
    return; // No storage: nothing is kept, and the page says so (js/store.js).
  }
  if (kept) {
    for (let i = 0; i < 6; i++) {
      if (await holdLock(kept)) {
        id = kept;
        reopened = ownsMain() || readKey(OTHER + id) !== null;
        return;
      }
      await sleep(100);
    }
  }
  id = freshId();
  try {
    sessionStorage.setItem(SESSION, id);
  } catch (e) {
    // Kept for this page only: a reload is then a new tab, which opens the game kept last.
  }
  await holdLock(id);
}

/** Resolves once this tab's id is chosen (js/store.js waits for it before it restores). */
export const claimed = claim();

/** @returns {string} this tab's id ("" before it is claimed) */
export function tabId() {
  return id;
}

/**
 * @param {string} key
 * @returns {string | null}
 */
function readKey(key) {
  try {
    return localStorage.getItem(key);
  } catch (e) {
    return null;
  }
}

/**
 * The tab a record names, or "" where it names none (or is no record).
 * @param {string | null} raw
 * @returns {string}
 */
function tabOf(raw) {
  try {
    const v = JSON.parse(raw || "null");
    return v && typeof v === "object" && typeof v.tab === "string" ? v.tab : "";
  } catch (e) {
    return "";
  }
}

/** @returns {boolean} whether `STORE` holds this tab's record (or one of no tab) */
function ownsMain() {
  const t = tabOf(readKey(STORE));
  return t === "" || t === id;
}

/** @returns {string} where this tab's record is kept now */
export function myKey() {
  if (!id || ownsMain()) return STORE;
  return readKey(OTHER + id) !== null ? OTHER + id : STORE;
}

/** @returns {string | null} this tab's record, or null where it keeps none yet */
export function readMine() {
  if (!id) return readKey(STORE);
  if (ownsMain()) return readKey(STORE);
  return readKey(OTHER + id);
}

/**
 * The record a page that opens restores: its own after a reload, else the one kept last.
 * @returns {string}
 */
export function openingKey() {
  return reopened ? myKey() : STORE;
}

/** @returns {boolean} whether the record restored is another tab's (this tab takes a copy) */
export function openingCopy() {
  return !reopened && !ownsMain();
}

/**
 * Move the record of another tab out of `STORE` to that tab's key. Throws where the browser's
 * storage has no room for the move (the record then stays where it was).
 */
export function releaseMain() {
  const raw = readKey(STORE);
  const owner = tabOf(raw);
  if (!id || raw === null || owner === "" || owner === id) return;
  localStorage.setItem(OTHER + owner, raw);
  localStorage.removeItem(STORE);
}

/**
 * Keep this tab's record `text`: at `STORE`, the record of the tab that had it moved to its
 * own key first. Where there is no room for that move, this tab's record is kept at its own
 * key instead. Throws as `localStorage.setItem` does where there is no room even so.
 * @param {string} text the record, naming this tab
 */
export function writeMine(text) {
  if (!id) {
    localStorage.setItem(STORE, text);
    return;
  }
  try {
    releaseMain();
  } catch (e) {
    localStorage.setItem(OTHER + id, text);
    return;
  }
  localStorage.setItem(STORE, text);
  localStorage.removeItem(OTHER + id);
}

/**
 * The keys of the records of tabs closed since they were kept (none where the browser has no
 * Web Locks: every tab may then be open). Those that hold no game, or the same game as
 * another record, are dropped first.
 * @param {(raw: string) => string} gameOf the game a record holds ("" for none)
 * @returns {Promise<string[]>}
 */
export async function closedTabs(gameOf) {
  const l = locks();
  if (!l || !l.query) return [];
  let held;
  try {
    held = new Set(((await l.query()).held || []).map((/** @type {any} */ h) => h.name));
  } catch (e) {
    return [];
  }
  /** @type {Map<string, string>} key -> game */
  const games = new Map();
  /** @type {string[]} */
  const closed = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (!k || (k !== STORE && !k.startsWith(OTHER))) continue;
      games.set(k, gameOf(localStorage.getItem(k) || ""));
      if (k.startsWith(OTHER) && !held.has(LOCK + k.slice(OTHER.length))) closed.push(k);
    }
  } catch (e) {
    return [];
  }
  closed.sort();
  const kept = [];
  for (const k of closed) {
    const game = games.get(k) || "";
    const same = [...games].some(([other, g]) => other !== k && g === game);
    if (game === "" || same) {
      games.delete(k);
      try {
        localStorage.removeItem(k);
      } catch (e) {
        // Storage off.
      }
    } else kept.push(k);
  }
  return kept;
}
