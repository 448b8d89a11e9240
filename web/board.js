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
    flipped: false,
    selected: null, // square number of the selected piece
    choice: null, // the legal moves offered by the capture chooser (R15)
    preview: null, // the legal move whose path and captures are drawn
    setup: null, // {pieces: {square: "b"|"B"|"w"|"W"}, sent: bool} while placing pieces
    info: null, // the last `info` message for the position shown
  };

  const $ = (id) => document.getElementById(id);

  // ---------- geometry (docs/RULES.md R2) ----------

  // Square n (1-32) as a row and column seen from White's side: row 0 is the far row, which
  // holds 1-4 on the files b, d, f, h; row 7 holds 29-32 on a, c, e, g.
  function squareCell(n) {
    const r = Math.floor((n - 1) / 4);
    const c = 2 * ((n - 1) % 4) + (r % 2 === 0 ? 1 : 0);
    return ui.flipped ? { r: 7 - r, c: 7 - c } : { r, c };
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
      case "info":
        ui.info = msg;
        renderInfo();
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
    }
    if (ui.selected !== null && !legalFrom(ui.selected).length) {
      ui.selected = null;
    }
    render();
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
      cycleSetupPiece(sq);
      return;
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

  const SETUP_CYCLE = ["", "b", "B", "w", "W"];

  function startSetup() {
    const pieces = {};
    if (ui.state) Object.assign(pieces, ui.state.pieces);
    ui.setup = { pieces, sent: false };
    ui.selected = null;
    closeChooser();
    $("setup-side").value = ui.state && ui.state.side === "white" ? "W" : "B";
    render();
  }

  function cycleSetupPiece(sq) {
    const key = String(sq);
    const cur = ui.setup.pieces[key] || "";
    const next = SETUP_CYCLE[(SETUP_CYCLE.indexOf(cur) + 1) % SETUP_CYCLE.length];
    if (next) ui.setup.pieces[key] = next;
    else delete ui.setup.pieces[key];
    renderBoard();
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

  function lastMoveSquares() {
    const st = ui.state;
    if (!st || st.ply < 1 || !st.history[st.ply - 1]) return [];
    const hub = st.history[st.ply - 1].hub || "";
    const parts = hub.split(/[-x]/).map(Number);
    return parts.length >= 2 ? [parts[0], parts[1]] : [];
  }

  function renderBoard() {
    const svg = $("board");
    svg.textContent = "";
    svg.classList.toggle("setup", !!ui.setup);
    el("rect", { x: 0, y: 0, width: 800, height: 800, class: "light" }, svg);

    const pieces = ui.setup ? ui.setup.pieces : ui.state ? ui.state.pieces : {};
    const last = ui.setup ? [] : lastMoveSquares();
    const targets = new Set(ui.selected !== null ? legalFrom(ui.selected).map((m) => m.to) : []);
    const preview = ui.preview ? new Set(ui.preview.captured) : new Set();

    for (let n = 1; n <= 32; n++) {
      const { r, c } = squareCell(n);
      const x = c * CELL;
      const y = r * CELL;
      const g = el("g", { "data-square": n, class: "square" }, svg);
      el("rect", { x, y, width: CELL, height: CELL, class: "dark" }, g);
      if (last.includes(n)) el("rect", { x, y, width: CELL, height: CELL, class: "last" }, g);
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
    if (ui.setup) return "Setting up: click squares to place pieces, then press done";
    let s;
    if (st.result) {
      const w = st.result.winner;
      s = "Game over: " + (w ? SIDE[w] + " wins" : "draw") + " by " + st.result.reason;
    } else if (st.thinking) {
      s = SIDE[st.side] + " (engine) is thinking…";
    } else if (st[st.side] === "engine") {
      s = SIDE[st.side] + " to move (engine): press “engine move”";
    } else {
      s = SIDE[st.side] + " to move";
    }
    if (st.ply < st.history.length) s += " · at move " + st.ply + " of " + st.history.length + " plies";
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
    const offset = (st.start_fen || "B").trim().charAt(0).toUpperCase() === "W" ? 1 : 0;
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

  function renderInfo() {
    const st = ui.state;
    const i = ui.info;
    $("info-score").textContent = i ? scoreText(i.score) : "–";
    $("info-depth").textContent = i ? String(i.depth) : "–";
    $("info-nodes").textContent = i ? Number(i.nodes).toLocaleString("en-US") : "–";
    $("info-pv").textContent = i ? (i.pv_pdn || i.pv || []).join("  ") : "";
    const side = st ? SIDE[st.side] : "";
    $("info-score").title = "in men, for the side to move (" + side + "); 99.xx is a proved win";
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

  function renderControls() {
    const st = ui.state;
    const ok = ui.connected && !!st;
    const setup = !!ui.setup;
    $("undo").disabled = !ok || setup || st.ply === 0;
    $("redo").disabled = !ok || setup || st.ply >= st.history.length;
    $("engine-move").disabled = !ok || setup || !!st.result || st.thinking || !st.legal.length;
    $("stop").disabled = !ok || !(st.thinking || st.analyzing);
    for (const id of ["new-game", "level-set", "analyze", "fen-set", "pdn-load", "pdn-save", "setup-done"])
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

  function modeOf(st) {
    if (st.black === "human" && st.white === "engine") return "black";
    if (st.white === "human" && st.black === "engine") return "white";
    if (st.white === "engine" && st.black === "engine") return "engine";
    return "human";
  }

  function render() {
    renderBoard();
    renderStatus();
    renderMoves();
    renderInfo();
    renderControls();
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
      const players = {
        black: { black: "human", white: "engine" },
        white: { black: "engine", white: "human" },
        human: { black: "human", white: "human" },
        engine: { black: "engine", white: "engine" },
      }[mode];
      // Whoever plays alone sits at the bottom of the board.
      if (mode === "black") ui.flipped = true;
      if (mode === "white" || mode === "human") ui.flipped = false;
      ui.setup = null;
      clearMessages();
      send(Object.assign({ type: "new" }, players));
    });
    $("level-kind").addEventListener("change", () => {
      $("level-value").value = $("level-kind").value === "depth" ? 8 : 1;
    });
    const sendLevel = () => {
      const v = Number($("level-value").value);
      if (!isFinite(v) || v <= 0) {
        showMessage("error", "strength: give a positive number");
        return;
      }
      send($("level-kind").value === "depth" ? { type: "level", depth: Math.round(v) } : { type: "level", movetime: v });
    };
    $("level-set").addEventListener("click", sendLevel);
    $("level-value").addEventListener("keydown", (e) => {
      if (e.key === "Enter") sendLevel();
    });
    $("undo").addEventListener("click", () => send({ type: "undo" }));
    $("redo").addEventListener("click", () => send({ type: "redo" }));
    $("engine-move").addEventListener("click", () => send({ type: "engine_move" }));
    $("stop").addEventListener("click", () => send({ type: "stop" }));
    $("analyze").addEventListener("click", () => {
      send({ type: "analyze", on: !(ui.state && ui.state.analyzing) });
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
      const fen = setupFen();
      clearMessages();
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
      send({ type: "load_pdn", pdn: text });
    });
    $("pdn-file").addEventListener("change", () => {
      const f = $("pdn-file").files[0];
      if (!f) return;
      f.text().then((text) => {
        $("pdn-input").value = text;
        clearMessages();
        send({ type: "load_pdn", pdn: text });
        $("pdn-file").value = "";
      });
    });
    $("pdn-save").addEventListener("click", () => send({ type: "save_pdn" }));
    // The arrow keys step through the game, except while typing in a box.
    document.addEventListener("keydown", (e) => {
      if (e.target.closest("input, textarea, select") || e.altKey || e.ctrlKey || e.metaKey) return;
      const id = { ArrowLeft: "undo", ArrowRight: "redo" }[e.key];
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
