// The jungletb web board: an editor, the value and moves of the position,
// play, the line to the end, the map of a piece and a material's histogram.
// Plain JavaScript, no libraries: everything is served by `jungletb serve`.
"use strict";

const FILES = "abcdefg";
// Each with U+FE0F, which asks for the colour (emoji) form: without it some
// fonts draw the Rat as a monochrome outline beside coloured animals.
const GLYPHS = { R: "🐭\uFE0F", C: "🐱\uFE0F", W: "🐺\uFE0F", D: "🐶\uFE0F", P: "🐆\uFE0F", T: "🐯\uFE0F", L: "🦁\uFE0F", E: "🐘\uFE0F" };
// Where no font draws these in colour (a browser without an emoji font
// shows empty boxes), the pieces carry their letters instead.
const LETTERS = { R: "R", C: "C", W: "W", D: "D", P: "P", T: "T", L: "L", E: "E" };
let glyphs = GLYPHS;

// True if the browser draws the Elephant emoji in colour: a box or an
// outline of a missing glyph has no coloured pixel.
function emojiDrawn() {
  try {
    const c = document.createElement("canvas");
    c.width = c.height = 32;
    const g = c.getContext("2d", { willReadFrequently: true });
    g.textBaseline = "top";
    g.font = "28px sans-serif";
    g.fillText(GLYPHS.E, 0, 0);
    const d = g.getImageData(0, 0, 32, 32).data;
    for (let i = 0; i < d.length; i += 4) {
      const [r, gr, b, a] = [d[i], d[i + 1], d[i + 2], d[i + 3]];
      if (a > 0 && Math.max(r, gr, b) - Math.min(r, gr, b) > 40) return true;
    }
  } catch (e) { /* no canvas: letters */ }
  return false;
}

const NAMES = { R: "Rat", C: "Cat", W: "Wolf", D: "Dog", P: "Panther (Leopard)", T: "Tiger", L: "Lion", E: "Elephant" };
const START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w";
const ORDER = "ELTPDWCR"; // strongest first, for material names and the palette

const state = {
  ruleset: "standard",
  board: {}, // square name -> piece letter (upper case White, lower case Black)
  side: "w",
  view: "moves",
  terrain: null, // from /api/{ruleset}/board
  answer: null, // the last /api/{ruleset} answer
  tool: null, // palette letter, "x" (eraser) or null (play)
  from: null, // square chosen to move from, in play
  mapSquare: null, // square of the mapped piece
  playing: null, // timer of "play the line"
  seq: 0, // request counter: only the newest answer is shown
  flipped: false, // the board seen from Black's side
  last: null, // the last move played, highlighted
  record: [], // the moves played since the position was set up, as text
  recordFrom: null, // the position the record starts from
  urlError: null, // why the address's position could not be read
  line: null, // the line to the end of the shown position, as text
  train: null, // the training game: see startTraining
};

const $ = (id) => document.getElementById(id);
const isWhite = (p) => p === p.toUpperCase();

// ---- notation ------------------------------------------------------------

function toNotation(board, side) {
  const ranks = [];
  for (let r = 9; r >= 1; r--) {
    let text = "", empty = 0;
    for (const f of FILES) {
      const p = board[f + r];
      if (p) { if (empty) text += empty; empty = 0; text += p; } else empty++;
    }
    if (empty) text += empty;
    ranks.push(text);
  }
  return ranks.join("/") + " " + side;
}

function fromNotation(text) {
  const fields = text.trim().replace(/_/g, " ").split(/\s+/);
  if (fields.length < 2) throw new Error("expected 'ranks side', e.g. 7/7/7/7/7/7/7/7/E5r w");
  const ranks = fields[0].split("/");
  if (ranks.length !== 9) throw new Error("expected 9 ranks separated by '/'");
  if (fields[1] !== "w" && fields[1] !== "b") throw new Error("side to move must be w or b");
  const board = {};
  ranks.forEach((rank, i) => {
    let f = 0;
    for (const c of rank) {
      if (/[1-7]/.test(c)) f += Number(c);
      else if (/[RCWDPTLE]/i.test(c) && f < 7) board[FILES[f++] + (9 - i)] = c;
      else throw new Error(`rank ${9 - i}: unexpected '${c}'`);
    }
    if (f !== 7) throw new Error(`rank ${9 - i} does not have 7 squares`);
  });
  return { board, side: fields[1] };
}

