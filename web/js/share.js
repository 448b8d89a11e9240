// Sharing: copy the position (FEN) or the game (PDN), or a link that opens either, and
// opening such a link when the page loads (docs/BOARD.md, "Share").
//
// A link is built on the page's own address (origin + path), so it works on the served page
// and on a static copy wherever it lives (/poolshark/index.html ...):
// - `?fen=FEN` opens a position (a `setup` request);
// - `#pdn=DATA` opens a whole game with its variations and notes: the PDN the board writes,
//   compressed with the browser's own CompressionStream("deflate-raw") and written in
//   base64url. It goes in the hash, not the query, because the hash is never sent to a server:
//   a long game makes no long request line (servers cap them), and the game stays between
//   the two people who share it.
//
// The link wins over the game kept from the last visit, but that game is not lost: it is put
// aside in localStorage (`poolshark-board-before-link`, one game: a later link puts aside the
// game then kept in its place, and moves the one before to the games set aside, js/store.js),
// and a note under the board offers it back, across reloads, until it is brought back or
// forgotten in words. A game with nothing in it, or the link's own game opened again, is not
// put aside. A link that cannot be opened
// leaves the kept game on the board, with an error in words ("the link could not be opened:
// ..."): one empty or damaged, one whose game inflates past what the board loads (read a
// piece at a time and stopped there, so that a deflate bomb costs no more than that), one
// whose position or game is over the board's limits (`hello`).

import { ui, $, update } from "./state.js";
import { send, overLimit } from "./socket.js";
import { showMessage } from "./messages.js";
import { sizeText } from "./pdn.js";
import { STORE, restore, setAside, moveAside, treeSig, stopKeeping, pathTo } from "./store.js";
import { releaseMain, tabId } from "./tabs.js";

// Where the game kept from the last visit is put aside when a link opens.
const STASH = "poolshark-board-before-link";

// ---------- base64url and deflate ----------

/**
 * Bytes as base64url (RFC 4648 §5), without padding.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
function toBase64url(bytes) {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * base64url text as bytes; throws on a character that is not base64url.
 * @param {string} text
 * @returns {Uint8Array<ArrayBuffer>}
 */
function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text))
    throw new Error("it has characters a link of this page never has (it was changed, or not copied whole)");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * A text compressed (raw deflate) and written in base64url, for a link.
 * @param {string} text
 * @returns {Promise<string>}
 */
