// The poolshark board page: draws the board (SVG) from the server's `state` messages and
// turns clicks into requests. The server owns the game and checks every request; this page
// never decides what is legal, it only shows the `legal` list it was sent.
"use strict";

(function () {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const CELL = 100; // the SVG viewBox is 8 cells of 100 units

  // Everything the page knows. `state` is the last state message, untouched.
  const ui = {
    ws: null,
    connected: false,
    state: null,
    flipped: null, // null until the first state: then from the saved settings or the players
    selected: null, // square number of the selected piece
    choice: null, // the legal moves offered by the capture chooser (R15)
    preview: null, // the legal move whose path and captures are drawn
    setup: null, // {pieces: {square: "b"|"B"|"w"|"W"}, sent: bool} while placing pieces
    info: null, // the last `info` message for the position shown (the best line)
    lines: [], // the last `info` of each analysis line (multipv 1..3), best first
    multipv: 1, // analysis lines asked for (1-3), kept in localStorage
    review: null, // {sig, plies: {ply: {score, best, mark}}, total, running, stopped, done}
    palette: "b", // the piece setup places ("" erases)
    pv: null, // {hubs, pdn, upto, pinned}: a line of the analysis shown on the board
    anim: null, // {frames: [pieces...], step, timer}: a capture being shown jump by jump
    restored: false, // the saved game was offered to the server (once, at the first state)
    pdnText: "", // the last PDN text sent, for choosing another of its games
  };

  // Milliseconds per jump when a capture is shown step by step (a test may slow it down).
  const animMs = () => Number(window.boardAnimMs || 450);
  const STORE = "poolshark-board";

  const $ = (id) => document.getElementById(id);

  // ---------- geometry (docs/RULES.md R2) ----------

  // Square n (1-32) as a row and column seen from White's side: row 0 is the far row, which
  // holds 1-4 on the files b, d, f, h; row 7 holds 29-32 on a, c, e, g.
  function squareCell(n) {
    const r = Math.floor((n - 1) / 4);
    const c = 2 * ((n - 1) % 4) + (r % 2 === 0 ? 1 : 0);
    return ui.flipped ? { r: 7 - r, c: 7 - c } : { r, c };
  }

  // The row and column of square n seen from White's side, whatever the board's turn.
  function fixedCell(n) {
    const r = Math.floor((n - 1) / 4);
    return { r, c: 2 * ((n - 1) % 4) + (r % 2 === 0 ? 1 : 0) };
  }

  function squareCentre(n) {
    const { r, c } = squareCell(n);
    return { x: c * CELL + CELL / 2, y: r * CELL + CELL / 2 };
  }

  // ---------- the socket ----------

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(proto + "://" + location.host + "/ws");
    ui.ws = ws;
    ws.addEventListener("open", () => {
      ui.connected = true;
      setConn("connected", "connected");
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (e) {
        showMessage("error", "the server sent something that is not JSON");
        return;
      }
      onMessage(msg);
    });
    ws.addEventListener("close", () => {
      ui.connected = false;
      setConn("disconnected", "disconnected: reload the page to start again");
      $("status").textContent = "disconnected";
      renderControls();
    });
    ws.addEventListener("error", () => {
      // A close event follows; it says what the user needs to know.
    });
  }

  function send(msg) {
    if (!ui.ws || ui.ws.readyState !== WebSocket.OPEN) {
      showMessage("error", "not connected to the server");
      return;
    }
    ui.ws.send(JSON.stringify(msg));
  }

  function setConn(cls, text) {
    const c = $("conn");
    c.className = "conn " + cls;
    c.textContent = text;
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "hello":
        $("conn").title = "poolshark " + (msg.version || "");
        break;
      case "state":
        onState(msg);
        break;
      case "info": {
        const k = Number(msg.multipv || 1);
        if (k === 1) ui.info = msg;
        if (k === 1 && !msg.multipv) ui.lines = [msg];
        else ui.lines[k - 1] = msg;
        ui.lines.length = Math.min(ui.lines.length, ui.multipv);
        renderInfo();
        if (!ui.pv && !ui.anim) renderBoard(); // the arrow of the best move
        break;
      }
      case "review_ply":
        onReviewPly(msg);
        break;
      case "review_done":
        onReviewDone(msg);
        break;
      case "games":
        onGames(msg);
        break;
      case "pdn":
        onPdn(msg.pdn || "");
        break;
      case "error":
        if (ui.setup) ui.setup.sent = false;
        showMessage("error", msg.message || "error");
        break;
      case "pong":
        break;
      default:
        // A newer server may say more; nothing here depends on it.
        break;
    }
  }

  function onState(st) {
    const old = ui.state;
    ui.state = st;
    if (ui.flipped === null) ui.flipped = flipFor(modeOf(st), false);
    if (!ui.restored) {
      ui.restored = true;
      restore(st);
    } else {
      save(st);
    }
    if (old && st.ply === old.ply + 1 && st.history[st.ply - 1]) startAnim(old, st);
    else if (!old || old.fen !== st.fen) stopAnim();
    // How many states arrived: lets a test wait for the answer to its own request.
    const board = $("board");
    board.dataset.states = String(Number(board.dataset.states || 0) + 1);
    // The placed position was accepted; a rejected one leaves setup open to fix it.
    if (ui.setup && ui.setup.sent) ui.setup = null;
    if (!old || old.fen !== st.fen || old.ply !== st.ply) {
      ui.selected = null;
      closeChooser();
      // The last search was of another position; analysis restarts in the new one.
      ui.info = null;
      ui.lines = [];
      closePv();
    }
    // A review is of one line of play: another line drops it.
    if (ui.review && !ui.review.running && ui.review.sig !== historySig(st)) ui.review = null;
    if (ui.selected !== null && !legalFrom(ui.selected).length) {
      ui.selected = null;
    }
    render();
  }

  // A PDN of several games: offer them all, and say which one is shown.
  function onGames(msg) {
    const sel = $("games");
    sel.textContent = "";
    for (const g of msg.games || []) {
      const t = g.tags || {};
      const o = document.createElement("option");
      o.value = String(g.number);
      const names = [t.Black, t.White].filter(Boolean).join(" – ");
      o.textContent =
        g.number + ". " + [names, t.Event, t.Date, t.Result].filter(Boolean).join(", ") + " (" + g.plies + " plies)";
      sel.appendChild(o);
    }
    sel.value = String(msg.loaded);
    $("games-row").hidden = false;
    $("games-note").textContent = "game " + msg.loaded + " of " + (msg.games || []).length + " loaded";
    showMessage("note", "the PDN holds " + (msg.games || []).length + " games: game " + msg.loaded + " is shown; choose another in the PDN panel");
  }

  // ---------- keeping the game across a reload (localStorage) ----------

  function save(st) {
    try {
      localStorage.setItem(
        STORE,
        JSON.stringify({
          start_fen: st.start_fen,
          moves: st.history.map((h) => h.hub),
          ply: st.ply,
          white: st.white,
          black: st.black,
          level: st.level,
          flipped: ui.flipped,
          analyzing: st.analyzing,
          multipv: ui.multipv,
        })
      );
    } catch (e) {
      // Storage may be off (private windows): the page works without it.
    }
  }

  function loadSaved() {
    try {
      const v = JSON.parse(localStorage.getItem(STORE) || "null");
      return v && Array.isArray(v.moves) && typeof v.start_fen === "string" ? v : null;
    } catch (e) {
      return null;
    }
  }

  // The first state of a connection is a fresh game: replay the saved one into it.
  function restore(st) {
    const v = loadSaved();
    if (!v) {
      save(st);
      return;
    }
    if (typeof v.flipped === "boolean") ui.flipped = v.flipped;
    if ([1, 2, 3].includes(v.multipv)) {
      ui.multipv = v.multipv;
      $("multipv").value = String(v.multipv);
    }
    const l = v.level || {};
    if (l.depth) send({ type: "level", depth: l.depth });
    else if (l.movetime) send({ type: "level", movetime: l.movetime });
    if (v.moves.length || v.start_fen !== st.start_fen) {
      send({ type: "setup", fen: v.start_fen });
      for (const m of v.moves) send({ type: "move", move: m });
      if (v.ply < v.moves.length) send({ type: "goto", ply: v.ply });
    }
    send({ type: "players", white: v.white === "engine" ? "engine" : "human", black: v.black === "engine" ? "engine" : "human" });
    if (v.analyzing) send(analyzeRequest(true));
  }

  // ---------- a capture shown jump by jump ----------

  // The captured square of each jump of `path`: the one on the diagonal between its ends.
  function jumpOrder(path, captured) {
    const out = [];
    for (let j = 0; j + 1 < path.length; j++) {
      const a = fixedCell(path[j]);
      const b = fixedCell(path[j + 1]);
      const hit = captured.find((sq) => {
        const c = fixedCell(sq);
        const t = (c.r - a.r) / (b.r - a.r);
        return t > 0 && t < 1 && Math.abs(a.c + t * (b.c - a.c) - c.c) < 1e-9;
      });
      out.push(hit === undefined ? null : hit);
    }
    return out;
  }

  function startAnim(old, st) {
    stopAnim();
    const h = st.history[st.ply - 1];
    if (!h || !h.captured || !h.captured.length || !h.path || h.path.length < 2) return;
    const order = jumpOrder(h.path, h.captured);
    const mover = old.pieces[String(h.path[0])];
    if (!mover) return;
    const frames = [];
    let pieces = Object.assign({}, old.pieces);
    delete pieces[String(h.path[0])];
    for (let j = 0; j < h.path.length; j++) {
      const f = Object.assign({}, pieces);
      f[String(h.path[j])] = mover;
      frames.push(f);
      if (j < order.length && order[j] !== null) {
        pieces = Object.assign({}, pieces);
        delete pieces[String(order[j])];
      }
    }
    ui.anim = { frames, step: 0, timer: null };
    const tick = () => {
      if (!ui.anim) return;
      ui.anim.step++;
      if (ui.anim.step >= ui.anim.frames.length) {
        ui.anim = null;
      } else {
        ui.anim.timer = setTimeout(tick, animMs());
      }
      renderBoard();
    };
    ui.anim.timer = setTimeout(tick, animMs());
  }

  function stopAnim() {
    if (ui.anim && ui.anim.timer) clearTimeout(ui.anim.timer);
    ui.anim = null;
  }

  // ---------- a line of the analysis on the board ----------

  // The pieces after a move in Hub notation (from-to, or from x to x each piece taken).
  function applyHub(pieces, hub) {
    const parts = hub.split(/[-x]/).map(Number);
    const from = parts[0];
    const to = parts[1];
    const out = Object.assign({}, pieces);
    let p = out[String(from)];
    delete out[String(from)];
    if (hub.includes("x")) for (const c of parts.slice(2)) delete out[String(c)];
    if (p === "b" && to >= 29) p = "B"; // R14: a man crowns on the far row
    if (p === "w" && to <= 4) p = "W";
    if (p) out[String(to)] = p;
    return out;
  }

  function showPv(k, pinned, line) {
    line = line || 0;
    const i = ui.lines[line] || (line === 0 ? ui.info : null);
    if (!ui.state || !i || !i.pv || !i.pv.length) return;
    const same = ui.pv && ui.pv.pinned && pinned && ui.pv.line === line;
    ui.pv = {
      hubs: same ? ui.pv.hubs : i.pv.slice(),
      pdn: same ? ui.pv.pdn : (i.pv_pdn || i.pv).slice(),
      upto: k,
      line,
      pinned: pinned || (ui.pv && ui.pv.pinned) || false,
      timer: ui.pv && ui.pv.timer,
    };
    renderPvBoard();
  }

  function closePv() {
    if (ui.pv && ui.pv.timer) clearInterval(ui.pv.timer);
    ui.pv = null;
  }

  function renderPvBoard() {
    renderBoard();
    renderStatus();
    markPv();
    const tools = $("pv-tools");
    tools.hidden = !ui.pv;
    if (ui.pv) $("pv-note").textContent = "showing the line after " + ui.pv.pdn[ui.pv.upto];
  }

  function markPv() {
    document.querySelectorAll("#lines .pv-move").forEach((e) => {
      e.classList.toggle(
        "shown",
        !!ui.pv && Number(e.dataset.index) === ui.pv.upto && Number(e.dataset.line) === ui.pv.line
      );
    });
  }

  function pvPieces() {
    let p = ui.state.pieces;
    for (let k = 0; k <= ui.pv.upto && k < ui.pv.hubs.length; k++) p = applyHub(p, ui.pv.hubs[k]);
    return p;
  }

  function onPdn(text) {
    $("pdn-input").value = text;
    const blob = new Blob([text], { type: "application/x-chess-pdn" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "poolshark.pdn";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    showMessage("note", "PDN saved (poolshark.pdn), and shown in the PDN box");
  }

  // ---------- messages ----------

  function showMessage(kind, text) {
    const box = $("messages");
    const div = document.createElement("div");
    div.className = "msg " + kind;
    div.textContent = text;
    box.prepend(div);
    while (box.children.length > 4) box.lastChild.remove();
  }

  function clearMessages() {
    $("messages").textContent = "";
  }

  // ---------- moves ----------

  function legalFrom(sq) {
    if (!ui.state) return [];
    return ui.state.legal.filter((m) => m.from === sq);
  }

  function canMove() {
    const st = ui.state;
    return ui.connected && st && !st.result && !st.thinking && st.legal.length > 0;
  }

  function onSquareClick(sq) {
    if (ui.setup) {
      placeSetupPiece(sq);
      return;
    }
    if (ui.pv) {
      closePv();
      renderPvBoard();
    }
    if (ui.choice) closeChooser();
    if (!ui.state) return;
    if (ui.state.thinking) {
      showMessage("note", "the engine is thinking; press stop to interrupt it");
      return;
    }
    if (!canMove()) return;
    if (ui.selected !== null) {
      const moves = legalFrom(ui.selected).filter((m) => m.to === sq);
      // A capture round a circle ends where it started: a second click on the piece plays it.
      if (moves.length === 1) {
        play(moves[0]);
        return;
      }
      if (moves.length > 1) {
        openChooser(moves);
        return;
      }
      if (sq === ui.selected) {
        ui.selected = null;
        render();
        return;
      }
    }
    if (legalFrom(sq).length) {
      ui.selected = sq;
    } else {
      ui.selected = null;
      const p = ui.state.pieces[String(sq)];
      if (p && ui.state.legal.length && isMoverPiece(p)) {
        const captures = ui.state.legal.some((m) => m.captured.length);
        showMessage("note", captures ? "a capture is compulsory (R8)" : "that piece cannot move");
      }
    }
    render();
  }

  function isMoverPiece(p) {
    return (ui.state.side === "black") === (p === "b" || p === "B");
  }

  function play(m) {
    ui.selected = null;
    closeChooser();
    clearMessages();
    send({ type: "move", move: m.hub });
    render();
  }

  // The R15 chooser: same origin and destination, different pieces taken.
  function openChooser(moves) {
    ui.choice = moves.slice().sort((a, b) => (a.hub < b.hub ? -1 : a.hub > b.hub ? 1 : 0));
    ui.preview = ui.choice[0];
    const box = $("chooser-options");
    box.textContent = "";
    ui.choice.forEach((m, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "choice";
      b.id = "choice-" + i;
      b.dataset.hub = m.hub;
      b.dataset.captured = m.captured.join(",");
      b.textContent = m.path.join("x") + "  takes " + m.captured.join(", ");
      const show = () => {
        ui.preview = m;
        renderBoard();
        markChoice();
      };
      b.addEventListener("mouseenter", show);
      b.addEventListener("focus", show);
      b.addEventListener("click", () => play(m));
      box.appendChild(b);
    });
    $("chooser").hidden = false;
    $("chooser").scrollIntoView({ block: "nearest" });
    markChoice();
    renderBoard();
  }

  function markChoice() {
    document.querySelectorAll("#chooser-options .choice").forEach((b) => {
      b.classList.toggle("shown", ui.preview && b.dataset.hub === ui.preview.hub);
    });
  }

  function closeChooser() {
    ui.choice = null;
    ui.preview = null;
    $("chooser").hidden = true;
  }

  // ---------- setup mode ----------


  function startSetup() {
    const pieces = {};
    if (ui.state) Object.assign(pieces, ui.state.pieces);
    ui.setup = { pieces, sent: false };
    ui.selected = null;
    closeChooser();
    $("setup-side").value = ui.state && ui.state.side === "white" ? "W" : "B";
    render();
  }

  // The palette's piece on the square; the same piece again empties it.
  function placeSetupPiece(sq) {
    const key = String(sq);
    const cur = ui.setup.pieces[key] || "";
    const next = cur === ui.palette ? "" : ui.palette;
    if (next) ui.setup.pieces[key] = next;
    else delete ui.setup.pieces[key];
    renderBoard();
  }

  function markPalette() {
    document.querySelectorAll("#palette .pal").forEach((b) => {
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", b.dataset.piece === ui.palette ? "true" : "false");
    });
  }

  // What is wrong with the placed pieces, in words, or null (RULES.md R4: each side has a
  // piece; a man never stands on its crowning row).
  function setupProblem() {
    const p = ui.setup.pieces;
    const sq = Object.keys(p).map(Number);
    const has = (c) => sq.some((n) => p[n].toLowerCase() === c);
    if (!has("b") || !has("w")) return "place at least one piece of each colour (black and white) before pressing done";
    const bad = sq.filter((n) => (p[n] === "b" && n >= 29) || (p[n] === "w" && n <= 4));
    if (bad.length)
      return "a man on its crowning row is a king (R14): make the man on " + bad.join(", ") + " a king, or move it";
    return null;
  }

  // A PDN FEN (RULES.md R4) of the pieces placed: "B:W21,K30:B1,K2".
  function setupFen() {
    const list = (colour) =>
      Object.keys(ui.setup.pieces)
        .map(Number)
        .sort((a, b) => a - b)
        .filter((sq) => ui.setup.pieces[sq].toLowerCase() === colour)
        .map((sq) => (ui.setup.pieces[sq] === colour ? "" : "K") + sq)
        .join(",");
    return $("setup-side").value + ":W" + list("w") + ":B" + list("b");
  }

  function endSetup() {
    ui.setup = null;
    render();
  }

  // ---------- drawing ----------

  function el(tag, attrs, parent) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  // The move that led to the position shown, if any.
  function lastMove() {
    const st = ui.state;
    if (!st || st.ply < 1 || !st.history[st.ply - 1]) return null;
    const h = st.history[st.ply - 1];
    const parts = (h.hub || "").split(/[-x]/).map(Number);
    return {
      from: parts[0],
      to: parts[1],
      path: h.path && h.path.length ? h.path : [parts[0], parts[1]],
      captured: h.captured || [],
    };
  }

  function drawArrow(svg, from, to) {
    const a = squareCentre(from);
    const b = squareCentre(to);
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len;
    const uy = dy / len;
    const tip = { x: b.x - ux * 18, y: b.y - uy * 18 };
    const base = { x: tip.x - ux * 34, y: tip.y - uy * 34 };
    const g = el("g", { class: "best-arrow", "data-from": from, "data-to": to }, svg);
    el("line", { x1: a.x, y1: a.y, x2: base.x, y2: base.y, class: "arrow" }, g);
    el("polygon", {
      points: [tip.x + "," + tip.y, base.x - uy * 22 + "," + (base.y + ux * 22), base.x + uy * 22 + "," + (base.y - ux * 22)].join(" "),
      class: "arrowhead",
    }, g);
  }

  function renderBoard() {
    const svg = $("board");
    svg.textContent = "";
    svg.classList.toggle("setup", !!ui.setup);
    svg.classList.toggle("preview", !!ui.pv && !ui.setup);
    svg.dataset.animStep = ui.anim ? String(ui.anim.step) : "";
    el("rect", { x: 0, y: 0, width: 800, height: 800, class: "light" }, svg);

    let pieces = ui.setup ? ui.setup.pieces : ui.state ? ui.state.pieces : {};
    if (!ui.setup && ui.pv) pieces = pvPieces();
    else if (!ui.setup && ui.anim) pieces = ui.anim.frames[ui.anim.step];
    const lm = ui.setup || ui.pv ? null : lastMove();
    const last = lm ? [lm.from, lm.to] : [];
    // The men the last move took, shown faintly where they stood once it is played.
    const gone = lm && !ui.anim ? new Set(lm.captured) : new Set();
    const mover = lm && ui.state.pieces[String(lm.to)];
    const goneColour = mover && (mover === "b" || mover === "B") ? "w" : "b";
    const targets = new Set(ui.selected !== null ? legalFrom(ui.selected).map((m) => m.to) : []);
    const preview = ui.preview ? new Set(ui.preview.captured) : new Set();

    for (let n = 1; n <= 32; n++) {
      const { r, c } = squareCell(n);
      const x = c * CELL;
      const y = r * CELL;
      const g = el("g", { "data-square": n, class: "square" }, svg);
      el("rect", { x, y, width: CELL, height: CELL, class: "dark" }, g);
      if (last.includes(n)) {
        el("rect", { x, y, width: CELL, height: CELL, class: n === lm.to ? "last-to" : "last-from" }, g);
        g.setAttribute("data-last", n === lm.to ? "to" : "from");
      }
      if (n === ui.selected) el("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, class: "selected" }, g);
      const num = el("text", { x: x + 5, y: y + 17, class: "num" }, g);
      num.textContent = n;
      const p = pieces[String(n)];
      if (p) {
        g.setAttribute("data-piece", p);
        drawPiece(g, x + CELL / 2, y + CELL / 2, p);
      }
      if (targets.has(n)) {
        if (p) el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 44, class: "target-ring" }, g);
        else el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 15, class: "target" }, g);
        g.setAttribute("data-target", "1");
      }
      if (preview.has(n)) {
        el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 44, class: "taken" }, g);
        g.setAttribute("data-taken", "1");
      }
      if (gone.has(n) && !p) {
        const ghost = el("g", { class: "ghost" }, g);
        drawPiece(ghost, x + CELL / 2, y + CELL / 2, goneColour);
        el("line", { x1: x + 28, y1: y + 28, x2: x + 72, y2: y + 72, class: "cross" }, g);
        el("line", { x1: x + 72, y1: y + 28, x2: x + 28, y2: y + 72, class: "cross" }, g);
        g.setAttribute("data-captured-last", "1");
      }
    }
    // The last capture's path, jump by jump.
    if (lm && lm.captured.length && lm.path.length >= 2) {
      const pts = lm.path.map((sq) => {
        const c = squareCentre(sq);
        return c.x + "," + c.y;
      });
      el("polyline", { points: pts.join(" "), class: "last-path" }, svg);
    }
    // The best move of the analysis (or of the engine's thinking) as an arrow.
    if (!ui.setup && !ui.pv && !ui.anim && ui.info && ui.info.pv && ui.info.pv.length) {
      const parts = ui.info.pv[0].split(/[-x]/).map(Number);
      if (parts.length >= 2) drawArrow(svg, parts[0], parts[1]);
    }

    // Capture paths: every capture of the selected piece faintly, the previewed one boldly.
    const paths = [];
    if (ui.preview) paths.push([ui.preview, "path bold"]);
    else if (ui.selected !== null)
      legalFrom(ui.selected)
        .filter((m) => m.captured.length && m.path.length > 2)
        .forEach((m) => paths.push([m, "path"]));
    for (const [m, cls] of paths) {
      const pts = m.path.map((sq) => {
        const p = squareCentre(sq);
        return p.x + "," + p.y;
      });
      el("polyline", { points: pts.join(" "), class: cls }, svg);
    }
  }

  function drawPiece(g, cx, cy, p) {
    const white = p === "w" || p === "W";
    const cls = white ? "piece white" : "piece black";
    el("circle", { cx, cy: cy + 4, r: 38, class: "shadow" }, g);
    el("circle", { cx, cy, r: 38, class: cls }, g);
    el("circle", { cx, cy, r: 27, class: cls + " inner" }, g);
    if (p === "W" || p === "B") {
      // A crown: the king must read as a king at a glance, in either colour.
      const d =
        `M${cx - 19},${cy + 11} L${cx - 22},${cy - 12} L${cx - 10},${cy - 1} ` +
        `L${cx},${cy - 17} L${cx + 10},${cy - 1} L${cx + 22},${cy - 12} L${cx + 19},${cy + 11} Z`;
      el("path", { d, class: "crown" }, g);
      el("rect", { x: cx - 19, y: cy + 13, width: 38, height: 5, class: "crown" }, g);
    }
  }

  const SIDE = { black: "Black", white: "White" };

  function statusText() {
    const st = ui.state;
    if (!ui.connected && st) return "disconnected";
    if (!st) return "connecting…";
    if (ui.setup) return "Setting up: choose a piece, click squares, then press done";
    if (ui.pv) return "Showing the analysis line after " + ui.pv.pdn[ui.pv.upto] + " (not played): Esc to go back";
    let s;
    if (st.result) {
      const w = st.result.winner;
      s = "Game over: " + (w ? SIDE[w] + " wins" : "draw") + ": " + st.result.reason;
    } else if (st.thinking) {
      s = SIDE[st.side] + " (engine) is thinking…";
    } else if (st[st.side] === "engine") {
      s = SIDE[st.side] + " to move (engine): press “engine move”";
    } else {
      s = SIDE[st.side] + " to move";
    }
    if (st.ply < st.history.length) {
      // In moves as the list numbers them (a move is a ply by each side, Black first).
      const off = startOffset(st);
      const total = Math.floor((st.history.length - 1 + off) / 2) + 1;
      s += st.ply === 0 ? " · at the start (" + total + " moves)" : " · at move " + (Math.floor((st.ply - 1 + off) / 2) + 1) + " of " + total;
    }
    return s;
  }

  function renderStatus() {
    const st = ui.state;
    const box = $("status");
    box.textContent = statusText();
    box.classList.toggle("over", !!(st && st.result));
    box.classList.toggle("thinking", !!(st && st.thinking));

    const counts = $("counts");
    counts.textContent = "";
    if (st && st.counts && !ui.setup) {
      const c = st.counts;
      const parts = [];
      if (c.forty !== null && c.forty !== undefined && c.forty > 0)
        parts.push(["count-forty", "40-move rule (R18): " + moves(c.forty) + " of " + moves(c.forty_limit) + " moves"]);
      if (c.thirteen !== null && c.thirteen !== undefined)
        parts.push(["count-thirteen", "13-move rule (R19): " + moves(c.thirteen) + " of " + moves(c.thirteen_limit) + " moves"]);
      for (const [id, text] of parts) {
        const span = document.createElement("span");
        span.id = id;
        span.textContent = text;
        counts.appendChild(span);
      }
    }
  }

  // Counts arrive in plies; players count moves (one move = one ply by each side).
  function moves(plies) {
    return plies % 2 === 0 ? String(plies / 2) : (plies / 2).toFixed(1);
  }

  function renderMoves() {
    const box = $("moves");
    box.textContent = "";
    const st = ui.state;
    if (!st) return;
    const start = document.createElement("span");
    start.className = "move start" + (st.ply === 0 ? " current" : "");
    start.dataset.ply = "0";
    start.id = "ply-0";
    start.textContent = "start";
    box.appendChild(start);
    // Black moves first (R3); a game set up with White to move starts "1. ... move".
    const offset = startOffset(st);
    let row = null;
    st.history.forEach((h, i) => {
      const idx = i + offset;
      if (row === null || idx % 2 === 0) {
        row = document.createElement("div");
        row.className = "move-row";
        const no = document.createElement("span");
        no.className = "move-no";
        no.textContent = Math.floor(idx / 2) + 1 + ".";
        row.appendChild(no);
        if (idx % 2 === 1) {
          const dots = document.createElement("span");
          dots.className = "move-dots";
          dots.textContent = "…";
          row.appendChild(dots);
        }
        box.appendChild(row);
      }
      const m = document.createElement("span");
      m.className = "move" + (st.ply === i + 1 ? " current" : "") + (i + 1 > st.ply ? " ahead" : "");
      m.dataset.ply = String(i + 1);
      m.id = "ply-" + (i + 1);
      m.textContent = h.pdn;
      const r = ui.review && ui.review.plies[i + 1];
      if (r && r.mark) {
        const mk = document.createElement("span");
        mk.className = "mark mark-" + MARKS[r.mark];
        mk.textContent = r.mark;
        mk.title = MARKS[r.mark] + "; best " + r.best;
        m.appendChild(mk);
      }
      row.appendChild(m);
    });
    if (st.result) {
      const r = document.createElement("div");
      r.className = "move-result";
      r.id = "result";
      const w = st.result.winner;
      r.textContent = (w === "white" ? "1-0" : w === "black" ? "0-1" : "1/2-1/2") + " " + st.result.reason;
      box.appendChild(r);
    }
    // Keep the current move in view by scrolling the list only (scrollIntoView would move
    // the whole page as well).
    const cur = box.querySelector(".current");
    if (cur) {
      const top = cur.offsetTop;
      if (top < box.scrollTop || top + cur.offsetHeight > box.scrollTop + box.clientHeight)
        box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }

  // Black (0) or White (1) to move at the start of the game.
  function startOffset(st) {
    return (st.start_fen || "B").trim().charAt(0).toUpperCase() === "W" ? 1 : 0;
  }

  // Who is to move after `ply` plies of the game.
  function sideAt(st, ply) {
    return (ply + startOffset(st)) % 2 === 0 ? "black" : "white";
  }

  // What is known of the position shown, for Black: {text, share (0..1 of the bar), kind}.
  function verdict() {
    const st = ui.state;
    if (!st) return null;
    if (st.result) {
      const w = st.result.winner;
      if (!w) return { text: "draw (proved)", bar: "=", share: 0.5, kind: "result" };
      return { text: SIDE[w] + " has won", bar: w === "black" ? "1-0" : "0-1", share: w === "black" ? 1 : 0, kind: "result" };
    }
    if (st.egdb) {
      const v = st.egdb.black;
      if (v === "draw") return { text: "draw (proved)", bar: "=", share: 0.5, kind: "egdb" };
      return { text: v === "win" ? "Black wins" : "Black loses", bar: v === "win" ? "DB+" : "DB−", share: v === "win" ? 1 : 0, kind: "egdb" };
    }
    const i = ui.info;
    if (!i) return null;
    const s = String(i.score_black !== undefined ? i.score_black : i.score);
    const v = Number(s);
    const share = Math.abs(v) >= 80 ? (v > 0 ? 0.98 : 0.02) : 1 / (1 + Math.exp(-0.9 * v));
    return { text: "Black " + scoreText(s), bar: scoreText(s), share, kind: "search" };
  }

  function renderEvalBar() {
    const v = ui.setup ? null : verdict();
    const bar = $("evalbar");
    // Black's share grows from Black's side of the board.
    bar.classList.toggle("flipped", !ui.flipped);
    const share = v ? v.share : 0.5;
    $("evalbar-black").style.flex = "0 0 " + (100 * share).toFixed(1) + "%";
    $("evalbar-white").style.flex = "1 1 0";
    $("evalbar-text").textContent = v ? v.bar : "";
    bar.dataset.share = share.toFixed(3);
    bar.title = v ? v.text + " (scores for Black)" : "evaluation, for Black";
  }

  // Every analysis line: its score for Black and its numbered moves. Hovering a move shows
  // the position after it; a click pins it.
  function renderPv() {
    const st = ui.state;
    const box = $("lines");
    box.textContent = "";
    const lines = ui.lines.length ? ui.lines : ui.info ? [ui.info] : [];
    if (!lines.length) {
      const empty = document.createElement("div");
      empty.className = "line";
      const pv = document.createElement("div");
      pv.className = "pv";
      pv.id = "info-pv";
      empty.appendChild(pv);
      box.appendChild(empty);
    }
    lines.forEach((i, line) => {
      if (!st || !i) return;
      const row = document.createElement("div");
      row.className = "line";
      row.dataset.line = String(line + 1);
      if (lines.length > 1) {
        const sc = document.createElement("span");
        sc.className = "line-score";
        sc.textContent = scoreText(i.score_black !== undefined ? i.score_black : i.score);
        row.appendChild(sc);
      }
      const pv = document.createElement("div");
      pv.className = "pv";
      if (line === 0) pv.id = "info-pv";
      const moves = i.pv_pdn || i.pv || [];
      let idx = st.ply + startOffset(st);
      moves.forEach((m, k) => {
        const span = document.createElement("span");
        span.className = "pv-move";
        span.dataset.index = String(k);
        span.dataset.line = String(line);
        const black = idx % 2 === 0;
        if (black || k === 0) {
          const no = document.createElement("span");
          no.className = "pv-no";
          no.textContent = Math.floor(idx / 2) + 1 + (black ? "." : "…");
          span.appendChild(no);
        }
        span.appendChild(document.createTextNode(m));
        span.addEventListener("mouseenter", () => {
          if (!ui.pv || !ui.pv.pinned) showPv(k, false, line);
        });
        span.addEventListener("click", () => showPv(k, true, line));
        pv.appendChild(span);
        idx++;
      });
      row.appendChild(pv);
      box.appendChild(row);
    });
    markPv();
  }

  // ---------- the game review ----------

  const MARKS = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };

  // The line of play a review is of.
  function historySig(st) {
    return st.start_fen + " " + st.history.map((h) => h.hub).join(" ");
  }

  function startReview() {
    const st = ui.state;
    if (!st || !st.history.length) {
      showMessage("error", "no moves to review: play or load a game first");
      return;
    }
    ui.review = { sig: historySig(st), plies: {}, total: st.history.length, running: true, stopped: false, done: null, last: 0 };
    send({ type: "review" });
    renderReview();
    renderMoves();
    renderControls();
  }

  function onReviewPly(msg) {
    const r = ui.review;
    if (!r) return;
    r.plies[msg.ply] = { score: msg.score, best: msg.best, mark: msg.mark || null };
    r.last = msg.ply;
    renderReview();
    renderMoves();
  }

  function onReviewDone(msg) {
    const r = ui.review;
    if (!r) return;
    r.running = false;
    r.stopped = !!msg.stopped;
    r.done = msg;
    renderReview();
    renderMoves();
    renderControls();
  }

  // The marked plies, in order.
  function markedPlies() {
    const r = ui.review;
    if (!r) return [];
    return Object.keys(r.plies)
      .map(Number)
      .filter((k) => r.plies[k].mark)
      .sort((a, b) => a - b);
  }

  function counts(side) {
    const c = side || {};
    return (c.inaccuracies || 0) + "?! " + (c.mistakes || 0) + "? " + (c.blunders || 0) + "??";
  }

  function renderReview() {
    const r = ui.review;
    const status = $("review-status");
    const st = ui.state;
    if (!r) status.textContent = "";
    else if (r.running) status.textContent = "reviewing ply " + Math.min(r.last + 1, r.total) + " of " + r.total + " (stop to cancel)";
    else if (r.stopped) status.textContent = "review stopped after ply " + r.last + " of " + r.total;
    else if (r.done) status.textContent = "reviewed: Black " + counts(r.done.black) + " · White " + counts(r.done.white);
    const marked = markedPlies();
    const ply = st ? st.ply : 0;
    $("next-mistake").disabled = !marked.some((k) => k > ply);
    $("prev-mistake").disabled = !marked.some((k) => k < ply);
    $("review-run").disabled = !ui.connected || !st || !!(r && r.running) || !!(st && st.thinking);
    renderGraph();
  }

  const GRAPH = { w: 600, h: 140, clip: 5 };

  // A score for Black as a height on the graph: clipped to ±GRAPH.clip men, wins at the edge.
  function graphY(score) {
    let v = Number(score);
    if (!isFinite(v)) v = 0;
    if (Math.abs(v) >= 80) v = v > 0 ? GRAPH.clip : -GRAPH.clip;
    v = Math.max(-GRAPH.clip, Math.min(GRAPH.clip, v));
    const half = GRAPH.h / 2 - 6;
    return GRAPH.h / 2 - (v / GRAPH.clip) * half;
  }

  function svgEl(tag, attrs, parent) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function renderGraph() {
    const svg = $("graph");
    const r = ui.review;
    const st = ui.state;
    svg.textContent = "";
    svg.style.display = r && st ? "block" : "none";
    if (!r || !st) return;
    // The drawing's width is the graph's own, so that the points stay round.
    const w = Math.max(120, Math.round(svg.getBoundingClientRect().width) || GRAPH.w);
    svg.setAttribute("viewBox", "0 0 " + w + " " + GRAPH.h);
    const n = Math.max(r.total, 1);
    const x = (ply) => 6 + (ply / n) * (w - 12);
    // Black's advantage shaded above the middle line.
    svgEl("rect", { x: 0, y: 0, width: w, height: GRAPH.h / 2, class: "g-black" }, svg);
    svgEl("line", { x1: 0, x2: w, y1: GRAPH.h / 2, y2: GRAPH.h / 2, class: "g-axis" }, svg);
    const plies = Object.keys(r.plies).map(Number).sort((a, b) => a - b);
    const pts = [[x(0), GRAPH.h / 2]].concat(plies.map((k) => [x(k), graphY(r.plies[k].score)]));
    svgEl("polyline", { points: pts.map((p) => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" "), class: "g-line" }, svg);
    svgEl("line", { x1: x(st.ply), x2: x(st.ply), y1: 0, y2: GRAPH.h, class: "g-current", id: "graph-current" }, svg);
    plies.forEach((k) => {
      const p = r.plies[k];
      const c = svgEl(
        "circle",
        { cx: x(k), cy: graphY(p.score), r: p.mark ? 5 : 3.5, class: "graph-point" + (p.mark ? " " + MARKS[p.mark] : ""), "data-ply": k },
        svg
      );
      const t = svgEl("title", {}, c);
      t.textContent = "ply " + k + ": " + (st.history[k - 1] ? st.history[k - 1].pdn : "") + (p.mark || "") + " Black " + scoreText(p.score) + (p.mark ? " (best " + p.best + ")" : "");
    });
  }

  function stepMistake(dir) {
    const st = ui.state;
    if (!st) return;
    const marked = markedPlies();
    const k = dir > 0 ? marked.find((p) => p > st.ply) : marked.reverse().find((p) => p < st.ply);
    if (k !== undefined) send({ type: "goto", ply: k });
  }

  function analyzeRequest(on) {
    return ui.multipv > 1 ? { type: "analyze", on, multipv: ui.multipv } : { type: "analyze", on };
  }

  function renderInfo() {
    const st = ui.state;
    const i = ui.info;
    const v = verdict();
    const searched = i ? scoreText(i.score_black !== undefined ? i.score_black : i.score) : "–";
    $("info-score").textContent = v && v.kind !== "search" && v.text === "draw (proved)" ? "draw (proved)" : i ? "Black " + searched : "–";
    $("info-depth").textContent = i ? String(i.depth) : "–";
    $("info-nodes").textContent = i ? Number(i.nodes).toLocaleString("en-US") : "–";
    renderPv();
    $("info-score").title = "in men, for Black (Black moves first); 99.xx is a proved win, 89.xx a database win";
    const e = $("egdb");
    if (st && st.egdb) {
      const d = st.egdb;
      const word = { win: "Black wins", loss: "Black loses", draw: "draw" }[d.black] || d.black;
      e.textContent =
        "database: " + word + (d.dtc !== null && d.dtc !== undefined ? " (" + d.dtc + " plies to the next capture or man move)" : "") +
        (d.black50 !== d.black ? " · with the 40-move rule: " + d.black50 : "");
      e.hidden = false;
    } else {
      e.hidden = true;
    }
    renderEvalBar();
    const a = $("analyze");
    const on = !!(st && st.analyzing);
    a.setAttribute("aria-pressed", on ? "true" : "false");
    a.classList.toggle("on", on);
    a.textContent = on ? "Analysing (stop)" : "Analyse";
  }

  function scoreText(s) {
    const str = String(s);
    return str.startsWith("-") || str === "0.00" ? str : "+" + str;
  }

  // The ply "take back" goes to: against the engine, the player's last turn before this
  // position (two plies, or more after a set-up); else one ply.
  function takeBackPly(st) {
    const human = (side) => st[side] === "human";
    const one = human("black") !== human("white");
    if (one) for (let k = st.ply - 1; k >= 0; k--) if (human(sideAt(st, k))) return k;
    return st.ply - 1;
  }

  function renderControls() {
    const st = ui.state;
    const ok = ui.connected && !!st;
    const setup = !!ui.setup;
    $("undo").disabled = !ok || setup || st.ply === 0;
    $("redo").disabled = !ok || setup || st.ply >= st.history.length;
    $("start").disabled = $("undo").disabled;
    $("end").disabled = $("redo").disabled;
    $("stop").textContent = st && st.thinking ? "move now" : "stop";
    markPalette();
    $("engine-move").disabled = !ok || setup || !!st.result || st.thinking || !st.legal.length;
    const reviewing = !!(ui.review && ui.review.running);
    $("stop").disabled = !ok || !(st.thinking || st.analyzing || reviewing);
    for (const id of ["new-game", "play-here", "level-set", "analyze", "fen-set", "pdn-load", "pdn-save", "setup-done"])
      $(id).disabled = !ok;
    $("setup").hidden = setup;
    $("setup-tools").hidden = !setup;
    $("setup-help").hidden = !setup;
    if (!st) return;
    $("fen").textContent = st.fen;
    $("players").textContent =
      "Black: " + who(st.black) + " · White: " + who(st.white) + " · " + levelText(st.level);
    const mode = document.activeElement === $("mode") ? null : modeOf(st);
    if (mode) $("mode").value = mode;
    const kind = $("level-kind");
    const val = $("level-value");
    if (st.level && document.activeElement !== kind && document.activeElement !== val) {
      if (st.level.depth !== undefined && st.level.depth !== null) {
        kind.value = "depth";
        val.value = st.level.depth;
      } else if (st.level.movetime !== undefined && st.level.movetime !== null) {
        kind.value = "movetime";
        val.value = st.level.movetime;
      }
    }
  }

  function who(p) {
    return p === "engine" ? "engine" : "human";
  }

  function levelText(l) {
    if (!l) return "";
    if (l.depth !== undefined && l.depth !== null) return "engine depth " + l.depth;
    return "engine " + l.movetime + " s/move";
  }

  // Whether Black sits at the bottom for these players: whoever plays alone does.
  function flipFor(mode, current) {
    if (mode === "black") return true;
    if (mode === "white" || mode === "human") return false;
    return current;
  }

  const PLAYERS = {
    black: { black: "human", white: "engine" },
    white: { black: "engine", white: "human" },
    human: { black: "human", white: "human" },
    engine: { black: "engine", white: "engine" },
  };

  // The level typed in the boxes as a `level` request, or null (with a message) if bad.
  function levelRequest() {
    const v = Number($("level-value").value);
    if (!isFinite(v) || v <= 0) {
      showMessage("error", "strength: give a positive number");
      return null;
    }
    return $("level-kind").value === "depth" ? { type: "level", depth: Math.round(v) } : { type: "level", movetime: v };
  }

  // Send the typed level if it is not the one in force; false if it is bad.
  function sendTypedLevel() {
    const req = levelRequest();
    if (!req) return false;
    const l = (ui.state && ui.state.level) || {};
    if (req.depth !== undefined ? l.depth !== req.depth : l.movetime !== req.movetime) send(req);
    return true;
  }

  function modeOf(st) {
    if (st.black === "human" && st.white === "engine") return "black";
    if (st.white === "human" && st.black === "engine") return "white";
    if (st.white === "engine" && st.black === "engine") return "engine";
    return "human";
  }

  function render() {
    if (ui.setup) closePv();
    renderBoard();
    renderStatus();
    renderMoves();
    renderInfo();
    renderControls();
    renderReview();
  }

  // ---------- wiring ----------

  function wire() {
    $("board").addEventListener("click", (e) => {
      const g = e.target.closest("[data-square]");
      if (g) onSquareClick(Number(g.getAttribute("data-square")));
    });
    $("flip").addEventListener("click", () => {
      ui.flipped = !ui.flipped;
      renderBoard();
    });
    $("new-game").addEventListener("click", () => {
      const mode = $("mode").value;
      // A strength typed but not set is meant for this game.
      if (!sendTypedLevel()) return;
      ui.flipped = flipFor(mode, ui.flipped);
      ui.setup = null;
      clearMessages();
      send(Object.assign({ type: "new" }, PLAYERS[mode]));
    });
    $("play-here").addEventListener("click", () => {
      const mode = $("mode").value;
      if (!sendTypedLevel()) return;
      ui.flipped = flipFor(mode, ui.flipped);
      ui.setup = null;
      clearMessages();
      send(Object.assign({ type: "players" }, PLAYERS[mode]));
    });
    $("palette").addEventListener("click", (e) => {
      const b = e.target.closest(".pal");
      if (!b) return;
      ui.palette = b.dataset.piece;
      markPalette();
    });
    $("games").addEventListener("change", () => {
      if (!ui.pdnText) return;
      clearMessages();
      send({ type: "load_pdn", pdn: ui.pdnText, game: Number($("games").value) });
    });
    $("pv-close").addEventListener("click", () => {
      closePv();
      renderPvBoard();
    });
    $("pv-play").addEventListener("click", () => {
      if (!ui.pv) showPv(0, true);
      if (!ui.pv) return;
      ui.pv.pinned = true;
      if (ui.pv.timer) clearInterval(ui.pv.timer);
      ui.pv.timer = setInterval(() => {
        if (!ui.pv || ui.pv.upto + 1 >= ui.pv.hubs.length) {
          if (ui.pv) clearInterval(ui.pv.timer);
          return;
        }
        ui.pv.upto++;
        renderPvBoard();
      }, 700);
    });
    $("lines").addEventListener("mouseleave", () => {
      if (ui.pv && !ui.pv.pinned) {
        closePv();
        renderPvBoard();
      }
    });
    $("level-kind").addEventListener("change", () => {
      $("level-value").value = $("level-kind").value === "depth" ? 8 : 1;
    });
    const sendLevel = () => {
      const req = levelRequest();
      if (req) send(req);
    };
    $("level-set").addEventListener("click", sendLevel);
    $("level-value").addEventListener("keydown", (e) => {
      if (e.key === "Enter") sendLevel();
    });
    $("undo").addEventListener("click", () => {
      const st = ui.state;
      const k = st ? takeBackPly(st) : -1;
      if (k === st.ply - 1) send({ type: "undo" });
      else send({ type: "goto", ply: k });
    });
    $("redo").addEventListener("click", () => send({ type: "redo" }));
    $("start").addEventListener("click", () => send({ type: "goto", ply: 0 }));
    $("end").addEventListener("click", () => send({ type: "goto", ply: ui.state.history.length }));
    $("engine-move").addEventListener("click", () => send({ type: "engine_move" }));
    $("stop").addEventListener("click", () => send({ type: "stop" }));
    $("analyze").addEventListener("click", () => {
      send(analyzeRequest(!(ui.state && ui.state.analyzing)));
    });
    $("multipv").addEventListener("change", () => {
      ui.multipv = Number($("multipv").value) || 1;
      ui.lines = ui.info ? [ui.info] : [];
      if (ui.state) save(ui.state);
      if (ui.state && ui.state.analyzing) send(analyzeRequest(true));
      renderInfo();
    });
    $("review-run").addEventListener("click", startReview);
    $("next-mistake").addEventListener("click", () => stepMistake(1));
    $("prev-mistake").addEventListener("click", () => stepMistake(-1));
    $("graph").addEventListener("click", (e) => {
      const p = e.target.closest("[data-ply]");
      if (p) send({ type: "goto", ply: Number(p.getAttribute("data-ply")) });
    });
    $("moves").addEventListener("click", (e) => {
      const m = e.target.closest("[data-ply]");
      if (m) send({ type: "goto", ply: Number(m.dataset.ply) });
    });
    $("chooser-cancel").addEventListener("click", () => {
      closeChooser();
      renderBoard();
    });
    const setFen = () => {
      const fen = $("fen-input").value.trim();
      if (!fen) {
        showMessage("error", "type a FEN first, e.g. W:WK3,18:BK29,5");
        return;
      }
      clearMessages();
      send({ type: "setup", fen });
    };
    $("fen-set").addEventListener("click", setFen);
    $("fen-input").addEventListener("keydown", (e) => {
      if (e.key === "Enter") setFen();
    });
    $("setup").addEventListener("click", startSetup);
    $("setup-clear").addEventListener("click", () => {
      ui.setup.pieces = {};
      renderBoard();
    });
    $("setup-start").addEventListener("click", () => {
      const pieces = {};
      for (let n = 1; n <= 12; n++) pieces[n] = "b";
      for (let n = 21; n <= 32; n++) pieces[n] = "w";
      ui.setup.pieces = pieces;
      $("setup-side").value = "B";
      renderBoard();
    });
    $("setup-done").addEventListener("click", () => {
      clearMessages();
      const problem = setupProblem();
      if (problem) {
        showMessage("error", problem);
        return;
      }
      const fen = setupFen();
      ui.setup.sent = true;
      send({ type: "setup", fen });
    });
    $("setup-cancel").addEventListener("click", endSetup);
    $("pdn-load").addEventListener("click", () => {
      const text = $("pdn-input").value;
      if (!text.trim()) {
        showMessage("error", "paste a PDN game into the box first");
        return;
      }
      clearMessages();
      ui.pdnText = text;
      $("games-row").hidden = true;
      send({ type: "load_pdn", pdn: text });
    });
    $("pdn-file").addEventListener("change", () => {
      const f = $("pdn-file").files[0];
      if (!f) return;
      f.text().then((text) => {
        $("pdn-input").value = text;
        clearMessages();
        ui.pdnText = text;
        $("games-row").hidden = true;
        send({ type: "load_pdn", pdn: text });
        $("pdn-file").value = "";
      });
    });
    $("pdn-save").addEventListener("click", () => send({ type: "save_pdn" }));
    // Esc closes the chooser and the line shown; the arrow keys, Home and End step through
    // the game, except while typing in a box.
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape") {
        if (ui.choice || ui.pv) {
          e.preventDefault();
          closeChooser();
          closePv();
          renderPvBoard();
        }
        return;
      }
      if (e.target.closest("input, textarea, select") || e.altKey || e.ctrlKey || e.metaKey) return;
      const id = { ArrowLeft: "undo", ArrowRight: "redo", Home: "start", End: "end" }[e.key];
      if (id && !$(id).disabled) {
        e.preventDefault();
        $(id).click();
      }
    });
  }

  wire();
  render();
  connect();
})();