// The colour swap: every piece to the mirrored rank in the other colour,
// the other side to move (the same position for the players).
function colourSwap(board, side) {
  const swapped = {};
  for (const [sq, p] of Object.entries(board)) {
    swapped[sq[0] + (10 - Number(sq.slice(1)))] = isWhite(p) ? p.toLowerCase() : p.toUpperCase();
  }
  return { board: swapped, side: side === "w" ? "b" : "w" };
}

function colourSwapText(text) {
  const { board, side } = fromNotation(text);
  const s = colourSwap(board, side);
  return toNotation(s.board, s.side);
}

function material(board) {
  const pieces = Object.values(board);
  const side = (up) => [...ORDER].filter((a) => pieces.includes(up ? a : a.toLowerCase())).join("");
  return side(true) + "v" + side(false);
}

// ---- URL -------------------------------------------------------------------

function urlFor() {
  const q = new URLSearchParams();
  q.set("ruleset", state.ruleset);
  q.set("position", toNotation(state.board, state.side).replace(" ", "_"));
  if (state.view !== "moves") q.set("view", state.view);
  if (state.view === "map" && state.mapSquare) q.set("square", state.mapSquare);
  // Readable in the address bar: `6r/7/…`, not `6r%2F7%2F…`.
  return "?" + q.toString().replace(/%2F/g, "/");
}

// Each history entry keeps the moves played up to it, so that Back and
// Forward show the record of the position they return to.
function snapshot() {
  return { record: state.record.map((m) => ({ ...m })), recordFrom: state.recordFrom, last: state.last };
}

function remember(replace) {
  const url = urlFor();
  if (url === location.search) { history.replaceState(snapshot(), "", url); return; }
  if (replace) history.replaceState(snapshot(), "", url); else history.pushState(snapshot(), "", url);
}

// The address's parameters; one that is given twice is ambiguous and is
// refused (the page does not pick one of them).
function readUrl() {
  const q = new URLSearchParams(location.search);
  state.urlError = null;
  for (const key of ["ruleset", "position", "view", "square", "train"]) {
    const n = q.getAll(key).length;
    if (n > 1) state.urlError = `The address gives ${key} ${n} times: it is ambiguous; give it once.`;
  }
  if (state.urlError) return;
  state.ruleset = q.get("ruleset") || state.ruleset;
  const text = q.get("position");
  if (text) {
    try { Object.assign(state, fromNotation(text)); } catch (e) {
      state.board = {};
      state.urlError = `The position in the address is not valid: ${e.message}.`;
    }
  }
  state.view = q.get("view") || "moves";
  state.mapSquare = q.get("square");
  // `train=1`: a training game from the address's position (a link from a
  // material page or a puzzle).
  if (q.get("train") === "1") {
    state.view = "train";
    state.pendingTrain = true;
  }
}

// ---- API -------------------------------------------------------------------

async function api(path) {
  const r = await fetch(path);
  const body = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
  return body;
}

const posParam = () => encodeURIComponent(toNotation(state.board, state.side).replace(" ", "_"));

// ---- drawing ---------------------------------------------------------------

// The rank of an animal under the rule set being shown (the numbers players
// read on the pieces).
function rankOf(letter) {
  const a = state.terrain?.animals.find((x) => x.letter === letter.toUpperCase());
  return a ? a.rank : "ELTPDWCR".length - "ELTPDWCR".indexOf(letter.toUpperCase());
}

const pieceName = (p) => `${isWhite(p) ? "White" : "Black"} ${NAMES[p.toUpperCase()]}`;

function pieceElement(p) {
  const el = document.createElement("div");
  el.className = "piece " + (isWhite(p) ? "w" : "b");
  el.title = `${pieceName(p)}, rank ${rankOf(p)}`;
  el.innerHTML = `<span class="glyph">${glyphs[p.toUpperCase()]}</span><span class="rank">${rankOf(p)}</span>`;
  return el;
}