export async function packText(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return toBase64url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

// How much of a link's compressed data goes into the inflater at a time: what comes out of
// it at once is at most about a thousand times that (deflate's largest ratio).
const PIECE = 1024;

/**
 * The text of `packText`'s output, of at most `limit` bytes; rejects, saying why in words,
 * when it is empty, cut short or damaged, or longer. It is inflated a piece at a time and
 * stopped past `limit`, so that a small link that inflates to gigabytes costs `limit`.
 * @param {string} packed
 * @param {number} [limit]
 * @returns {Promise<string>}
 */
export async function unpackText(packed, limit = Infinity) {
  if (!packed) throw new Error("it holds no game (nothing follows #pdn=)");
  const bytes = fromBase64url(packed);
  const inflater = new DecompressionStream("deflate-raw");
  const writer = inflater.writable.getWriter();
  const reader = inflater.readable.getReader();
  // Fed as it is read: each piece waits for the one before it to be taken.
  const feeding = (async () => {
    for (let i = 0; i < bytes.length; i += PIECE) await writer.write(bytes.subarray(i, i + PIECE));
    await writer.close();
  })();
  feeding.catch(() => {}); // its failure is the reader's too
  const damaged = () => new Error("its game is damaged or cut short (the link was changed, or not copied whole)");
  /** @type {Uint8Array[]} */
  const parts = [];
  let size = 0;
  for (;;) {
    let got;
    try {
      got = await reader.read();
    } catch (e) {
      throw damaged();
    }
    if (got.done) break;
    size += got.value.length;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw new Error(`its game is over ${sizeText(limit)}, more than the board loads`);
    }
    parts.push(got.value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(all);
  } catch (e) {
    throw damaged();
  }
}

// ---------- links ----------

/**
 * The page's own address, with no query or hash: links are built on it.
 * @returns {string}
 */
function pageAddress() {
  // A page opened from a file has the origin "null": its address is then the href's head.
  return location.origin === "null" ? location.href.split(/[?#]/)[0] : location.origin + location.pathname;
}

/**
 * A link that opens the position `fen`.
 * @param {string} fen
 * @returns {string}
 */
export function fenLink(fen) {
  return pageAddress() + "?fen=" + encodeURIComponent(fen);
}

/**
 * A link that opens the game `pdn`, at the move `path` leads to (the moves from the start, as
 * `load_pdn`'s `path`; none: the main line's end, where a link opens without one); a study's
 * (`pdn` all its chapters) at its chapter `chapter` (from 1; 0 for a lone game).
 * @param {string} pdn
 * @param {string[] | null} [path]
 * @param {number} [chapter]
 * @returns {Promise<string>}
 */
export async function pdnLink(pdn, path = null, chapter = 0) {
  const at = (chapter ? "&chapter=" + chapter : "") + (path ? "&path=" + path.map(encodeURIComponent).join(",") : "");
  return pageAddress() + "#pdn=" + (await packText(pdn)) + at;
}

/**
 * The move shown in `st` as a link's path, or null at the main line's end (a link's default).
 * @param {import("./types.js").StateMsg} st
 * @returns {string[] | null}
 */
function shownPath(st) {
  const nodes = new Map((st.nodes || []).map((n) => [n.id, n]));
  let end = (st.nodes || []).find((n) => n.parent === null || n.parent === undefined);
  while (end && end.children && end.children.length) end = nodes.get(end.children[0]);
  return end && end.id === st.node ? null : pathTo(st);
}

/**
 * The share link the page was opened with, if any: a game's with the move to show.
 * @returns {{kind: "fen", fen: string} | {kind: "pdn", packed: string, path: string[] | null, chapter: number} | null}
 */
function linkAtLoad() {
  const hash = location.hash.replace(/^#/, "");
  if (hash.startsWith("pdn=")) {
    const [packed, ...rest] = hash.slice(4).split("&");
    const p = rest.find((r) => r.startsWith("path="));
    /** @type {string[] | null} */
    let path = null;
    if (p !== undefined) {
      try {
        path = p.slice(5) === "" ? [] : p.slice(5).split(",").map(decodeURIComponent);
      } catch (e) {
        path = null; // a path that cannot be read: the game opens at its end
      }
    }
    // A study's link names its chapter shown.
    const c = rest.find((r) => r.startsWith("chapter="));
    const chapter = c ? Number(c.slice(8)) : 0;
    return { kind: "pdn", packed, path, chapter: Number.isInteger(chapter) && chapter >= 1 ? chapter : 0 };
  }
  const fen = new URLSearchParams(location.search).get("fen");
  if (fen !== null) return { kind: "fen", fen };
  return null;
}

/**
 * Whether a kept game is worth putting aside when the link's game `st` opens: one with a
 * move, a comment or a set-up position, and not the link's game itself as it opens (the same
 * link opened again, nothing played since).
 * @param {string | null} raw the kept record's JSON
 * @param {import("./types.js").StateMsg | null} st the state answering the link
 * @returns {boolean}
 */
function worthKeeping(raw, st) {
  let v;
  try {
    v = JSON.parse(raw || "null");
  } catch (e) {
    return false;
  }
  if (!v || typeof v !== "object") return false;
  if ((Array.isArray(v.tree) && v.tree.length > 0) || (Array.isArray(v.moves) && v.moves.length > 0)) return true;
  if (st && v.tree_sig === treeSig(st)) return false;
  if (Array.isArray(v.path) && v.path.length > 0) return true;
  if (st && typeof v.start_fen === "string" && v.start_fen !== st.start_fen && !v.pdn) return true;
  if (typeof v.pdn !== "string") return false;
  // The PDN less its tags and its result: a fresh game's is empty. A set-up position has a
  // FEN tag.
  const movetext = v.pdn.replace(/^\s*\[.*\]\s*$/gm, "").replace(/(^|\s)(\*|1-0|0-1|1\/2-1\/2)(?=\s|$)/g, " ");
  return movetext.trim() !== "" || /^\s*\[FEN /m.test(v.pdn);
}

/**
 * Open the link the page was opened with (`atLoad`, at the first state: instead of the kept
 * game), or one pasted into the address bar later (a new hash). False when there is none
 * (the caller restores the kept game).
 * @param {import("./types.js").StateMsg} st the state shown
 * @param {boolean} atLoad whether this is the first state of the page
 * @returns {boolean}
 */
export function openLink(st, atLoad) {
  const link = linkAtLoad();
  if (!link) {
    if (atLoad && putAside())
      update((ui) => {
        ui.linkNote = { text: "A game of yours was put aside when a link opened:", restorable: true };
      });
    return false;
  }
  // A reload from here on shows what the page then keeps, not the link again (which would
  // put the game played since aside in place of the one from the last visit).
  history.replaceState(null, "", pageAddress());
  update((ui) => {
    ui.link = { kind: link.kind, pending: true, atLoad };
  });
  if (link.kind === "fen") {
    /** @type {import("./types.js").Request} */
    const req = { type: "setup", fen: link.fen };
    const over = overLimit(req);
    if (over) linkFailed(st, `the link could not be opened: the position in it is ${sizeText(over.bytes)}, more than the board reads (${sizeText(over.limit)})`);
    else send(req, true);
    return true;
  }
  unpackText(link.packed, ui.limits.load_pdn).then(
    (pdn) => {
      /** @type {import("./types.js").Request} */
      const req = link.path ? { type: "load_pdn", pdn, path: link.path } : { type: "load_pdn", pdn };
      if (link.chapter) Object.assign(req, { study: true, game: link.chapter });
      const over = overLimit(req);
      if (over) {
        linkFailed(st, `the link could not be opened: its game is ${sizeText(over.bytes)}, more than the board loads (${sizeText(over.limit)})`);
        return;
      }
      update((ui) => {
        ui.pdnText = pdn;
        ui.pdnLoaded = true;
      });
      send(req, true);
    },
    (e) => linkFailed(st, "the link could not be opened: " + e.message)
  );
  return true;
}

/**
 * Whether a game is put aside.
 * @returns {boolean}
 */
function putAside() {
  try {
    return localStorage.getItem(STASH) !== null;
  } catch (e) {
    return false;
  }
}

/**
 * The link could not be opened: say why, and keep the game the page had (at load, the kept
 * one is restored; later, the board still shows it).
 * @param {import("./types.js").StateMsg | null} st the state shown
 * @param {string} why
 */
function linkFailed(st, why) {
  const atLoad = !!(ui.link && ui.link.atLoad);
  update((ui) => {
    ui.link = null;
  });
  showMessage("error", why + "; the game you had is kept");
  if (atLoad && st) restore(st);
}

/**
 * An `error` from the board: true when it answers the link being opened (it is then said).
 * @param {string} message the board's error
 * @returns {boolean}
 */
export function linkRefused(message) {
  if (!ui.link || !ui.link.pending) return false;
  const what = ui.link.kind === "fen" ? "the position of the link" : "the game of the link";
  linkFailed(ui.state, what + " could not be opened: " + message);
  return true;
}

/**
 * A state from the board, before the page keeps it: the one answering the link says it
 * opened, and the game kept until then (still in localStorage) is put aside.
 */
export function linkOnState() {
  const link = ui.link;
  if (!link || !link.pending) return;
  let kept = false;
  let replaced = false;
  try {
    // The game kept last, where it is another tab's, stays that tab's (js/tabs.js): this tab
    // would only have opened a copy of it.
    releaseMain();
    const raw = localStorage.getItem(STORE);
    kept = worthKeeping(raw, ui.state);
    if (kept && raw) {
      // A game put aside by an earlier link is not dropped for this one: it goes to the
      // games set aside (js/store.js), offered there as a file until forgotten in words.
      replaced = putAside();
      const room =
        !replaced ||
        moveAside(STASH, "When this link opened, the game put aside by an earlier link was moved here, beside the one put aside now.");
      // Moved, not copied: it fits where it was, where a copy beside it may not.
      localStorage.removeItem(STORE);
      try {
        if (!room) throw new Error("no room");
        localStorage.setItem(STASH, raw);
      } catch (e) {
        // No room even so: put aside where the page keeps what it could not load, said there.
        kept = false;
        setAside(raw, "When the link opened, your previous game could not be put aside as usual (the browser's storage is full).", STORE);
      }
    }
  } catch (e) {
    // Storage off: there is no kept game to lose.
  }
  const st = ui.state;
  const study = st && st.chapters && st.chapters.length > 1 ? `the study (chapter ${st.chapter} of ${st.chapters.length})` : "";
  const what = link.kind === "fen" ? "the position" : study || "the game";
  update((ui) => {
    ui.link = null;
    ui.linkNote = kept
      ? {
          text:
            "Opened " + what + " of the link. Your previous game is put aside, not lost" +
            (replaced ? " (the one put aside before is kept too: see the note below)" : "") + ":",
          restorable: true,
        }
      : putAside()
        ? { text: "Opened " + what + " of the link. A game of yours put aside before is still there:", restorable: true }
        : { text: "Opened " + what + " of the link.", restorable: false };
  });
}

/**
 * A kept record made this tab's (js/tabs.js); a text that is no record stays as it is.
 * @param {string} raw
 * @returns {string}
 */
function mine(raw) {
  try {
    const v = JSON.parse(raw);
    if (!v || typeof v !== "object" || Array.isArray(v)) return raw;
    v.tab = tabId() || undefined;
    return JSON.stringify(v);
  } catch (e) {
    return raw;
  }
}

/**
 * Bring back the game put aside: it becomes the kept game again (the one of the link is put
 * aside in its place) and the page reloads with it.
 */
function bringBack() {
  try {
    const aside = localStorage.getItem(STASH);
    if (!aside) throw new Error("nothing is put aside");
    const now = localStorage.getItem(STORE);
    // Swapped as moves, each into the room the other left; where that fails, as they were.
    localStorage.removeItem(STASH);
    localStorage.removeItem(STORE);
    try {
      localStorage.setItem(STORE, mine(aside));
      if (now) localStorage.setItem(STASH, now);
    } catch (e) {
      localStorage.removeItem(STORE);
      localStorage.setItem(STASH, aside);
      if (now) localStorage.setItem(STORE, now);
      throw e;
    }
  } catch (e) {
    showMessage("error", "the previous game could not be brought back: " + (e instanceof Error ? e.message : String(e)));
    return;
  }
  // Nothing this page still hears is saved over the game brought back.
  stopKeeping();
  location.replace(pageAddress());
}

// ---------- copying ----------

/**
 * Copy `text` to the clipboard and say so; where the browser refuses, the text is left
 * selected in the share box for a Ctrl+C. Either way the box shows what was copied.
 * @param {string} text
 * @param {string} what its name, for the note ("FEN", "PDN", "link to the game" ...)
 * @returns {Promise<void>}
 */
export async function copyText(text, what) {
  let refused = "";
  try {
    if (!navigator.clipboard || !navigator.clipboard.writeText) throw new Error("this browser has no clipboard for pages");
    await navigator.clipboard.writeText(text);
  } catch (e) {
    refused = (e instanceof Error && e.message) || String(e);
  }
  update((ui) => {
    ui.share = refused
      ? { note: "The browser refused the clipboard (" + refused + "): the " + what + " is selected below, press Ctrl+C (⌘C) to copy it.", text, select: true }
      : { note: what + " copied", text, select: false };
  });
  // After the render the update scheduled (a microtask queued before this one) shows it.
  if (refused)
    queueMicrotask(() => {
      const box = /** @type {HTMLTextAreaElement} */ ($("share-box"));
      box.focus();
      box.select();
    });
}

/**
 * The answer to a `save_pdn` asked for by this module.
 * @param {"copy" | "link"} purpose
 * @param {string} pdn
 */
export function onSharePdn(purpose, pdn) {
  if (purpose === "copy") {
    copyText(pdn, "PDN");
    return;
  }
  const st = ui.state;
  const chapter = st && st.chapters && st.chapters.length > 1 ? st.chapter : 0;
  pdnLink(pdn, st ? shownPath(st) : null, chapter).then(
    (link) => copyText(link, "link to the game"),
    (e) => update((ui) => {
      ui.share = { note: "no link could be made: " + e.message, text: null, select: false };
    })
  );
}

/**
 * Ask the board for the game's PDN, for `purpose`.
 * @param {"copy" | "link"} purpose
 */
function askPdn(purpose) {
  update((ui) => {
    ui.pdnFor.push(purpose);
  });
  send({ type: "save_pdn" });
}

/** The share panel and the note after a link opened, drawn from `ui` (js/render.js). */
export function renderShare() {
  const ok = ui.connected && !!ui.state;
  for (const id of ["copy-fen", "copy-pdn", "copy-fen-link", "copy-pdn-link"]) $(id).disabled = !ok;
  $("share-note").textContent = ui.share.note;
  const box = /** @type {HTMLTextAreaElement} */ ($("share-box"));
  box.hidden = ui.share.text === null;
  if (ui.share.text !== null && box.value !== ui.share.text) box.value = ui.share.text;
  const n = ui.linkNote;
  $("link-note").hidden = !n;
  if (n) {
    $("link-note-text").textContent = n.text;
    $("link-restore").hidden = !n.restorable;
    $("link-dismiss").textContent = n.restorable ? "forget it" : "✕";
    $("link-dismiss").title = n.restorable ? "forget the game put aside" : "hide this note";
  }
}

/** The share panel's buttons, the note's, and a game link pasted into the address bar. */
export function wireShare() {
  $("copy-fen").addEventListener("click", () => {
    if (ui.state) copyText(ui.state.fen, "FEN");
  });
  $("copy-fen-link").addEventListener("click", () => {
    if (ui.state) copyText(fenLink(ui.state.fen), "link to the position");
  });
  $("copy-pdn").addEventListener("click", () => askPdn("copy"));
  $("copy-pdn-link").addEventListener("click", () => askPdn("link"));
  $("link-restore").addEventListener("click", bringBack);
  // A game link pasted into the address bar of a tab that shows the page already changes
  // only the hash: the page does not load again, so it opens the link itself.
  window.addEventListener("hashchange", () => {
    if (ui.state && !ui.link) openLink(ui.state, false);
  });
  // Forgetting is asked for in words: the game put aside is gone after it.
  $("link-dismiss").addEventListener("click", () => {
    if (ui.linkNote && ui.linkNote.restorable) {
      try {
        localStorage.removeItem(STASH);
      } catch (e) {
        // Nothing is kept where storage is off.
      }
    }
    update((ui) => {
      ui.linkNote = null;
    });
  });
}