function drawBoard() {
  const board = $("board");
  board.textContent = "";
  const t = state.terrain || { water: [], traps: { w: [], b: [] }, dens: { w: [], b: [] } };
  const traps = [...t.traps.w, ...t.traps.b], dens = [...t.dens.w, ...t.dens.b];
  const ranks = state.flipped ? [1, 2, 3, 4, 5, 6, 7, 8, 9] : [9, 8, 7, 6, 5, 4, 3, 2, 1];
  const files = state.flipped ? [...FILES].reverse() : [...FILES];
  for (const r of ranks) {
    const c = document.createElement("div");
    c.className = "coord";
    c.textContent = r;
    board.appendChild(c);
    for (const f of files) {
      const sq = f + r;
      const el = document.createElement("div");
      el.className = "sq";
      el.dataset.square = sq;
      el.title = state.board[sq] ? `${sq}: ${pieceName(state.board[sq])}` : sq;
      // Reachable by keyboard: Tab to a square, Enter or Space to click it.
      el.tabIndex = 0;
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", el.title);
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickSquare(sq); }
      });
      if (state.last && (sq === state.last.slice(0, 2) || sq === state.last.slice(2))) el.classList.add("last");
      if (t.water.includes(sq)) el.classList.add("water");
      if (traps.includes(sq)) { el.classList.add("trap"); el.insertAdjacentHTML("beforeend", '<span class="mark">trap</span>'); }
      if (dens.includes(sq)) { el.classList.add("den"); el.insertAdjacentHTML("beforeend", '<span class="mark">den</span>'); }
      if (state.board[sq]) el.appendChild(pieceElement(state.board[sq]));
      if (sq === state.from || (state.view === "map" && sq === state.mapSquare)) el.classList.add("selected");
      el.addEventListener("click", () => clickSquare(sq));
      board.appendChild(el);
    }
  }
  board.appendChild(document.createElement("div"));
  for (const f of files) {
    const c = document.createElement("div");
    c.className = "coord";
    c.textContent = f;
    board.appendChild(c);
  }
}

function drawPalette() {
  const pal = $("palette");
  pal.textContent = "";
  const inGame = state.terrain ? state.terrain.animals.filter((a) => a.in_game).map((a) => a.letter) : [...ORDER];
  const tools = [["play", null, "Play moves (click a piece, then its square)"]];
  for (const a of ORDER) if (inGame.includes(a)) tools.push([a, a, `Place the White ${NAMES[a]} (rank ${rankOf(a)})`]);
  for (const a of ORDER) if (inGame.includes(a)) tools.push([a.toLowerCase(), a.toLowerCase(), `Place the Black ${NAMES[a]} (rank ${rankOf(a)})`]);
  tools.push(["x", "x", "Remove a piece"]);
  for (const [label, tool, title] of tools) {
    const b = document.createElement("button");
    b.type = "button";
    b.title = title;
    b.setAttribute("aria-label", title);
    b.dataset.tool = tool ?? "play";
    if (tool && tool !== "x") {
      b.className = isWhite(tool) ? "w" : "b";
      b.textContent = glyphs[tool.toUpperCase()];
    } else b.textContent = tool === "x" ? "✕" : "▶ Play";
    if (state.tool === tool) b.classList.add("chosen");
    b.addEventListener("click", () => { state.tool = tool; state.from = null; drawPalette(); drawBoard(); });
    pal.appendChild(b);
  }
}

function moverText(m) {
  // The API gives each move's value for the side to move after it; the
  // mover's value is the other way round and one ply longer.
  if (m.category === "draw") return ["draw", "draws"];
  const n = (m.plies ?? 0) + 1;
  return m.category === "loss" ? ["win", `wins in ${n}`] : ["loss", `loses in ${n}`];
}

function showValue(a) {
  const v = $("value");
  const who = a.side_to_move === "w" ? "White" : "Black";
  v.className = a.category;
  if (a.game_over) {
    const why = { den: "a piece reached the den", no_pieces: "a side has no pieces", no_moves: "no legal move" }[a.game_over];
    const winner = a.winner === "w" ? "White" : a.winner === "b" ? "Black" : "nobody";
    v.textContent = `Game over (${why}): ${winner} wins`;
  } else if (a.category === "draw") v.textContent = `${who} to move: draw`;
  else v.textContent = `${who} to move: ${a.category} in ${a.plies} plies`;
  v.dataset.category = a.category;
  v.dataset.plies = a.plies ?? "";
}

function drawMoves(a) {
  const list = $("moves");
  list.textContent = "";
  for (const m of a.moves) {
    const li = document.createElement("li");
    const [cls, text] = moverText(m);
    li.className = cls;
    li.dataset.move = m.move;
    // The piece's letter before the move, as the command line writes it
    // (`Wa1b1`, upper case White, lower case Black).
    const piece = state.board[m.move.slice(0, 2)] ?? "";
    li.innerHTML = `<span>${piece}${m.move.slice(0, 2)}–${m.move.slice(2)}${m.capture ? " ×" : ""}${m.den ? " den" : ""}</span><span>${text}</span>`;
    li.addEventListener("mouseenter", () => highlight(m.move));
    li.addEventListener("mouseleave", () => highlight(null));
    li.addEventListener("click", () => playMove(m.move));
    list.appendChild(li);
  }
}

function highlight(move) {
  document.querySelectorAll(".sq.hl-from, .sq.hl-to").forEach((e) => e.classList.remove("hl-from", "hl-to"));
  if (!move) return;
  document.querySelector(`.sq[data-square="${move.slice(0, 2)}"]`)?.classList.add("hl-from");
  document.querySelector(`.sq[data-square="${move.slice(2)}"]`)?.classList.add("hl-to");
}

function shade(category, plies) {
  const fade = 0.35 + 0.65 * (1 - Math.min((plies ?? 0) / 120, 1));
  if (category === "win") return `rgba(34,139,34,${fade.toFixed(2)})`;
  if (category === "loss") return `rgba(200,40,40,${fade.toFixed(2)})`;
  return "rgba(140,140,140,0.55)";
}

async function drawMap() {
  if (state.view !== "map" || !state.mapSquare || !state.board[state.mapSquare]) return;
  const seq = state.seq;
  try {
    const m = await api(`/api/${state.ruleset}/map?position=${posParam()}&square=${state.mapSquare}`);
    if (seq !== state.seq) return;
    m.squares.forEach((cell, i) => {
      if (!cell) return;
      // Colour for the owner of the mapped piece, whoever is to move.
      let cat = cell.category;
      if (m.owner !== m.side_to_move && cat !== "draw") cat = cat === "win" ? "loss" : "win";
      const el = document.querySelector(`.sq[data-square="${cell.square}"]`);
      el.dataset.map = cat;
      el.insertAdjacentHTML("afterbegin", `<div class="shade" style="background:${shade(cat, cell.plies)}"></div>`);
      el.insertAdjacentHTML("beforeend", `<span class="label">${cat[0].toUpperCase()}${cell.plies ?? ""}</span>`);
    });
    $("map-help").dataset.ready = "1";
  } catch (e) { showError(e.message); }
}

async function drawHistogram() {
  if (state.view !== "histogram") return;
  const box = $("histogram");
  const mat = material(state.board);
  if (mat.startsWith("v") || mat.endsWith("v")) { box.textContent = "Place pieces of both sides."; return; }
  box.textContent = "Reading the table…";
  try {
    const s = await api(`/api/${state.ruleset}/stats/${mat}`);
    // The table may hold the colour swap of the board's material (TvER is
    // stored as ERvT): its White is then the board's Black.
    const swapped = s.material !== mat;
    const here = state.answer && !state.answer.game_over ? state.answer : null;
    let html = "";
    for (const [key, stored] of [["white_to_move", "w"], ["black_to_move", "b"]]) {
      const h = s[key];
      const side = swapped ? (stored === "w" ? "b" : "w") : stored;
      const name = side === "w" ? "White" : "Black";
      const longest = Math.max(h.win_plies.length, h.loss_plies.length, 1);
      const peak = Math.max(1, ...h.win_plies, ...h.loss_plies);
      const left = 44, w = Math.max(260, longest * 4 + left + 12), H = 190, mid = 84, half = 76;
      let bars = "";
      const bar = (counts, up, colour) => counts.forEach((n, d) => {
        if (!n) return;
        const len = Math.max(1, Math.sqrt(n / peak) * half);
        bars += `<rect x="${left + d * 4}" y="${up ? mid - len : mid}" width="3" height="${len}" fill="${colour}"><title>${up ? "win" : "loss"} in ${d}: ${n}</title></rect>`;
      });
      bar(h.win_plies, true, "#228b22");
      bar(h.loss_plies, false, "#c82828");
      // Axes: counts (square root) on the left, plies below.
      let axes = `<line x1="${left}" y1="${mid - half}" x2="${left}" y2="${mid + half}" stroke="#000"/>`;
      for (const [n, y] of [[peak, mid - half], [0, mid], [peak, mid + half]]) {
        axes += `<text x="${left - 4}" y="${y + 3}" font-size="9" text-anchor="end">${n}</text>`;
      }
      for (let d = 0; d < longest; d += 10) {
        axes += `<text x="${left + d * 4}" y="${H - 6}" font-size="9" text-anchor="middle">${d}</text>`;
      }
      // The position on the board, if this is its side to move.
      let mark = "";
      if (here && here.side_to_move === side && here.plies != null) {
        const x = left + here.plies * 4 + 1.5;
        mark = `<line class="here" x1="${x}" y1="${mid - half}" x2="${x}" y2="${mid + half}" stroke="#2a6fdb" stroke-width="2" stroke-dasharray="4 3"><title>this position: ${here.category} in ${here.plies}</title></line>`;
      }
      // The table's example in the board's colours.
      const best = h.longest_win_example;
      const example = best && (swapped ? colourSwapText(best.position) : best.position);
      const ex = best ? ` Longest win ${best.plies} plies: <a href="?ruleset=${state.ruleset}&position=${example.replace(" ", "_")}">${example}</a>` : "";
      html += `<p><b>${mat}, ${name} to move</b>: ${h.wins} wins, ${h.draws} draws, ${h.losses} losses.${ex}</p>
        <svg width="${w}" height="${H}" viewBox="0 0 ${w} ${H}"><line x1="${left}" y1="${mid}" x2="${w}" y2="${mid}" stroke="#000"/>${axes}${bars}${mark}</svg>`;
    }
    box.innerHTML = html + "<p>Positions by plies to the end, wins up, losses down (square-root scale); the dashed line marks the position on the board.</p>";
  } catch (e) { box.textContent = e.message; }
}

function showError(text) { $("error").textContent = text || ""; }

// A line of moves from `start` (notation) written as the command line does:
// numbered, with the piece letter, x for a capture, # for the end.
function lineText(startText, moves) {
  let { board, side } = fromNotation(startText);
  const parts = [];
  let number = 1;
  moves.forEach((m, k) => {
    const from = m.move.slice(0, 2), to = m.move.slice(2);
    const p = board[from];
    if (!p) return;
    let t = side === "w" ? `${number}. ` : k === 0 ? `${number}... ` : "";
    t += p + from + (m.capture ? "x" : "") + to + (m.end ? "#" : "");
    parts.push(t);
    board = { ...board, [to]: p };
    delete board[from];
    if (side === "b") number++;
    side = side === "w" ? "b" : "w";
  });
  return parts.join(" ");
}

function drawRecord() {
  const rec = $("record");
  if (!rec) return;
  const played = state.record.length ? lineText(state.recordFrom, state.record) : "(none yet)";
  rec.innerHTML = "";
  const a = document.createElement("p");
  a.textContent = `Moves played: ${played}`;
  const b = document.createElement("p");
  b.id = "line-text";
  b.textContent = `Line to the end: ${state.line ?? "…"}`;
  rec.append(a, b);
}

async function loadLine(seq) {
  state.line = null;
  drawRecord();
  try {
    const text = toNotation(state.board, state.side);
    const line = await api(`/api/${state.ruleset}/mainline?position=${posParam()}`);
    if (seq !== state.seq) return;
    // Which moves capture, and the last one ends the game.
    let board = fromNotation(text).board;
    const moves = line.mainline.map((s, i) => {
      const to = s.move.slice(2);
      const m = { move: s.move, capture: Boolean(board[to]), end: i === line.mainline.length - 1 };
      board = fromNotation(s.position).board;
      return m;
    });
    state.line = moves.length ? lineText(text, moves)
      : line.category === "draw" ? "none: a draw, no side can force the end" : "none: the game is over";
  } catch (e) {
    if (seq !== state.seq) return;
    state.line = "not available";
  }
  drawRecord();
}

// ---- updating --------------------------------------------------------------

async function refresh(replaceUrl) {
  if (state.urlError) {
    // Nothing is probed: the board is not what the address asked for.
    $("value").textContent = "No value";
    $("value").className = "";
    $("value").dataset.category = "";
    $("moves").textContent = "";
    drawBoard();
    showError(state.urlError);
    return;
  }
  remember(replaceUrl);
  $("fen").value = toNotation(state.board, state.side);
  document.querySelector(`input[name=side][value=${state.side}]`).checked = true;
  $("ruleset").value = state.ruleset;
  document.querySelectorAll(".tabs button").forEach((b) => b.classList.toggle("active", b.dataset.view === state.view));
  for (const v of ["moves", "map", "histogram", "train"]) $("view-" + v).hidden = v !== state.view;
  $("map-help").dataset.ready = "";
  drawBoard();
  showError("");
  const seq = ++state.seq;
  if (toNotation(state.board, state.side) === START) {
    // No table holds the 16 pieces of the start: say so, ask for none.
    state.answer = null;
    $("value").textContent = "The start position: no table holds it (16 pieces). Play into an endgame, or set one up.";
    $("value").className = "";
    $("value").dataset.category = "start";
    $("moves").textContent = "";
    return;
  }
  $("value").textContent = "…";
  $("value").dataset.category = "";
  $("moves").textContent = "";
  // The defence of a training game chooses by its moves' replies.
  const defending = state.train && state.side !== state.train.player;
  try {
    const a = await api(`/api/${state.ruleset}?position=${posParam()}${defending ? "&replies=true" : ""}`);
    if (seq !== state.seq) return;
    state.answer = a;
    showValue(a);
    drawMoves(a);
    if (state.pendingTrain) {
      state.pendingTrain = false;
      startTraining();
    }
    if (state.train) trainingTurn(a);
  } catch (e) {
    if (seq !== state.seq) return;
    state.answer = null;
    $("value").textContent = "No value";
    $("value").className = "";
    showError(e.message);
  }
  drawMap();
  drawHistogram();
  loadLine(seq);
}

// The board was set up anew: the record of moves starts again from it.
function edited() {
  state.urlError = null;
  if (state.train) {
    state.train = null;
    drawTraining("");
  }
  state.record = [];
  state.recordFrom = null;
  state.last = null;
}

function playMove(move, byDefence = false) {
  // In a training game the defence's moves are the tables' alone.
  if (state.train && state.side !== state.train.player && !byDefence) return;
  if (state.train && state.side === state.train.player) judge(move);
  if (state.train) state.train.plies += 1;
  const from = move.slice(0, 2), to = move.slice(2);
  if (!state.recordFrom) state.recordFrom = toNotation(state.board, state.side);
  const m = state.answer?.moves.find((x) => x.move === move);
  state.record.push({ move, capture: Boolean(state.board[to]), end: Boolean(m && (m.den || (m.category === "loss" && m.plies === 0))) });
  state.last = move;
  state.board[to] = state.board[from];
  delete state.board[from];
  state.side = state.side === "w" ? "b" : "w";
  state.from = null;
  if (state.mapSquare === from) state.mapSquare = to;
  refresh();
}

function clickSquare(sq) {
  if (state.view === "map" && state.tool === null) {
    if (state.board[sq]) { state.mapSquare = sq; refresh(); }
    return;
  }
  if (state.tool === "x") { delete state.board[sq]; edited(); refresh(); return; }
  if (state.tool) {
    edited();
    // One piece of each animal per side: placing it again moves it.
    for (const [s, p] of Object.entries(state.board)) if (p === state.tool) delete state.board[s];
    state.board[sq] = state.tool;
    refresh();
    return;
  }
  // Play: choose a piece of the side to move, then its destination.
  const legal = state.answer ? state.answer.moves.map((m) => m.move) : [];
  if (state.from && legal.includes(state.from + sq)) { playMove(state.from + sq); return; }
  const p = state.board[sq];
  state.from = p && (isWhite(p) ? "w" : "b") === state.side && sq !== state.from ? sq : null;
  drawBoard();
  if (state.from) legal.filter((m) => m.startsWith(state.from)).forEach((m) =>
    document.querySelector(`.sq[data-square="${m.slice(2)}"]`)?.classList.add("hl-to"));
}

function stopLine() {
  clearTimeout(state.playing);
  state.playing = null;
  $("stop").disabled = true;
}

async function playLine() {
  stopLine();
  try {
    const line = await api(`/api/${state.ruleset}/mainline?position=${posParam()}`);
    if (!line.mainline.length) { showError(line.category === "draw" ? "A draw: there is no forced end." : "The game is over."); return; }
    $("stop").disabled = false;
    const steps = line.mainline.map((s) => s.move);
    const step = () => {
      if (!steps.length) { stopLine(); return; }
      playMove(steps.shift());
      state.playing = setTimeout(step, 600);
    };
    step();
  } catch (e) { showError(e.message); }
}

async function loadTerrain() {
  try { state.terrain = await api(`/api/${state.ruleset}/board`); } catch (e) { state.terrain = null; showError(e.message); }
  drawPalette();
  drawRulesNote();
}

// Where the rule set comes from and what other rules differ in, so that a
// player of other rules knows what to choose.
function drawRulesNote() {
  const note = $("rules-note");
  if (!note) return;
  note.textContent = "";
  const t = state.terrain;
  if (!t) return;
  const p = document.createElement("p");
  p.textContent = t.source
    ? `${t.ruleset}: ${t.source}.`
    : `${t.ruleset}: a custom rule set (${Object.entries(t.options).map(([k, v]) => `${k}=${v}`).join(", ")}).`;
  note.appendChild(p);
  const d = document.createElement("p");
  d.textContent = "Rules elsewhere often differ: " +
    t.common_disagreements.map((x) => `${x.rules_say} (${x.rule})`).join("; ") + ".";
  note.appendChild(d);
}

// ---- training ----------------------------------------------------------------

// A training game from the shown position: the player has its side to move
// and keeps its value (a win, or a draw); `kept` counts the moves that kept
// it, `plies` the plies played, `optimum` the distance at the start.
function startTraining() {
  const a = state.answer;
  if (!a || a.game_over || a.category === "loss") {
    showError(a?.category === "loss"
      ? "The side to move loses here: set up a won or drawn position to train."
      : "Set up a position that is not over to train.");
    return;
  }
  stopLine();
  edited();
  state.train = {
    player: state.side, goal: a.category, optimum: a.plies, plies: 0, kept: 0, moves: 0,
    back: [], log: [], over: false, takebacks: 0,
  };
  $("train-log").textContent = "";
  drawTraining(`You play ${state.side === "w" ? "White" : "Black"}: ${a.category === "win" ? `win (the fastest win takes ${a.plies} plies)` : "hold the draw"}.`);
}

function drawTraining(status) {
  const t = state.train;
  if (status !== undefined) $("train-status").textContent = status;
  $("train-back").disabled = !t || !t.back.length;
  $("train-start").textContent = t ? "Start again from this position" : "Train from this position";
  const log = $("train-log");
  log.textContent = "";
  for (const e of t ? t.log : []) {
    const li = document.createElement("li");
    li.className = e.kept ? "kept" : "thrown";
    li.textContent = e.text;
    log.appendChild(li);
  }
}

// Judges the player's `move` from the shown answer, before it is played.
function judge(move) {
  const t = state.train, a = state.answer;
  const m = a?.moves.find((x) => x.move === move);
  if (!m) return;
  const best = a.moves[0];
  const value = (x) => (x.category === "loss" ? 1 : x.category === "draw" ? 0 : -1); // for the mover
  const piece = state.board[move.slice(0, 2)] ?? "";
  const name = `${piece}${move}`;
  const bestName = `${state.board[best.move.slice(0, 2)] ?? ""}${best.move}`;
  const kept = value(m) >= value(best);
  t.back.push({ board: { ...state.board }, side: state.side, plies: t.plies, record: state.record.length });
  t.moves += 1;
  let text;
  if (kept && value(m) === 1) {
    const slower = m.plies - best.plies;
    text = slower === 0 ? `${name}: the fastest win` : `${name}: still winning, ${slower} plies slower than ${bestName}`;
  } else if (kept) {
    text = `${name}: the draw is held`;
  } else {
    text = `${name}: ${value(best) === 1 ? "the win is thrown away" : "the draw is lost"} (${moverText(m)[1]}); ${bestName} ${moverText(best)[1]}. Take it back?`;
  }
  if (kept) t.kept += 1;
  t.log.push({ kept, text });
  drawTraining(text);
}

// After each answer in a training game: the defence moves, or the game
// ends with its summary.
function trainingTurn(a) {
  const t = state.train;
  if (a.game_over || !a.moves.length) {
    if (t.over) return;
    t.over = true;
    const won = a.winner === t.player;
    const result = a.winner ? (won ? "you won" : "you lost") : "the game is over";
    const against = t.goal === "win" && won ? `; ${t.plies} plies against the fastest ${t.optimum}` : "";
    const back = t.takebacks ? `, ${t.takebacks} taken back` : "";
    drawTraining(`Game over, ${result}: ${t.kept} of ${t.moves} moves kept the value${back}${against}.`);
    return;
  }
  if (state.side === t.player) return;
  // The defence: among its best-valued moves, the one that leaves the
  // player the fewest winning (then drawing) replies.
  const best = a.moves[0];
  const equal = a.moves.filter((m) => m.category === best.category && m.plies === best.plies);
  const hardest = equal.reduce((x, y) => {
    const rx = x.replies ?? { win: 0, draw: 0 }, ry = y.replies ?? { win: 0, draw: 0 };
    return ry.win < rx.win || (ry.win === rx.win && ry.draw < rx.draw) ? y : x;
  });
  const seq = state.seq;
  setTimeout(() => { if (seq === state.seq && state.train) playMove(hardest.move, true); }, 500);
}

function takeBack() {
  const t = state.train;
  const b = t?.back.pop();
  if (!b) return;
  state.board = b.board;
  state.side = b.side;
  // The game goes back; the count of moves judged does not (a take-back
  // is counted, and the move taken back stays in the log).
  Object.assign(t, { plies: b.plies, over: false });
  t.takebacks += 1;
  state.record.length = b.record;
  state.last = null;
  drawTraining("Taken back: your move.");
  refresh();
}

async function start() {
  if (!emojiDrawn()) {
    glyphs = LETTERS;
    document.body.classList.add("letters");
  }
  try {
    const list = await api("/api/rulesets");
    const sel = $("ruleset");
    for (const r of list.rulesets) {
      const o = document.createElement("option");
      o.value = r.label;
      o.textContent = r.label + (r.tables ? "" : " (no tables)");
      sel.appendChild(o);
    }
    const first = list.rulesets.find((r) => r.tables);
    if (first) state.ruleset = first.label;
  } catch (e) { showError(e.message); }
  if (!location.search) Object.assign(state, fromNotation("7/7/7/7/7/7/7/7/E5r w"));
  readUrl();
  await loadTerrain();
  refresh(true);

  $("ruleset").addEventListener("change", async (e) => { state.ruleset = e.target.value; await loadTerrain(); refresh(); });
  document.querySelectorAll("input[name=side]").forEach((r) => r.addEventListener("change", (e) => { state.side = e.target.value; edited(); refresh(); }));
  $("clear").addEventListener("click", () => { state.board = {}; edited(); refresh(); });
  $("start").addEventListener("click", () => { Object.assign(state, fromNotation(START)); edited(); refresh(); });
  $("flip").addEventListener("click", () => { state.flipped = !state.flipped; drawBoard(); });
  $("swap").addEventListener("click", () => {
    Object.assign(state, colourSwap(state.board, state.side));
    edited();
    refresh();
  });
  $("load").addEventListener("click", () => {
    try { Object.assign(state, fromNotation($("fen").value)); edited(); refresh(); } catch (e) { showError(e.message); }
  });
  $("fen").addEventListener("keydown", (e) => { if (e.key === "Enter") $("load").click(); });
  $("copy").addEventListener("click", () => navigator.clipboard?.writeText($("fen").value));
  $("best").addEventListener("click", () => {
    const a = state.answer;
    if (a?.moves.length) playMove(a.moves[0].move);
    else if (a?.game_over) {
      const why = { den: "a piece stands on the enemy den", no_pieces: "a side has no pieces left", no_moves: "the side to move has no legal move" }[a.game_over];
      showError(`The game is over (${why}): there is no move to play.`);
    }
  });
  $("play-line").addEventListener("click", playLine);
  $("train-start").addEventListener("click", startTraining);
  $("train-back").addEventListener("click", takeBack);
  $("stop").addEventListener("click", stopLine);
  document.querySelectorAll(".tabs button").forEach((b) => b.addEventListener("click", () => {
    state.view = b.dataset.view;
    state.tool = null;
    drawPalette();
    refresh();
  }));
  window.addEventListener("popstate", (e) => {
    stopLine();
    readUrl();
    const s = e.state || { record: [], recordFrom: null, last: null };
    state.record = s.record;
    state.recordFrom = s.recordFrom;
    state.last = s.last;
    loadTerrain().then(() => refresh(true));
  });
}

start();
