// The page's behaviour: it keeps the position (one entry per cell: 0, a digit, or
// an array of pencil marks) and asks its back end for everything else. The back
// end is named by the page's <meta name="kenken-backend">: "http", the JSON API
// of `grader serve`; or "worker", the same API answered by the engine compiled
// to WebAssembly in a Web Worker (worker.js, the static site). Nothing else
// differs between the two.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
const BACKEND = document.querySelector('meta[name="kenken-backend"]')?.content === "worker" ? "worker" : "http";

const state = {
  puzzle: null, // the text loaded
  hideOps: false, // whether it was loaded with every operation hidden
  pending: null, // the load under way: { text, keepPosition }
  info: null, // the /api/load answer
  cells: [],
  selected: 0,
  pencil: false,
  history: [],
  step: 1,
  marks: { conflicts: [], hint: [] },
  lastHint: null,
  loadSeq: 0,
  boardSeq: 0,
  stepSeq: 0,
  proofSeq: 0,
};

// The fields that name the puzzle shown, for every request about it.
function shown() {
  return { puzzle: state.puzzle, hide_ops: state.hideOps };
}

// An answer other than 200: its message, status and JSON body.
class ApiError extends Error {
  constructor(message, status, doc) {
    super(message);
    this.status = status;
    this.doc = doc;
  }
}

async function httpApi(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError("the server cannot be reached (is `grader serve` still running?)", 0, null);
  }
  let doc = null;
  try { doc = await response.json(); } catch (e) { /* not JSON */ }
  if (!response.ok) throw new ApiError((doc && doc.error) || `${response.status} ${response.statusText}`, response.status, doc);
  return doc;
}

// The engine in a Web Worker: requests are answered in the order sent; Cancel
// terminates the worker (whatever it computes stops at once) and the next
// request starts a fresh one.
const engine = {
  worker: null,
  next: 1,
  waiting: new Map(), // id -> { resolve, reject, progress }
  start() {
    this.worker = new Worker("worker.js", { type: "module" });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.stop(`the engine stopped: ${event.message || "its worker failed"}`);
    };
  },
  send(message, progress) {
    if (this.worker === null) this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, progress });
      this.worker.postMessage({ id, ...message });
      busy.update();
    });
  },
  receive(data) {
    if (data.failed) {
      this.stop(`the engine cannot start in this browser: ${data.failed}`);
      return;
    }
    const waiting = this.waiting.get(data.id);
    if (!waiting) return;
    if (data.progress) {
      if (waiting.progress) waiting.progress(data.progress);
      return;
    }
    this.waiting.delete(data.id);
    busy.update();
    if (data.error) waiting.reject(new ApiError(data.error.message, data.error.bug ? 500 : 422, null));
    else waiting.resolve(data.answer !== undefined ? data.answer : data.rows);
  },
  // Terminates the worker: every request waiting gets `reason`.
  stop(reason) {
    if (this.worker !== null) this.worker.terminate();
    this.worker = null;
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(new ApiError(reason, 0, null));
    busy.update();
  },
};

async function api(path, body) {
  if (BACKEND === "http") return httpApi(path, body);
  const method = body === undefined ? "GET" : "POST";
  const answer = await engine.send({ kind: "api", method, path, body });
  if (answer.status !== 200) throw new ApiError(answer.body.error || `${answer.status}`, answer.status, answer.body);
  return answer.body;
}

// "Working… Cancel": shown while the worker has been computing for a moment.
const busy = {
  timer: null,
  update() {
    const working = engine.waiting.size > 0;
    clearTimeout(this.timer);
    if (!working) {
      $("busy").hidden = true;
      return;
    }
    this.timer = setTimeout(() => { $("busy").hidden = engine.waiting.size === 0; }, 250);
  },
};

function say(el, text, cls) {
  el.textContent = text;
  el.className = "message" + (cls ? " " + cls : "");
}

// ---- loading ----

// Loads `text`, its operations hidden when the "Hide operations" switch is on.
// With `keepPosition` (the same puzzle again, the switch turned), the grid
// keeps what was entered; `saved` is a position kept for it (its cells and the
// cell selected), as the page left it before a reload.
async function load(text, keepPosition, saved) {
  const message = $("load-message");
  const seq = ++state.loadSeq;
  const hideOps = $("hide-ops").checked;
  state.pending = { text, keepPosition };
  say(message, "Reading and grading…");
  let info;
  try {
    info = await api("/api/load", { puzzle: text, hide_ops: hideOps });
  } catch (e) {
    if (seq !== state.loadSeq) return;
    state.pending = null;
    say(message, e.message, "error");
    // The switch, turned for the puzzle shown, tells how it is shown still.
    if (keepPosition) $("hide-ops").checked = state.hideOps;
    return;
  }
  if (seq !== state.loadSeq) return;
  state.pending = null;
  if (info.hide_ops && !hideOps) serverHidesOps();
  const n = info.size;
  const kept = keepPosition && state.puzzle === text && state.cells.length === n * n;
  state.puzzle = text;
  state.hideOps = info.hide_ops;
  state.info = info;
  if (saved && Array.isArray(saved.cells) && saved.cells.length === n * n) {
    state.cells = saved.cells;
    state.selected = Number.isInteger(saved.selected) && saved.selected >= 0 && saved.selected < n * n ? saved.selected : 0;
    state.history = [];
  } else if (!kept) {
    state.cells = info.progress ? info.progress.slice() : new Array(n * n).fill(0);
    state.selected = 0;
    state.history = [];
  }
  state.marks = { conflicts: [], hint: [] };
  state.step = 1;
  let note = `${n}×${n}${info.kendoku ? " KenDoku" : ""}, read as ${info.format_description}`;
  if (info.hide_ops) note += ", every operation hidden";
  if (info.progress && !kept) note += ", with its progress";
  if (info.warning) note += ` (${info.warning})`;
  say(message, note + ".");
  showAsText(info);
  $("workspace").hidden = false;
  $("board-picture").innerHTML = info.svg;
  setUpBoard();
  buildKeypad(n);
  showRating(info);
  clearResult();
  setUpSteps();
  if (state.cells.some((v) => v !== 0)) await redrawBoard();
  else drawOverlay();
  remember();
  focusCell();
}

// The server reads every puzzle with its operations hidden (`grader serve
// --hide-ops`): the switch stays on.
function serverHidesOps() {
  const box = $("hide-ops");
  box.checked = true;
  box.disabled = true;
  box.parentElement.title = "The server hides every puzzle's operations (grader serve --hide-ops).";
}

// With its operations hidden, the puzzle in the text format ('? 12 A1 A2'): no
// Tatham ID or K6C can show a hidden operation.
function showAsText(info) {
  const hidden = info.hide_ops && info.text !== null;
  $("as-text").hidden = !hidden;
  $("as-text-value").value = hidden ? info.text : "";
}

// The switch turned: the puzzle being loaded, or else the one shown, is loaded
// again with its operations hidden or shown.
function onHideOps() {
  if (state.pending !== null) load(state.pending.text, state.pending.keepPosition);
  else if (state.puzzle !== null) load(state.puzzle, true);
}

function showRating(info) {
  const parts = [];
  const plus = info.status === "solved" ? "" : "+";
  parts.push(`Rating ${info.max}${plus}`);
  if (info.hardest) parts.push(`hardest step: ${info.hardest}`);
  parts.push(`total ${info.total} over ${info.ladder_steps} ladder step(s), ${info.steps.length} in all`);
  $("rating-summary").textContent = parts.join(" — ") + `. Status: ${info.status_text}.`;
}

// ---- the board ----

// The board: the picture drawn by the back end, the marks of the page on it
// (the cell selected, a hint's cells, the entries a check found wrong: each a
// shape as well as a colour), and over them an ARIA grid of one element per
// cell, which takes the clicks and the keyboard focus and tells a screen reader
// each cell's name, digit and pencil marks.
function setUpBoard() {
  const f = state.info.frame;
  $("overlay").setAttribute("viewBox", `0 0 ${f.width} ${f.height}`);
  const grid = $("cells");
  grid.replaceChildren();
  grid.setAttribute("aria-label", `The grid, ${f.n} by ${f.n}: arrow keys move, a digit writes it, Shift+digit a pencil mark`);
  const percent = (v, of) => `${((100 * v) / of).toFixed(4)}%`;
  for (let r = 0; r < f.n; r++) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    for (let c = 0; c < f.n; c++) {
      const cell = document.createElement("div");
      cell.setAttribute("role", "gridcell");
      cell.className = "cell";
      cell.dataset.index = r * f.n + c;
      cell.tabIndex = -1;
      cell.style.left = percent(f.left + c * f.cell, f.width);
      cell.style.top = percent(f.top + r * f.cell, f.height);
      cell.style.width = percent(f.cell, f.width);
      cell.style.height = percent(f.cell, f.height);
      row.append(cell);
    }
    grid.append(row);
  }
}

// What a screen reader says of a cell: `B3: 4`, `B3: pencil marks 1, 2`, `B3:
// blank`, and whether a check or a hint points at it.
function cellLabel(i) {
  const v = state.cells[i];
  let text = `${state.info.cell_names[i]}: `;
  if (Array.isArray(v) && v.length) text += `pencil marks ${v.join(", ")}`;
  else if (typeof v === "number" && v !== 0) text += String(v);
  else text += "blank";
  if (state.marks.conflicts.includes(i)) text += ", wrong";
  if (state.marks.hint.includes(i)) text += ", in the hint";
  return text;
}

function gridCells() {
  return $("cells").querySelectorAll("[role=gridcell]");
}

function updateCells() {
  gridCells().forEach((cell, i) => {
    cell.setAttribute("aria-label", cellLabel(i));
    cell.setAttribute("aria-selected", i === state.selected ? "true" : "false");
    cell.tabIndex = i === state.selected ? 0 : -1;
  });
}

function focusCell() {
  const cell = gridCells()[state.selected];
  if (cell) cell.focus({ preventScroll: true });
}

function selectCell(i) {
  state.selected = i;
  drawOverlay();
  focusCell();
}

// Tells a screen reader what changed (the live region).
function announce(text) {
  $("announce").textContent = text;
}

function cellShape(index, tag, cls) {
  const f = state.info.frame;
  const r = Math.floor(index / f.n), c = index % f.n;
  const x = f.left + c * f.cell, y = f.top + r * f.cell;
  const shape = document.createElementNS(SVG_NS, tag);
  shape.setAttribute("class", cls);
  shape.setAttribute("stroke-width", f.cell / 14);
  if (tag === "rect") {
    const inset = cls === "selected" ? 0 : f.cell / 10;
    shape.setAttribute("x", x + inset);
    shape.setAttribute("y", y + inset);
    shape.setAttribute("width", f.cell - 2 * inset);
    shape.setAttribute("height", f.cell - 2 * inset);
  } else {
    // A cross in the top right corner (the clue is in the top left): an entry
    // found wrong.
    const left = x + 0.66 * f.cell, right = x + 0.84 * f.cell, top = y + 0.16 * f.cell, bottom = y + 0.34 * f.cell;
    shape.setAttribute("d", `M${left} ${top}L${right} ${bottom}M${right} ${top}L${left} ${bottom}`);
  }
  return shape;
}

function drawOverlay() {
  const overlay = $("overlay");
  overlay.replaceChildren();
  // A hint's cells: shaded, with a dashed frame.
  for (const i of state.marks.hint) overlay.append(cellShape(i, "rect", "hint"));
  // A wrong entry: shaded, and crossed out.
  for (const i of state.marks.conflicts) {
    overlay.append(cellShape(i, "rect", "conflict"), cellShape(i, "path", "cross"));
  }
  overlay.append(cellShape(state.selected, "rect", state.pencil ? "selected pencil" : "selected"));
  updateCells();
}

async function redrawBoard() {
  const seq = ++state.boardSeq;
  remember();
  try {
    const doc = await api("/api/board", { ...shown(), cells: state.cells });
    if (seq === state.boardSeq) {
      $("board-picture").innerHTML = doc.svg;
      $("board-picture").dataset.seq = seq;
    }
  } catch (e) {
    say($("result"), e.message, "error");
  }
  drawOverlay();
}

function buildKeypad(n) {
  const pad = $("keypad");
  pad.replaceChildren();
  for (let d = 1; d <= n; d++) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "digit";
    b.textContent = d;
    b.addEventListener("click", () => enter(d, state.pencil));
    pad.append(b);
  }
  const pencil = document.createElement("button");
  pencil.type = "button";
  pencil.id = "pencil";
  pencil.textContent = "Pencil (P)";
  pencil.setAttribute("aria-pressed", state.pencil);
  pencil.addEventListener("click", togglePencil);
  const erase = document.createElement("button");
  erase.type = "button";
  erase.textContent = "Erase";
  erase.addEventListener("click", () => change(state.selected, 0));
  const undo = document.createElement("button");
  undo.type = "button";
  undo.textContent = "Undo";
  undo.addEventListener("click", undoLast);
  pad.append(pencil, erase, undo);
}

function togglePencil() {
  state.pencil = !state.pencil;
  const b = $("pencil");
  if (b) b.setAttribute("aria-pressed", state.pencil);
  announce(state.pencil ? "Pencil marks on" : "Pencil marks off");
  drawOverlay();
}

// Writes one cell (kept for Undo); the board is redrawn unless `later` says the
// caller redraws once after several changes.
function change(index, value, later) {
  const before = state.cells[index];
  if (JSON.stringify(before) === JSON.stringify(value)) return;
  state.history.push([index, before]);
  if (state.history.length > 1000) state.history.shift();
  state.cells[index] = value;
  state.marks.conflicts = [];
  announce(cellLabel(index));
  if (!later) redrawBoard();
}

function enter(d, pencil) {
  const i = state.selected;
  const now = state.cells[i];
  if (!pencil) {
    change(i, now === d ? 0 : d);
    return;
  }
  let marks = Array.isArray(now) ? now.slice() : (now ? [now] : []);
  marks = marks.includes(d) ? marks.filter((x) => x !== d) : marks.concat([d]).sort((a, b) => a - b);
  change(i, marks.length ? marks : 0);
}

function undoLast() {
  const last = state.history.pop();
  if (!last) return;
  state.cells[last[0]] = last[1];
  state.selected = last[0];
  state.marks.conflicts = [];
  announce(`Undone: ${cellLabel(last[0])}`);
  redrawBoard();
}

function move(dr, dc) {
  const n = state.info.size;
  const r = (Math.floor(state.selected / n) + dr + n) % n;
  const c = ((state.selected % n) + dc + n) % n;
  const inGrid = document.activeElement && document.activeElement.getAttribute("role") === "gridcell";
  state.selected = r * n + c;
  drawOverlay();
  if (inGrid) focusCell();
}

function onCellClick(event) {
  const cell = event.target.closest("[role=gridcell]");
  if (cell) selectCell(Number(cell.dataset.index));
}

function onKey(event) {
  if (!state.info) return;
  const target = event.target;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
  const n = state.info.size;
  const key = event.key;
  let digit = null;
  const code = /^(?:Digit|Numpad)(\d)$/.exec(event.code || "");
  if (code) digit = Number(code[1]);
  else if (n >= 10 && /^[a-gA-G]$/.test(key)) digit = 10 + key.toLowerCase().charCodeAt(0) - 97;
  if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "z") { undoLast(); event.preventDefault(); return; }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (digit !== null && digit >= 1 && digit <= n) {
    enter(digit, state.pencil !== event.shiftKey);
  } else if (digit === 0 || key === "Backspace" || key === "Delete" || key === ".") {
    change(state.selected, 0);
  } else if (key === "ArrowUp") move(-1, 0);
  else if (key === "ArrowDown") move(1, 0);
  else if (key === "ArrowLeft") move(0, -1);
  else if (key === "ArrowRight") move(0, 1);
  else if (key === "p" || key === "P") togglePencil();
  else if (key === "[") showStep(state.step - 1);
  else if (key === "]") showStep(state.step + 1);
  else return;
  event.preventDefault();
}

// ---- check, hints, export ----

function clearResult() {
  say($("result"), "");
  $("hint-extra").hidden = true;
  $("export-box").hidden = true;
  state.lastHint = null;
}

async function check() {
  clearResult();
  try {
    const doc = await api("/api/check", { ...shown(), cells: state.cells });
    state.marks.conflicts = doc.conflicts.map((c) => c.index);
    state.marks.hint = [];
    say($("result"), doc.message, doc.status === "conflicts" || doc.status === "contradicts-every" ? "conflicts" : "consistent");
  } catch (e) {
    say($("result"), e.message, "error");
  }
  drawOverlay();
}

async function hint(level) {
  clearResult();
  state.marks.hint = [];
  let doc;
  try {
    doc = await api("/api/hint", { ...shown(), cells: state.cells, level });
  } catch (e) {
    say($("result"), e.message, "error");
    return;
  }
  const lines = [];
  if (doc.status === "step") {
    lines.push(doc.nudge);
    if (doc.technique) lines.push(`Technique: ${doc.technique} (rating ${doc.rating})`);
    if (doc.cells) lines.push(`Cells: ${doc.cells.join(", ")}`);
    for (const p of doc.prior || []) lines.push(`First (nothing to write down yet): ${p.text}`, p.explanation);
    if (doc.step) lines.push(`Step: ${doc.step.text}`, doc.step.explanation);
  } else {
    lines.push(doc.message);
  }
  say($("result"), lines.join("\n"), doc.status === "conflict" ? "conflicts" : "");
  state.marks.hint = doc.cell_indices || [];
  if (doc.status === "conflict") {
    state.marks.conflicts = doc.cell_indices || [];
    state.marks.hint = [];
  }
  if (doc.svg) {
    $("hint-picture").innerHTML = doc.svg;
    showWhy($("hint-why"), doc.step);
    $("hint-extra").hidden = false;
    state.lastHint = doc.step;
  }
  drawOverlay();
}

function applyHint() {
  const step = state.lastHint;
  if (!step) return;
  const n = state.info.size;
  const all = Array.from({ length: n }, (_, i) => i + 1);
  for (const p of step.placements) change(p.index, p.digit, true);
  for (const e of step.eliminations) {
    const now = state.cells[e.index];
    const marks = Array.isArray(now) ? now : (now ? [now] : all);
    const left = marks.filter((d) => d !== e.digit);
    change(e.index, left.length ? left : 0, true);
  }
  state.marks.hint = [];
  clearResult();
  redrawBoard();
}

async function exportK6c() {
  clearResult();
  const box = $("export-box"), text = $("export-text");
  try {
    const doc = await api("/api/export", { ...shown(), cells: state.cells });
    say($("result"), `The position as ${doc.format.toUpperCase()} (paste it back here, or give it to grader hint):`);
    text.value = doc.text;
  } catch (e) {
    say($("result"), e.message, "error");
    text.value = (e.doc && e.doc.grid) || "";
  }
  box.hidden = !text.value;
  if (text.value) text.select();
}

// ---- steps ----

function setUpSteps() {
  const count = state.info.steps.length;
  const range = $("step-range");
  range.max = Math.max(count, 1);
  range.disabled = count === 0;
  $("step-picture").replaceChildren();
  if (count === 0) {
    $("step-count").textContent = "No steps: the ladder finds nothing to do from the start.";
    $("step-text").textContent = "";
    $("step-explanation").textContent = "";
    showWhy($("step-why"), null);
    updateStepButtons();
    return;
  }
  showStep(1);
}

function updateStepButtons() {
  const count = state.info ? state.info.steps.length : 0;
  $("step-first").disabled = $("step-back").disabled = state.step <= 1 || count === 0;
  $("step-last").disabled = $("step-forward").disabled = state.step >= count;
}

async function showStep(k) {
  const count = state.info.steps.length;
  if (count === 0) return;
  k = Math.min(Math.max(k, 1), count);
  state.step = k;
  $("step-range").value = k;
  const line = state.info.steps[k - 1];
  $("step-count").textContent = `Step ${k} of ${count}`;
  $("step-text").textContent = `(${line.rating}) ${line.text}`;
  $("step-picture").setAttribute("aria-label", `Step ${k} drawn on the grid: ${line.text}`);
  updateStepButtons();
  const seq = ++state.stepSeq;
  try {
    const doc = await api("/api/step", { ...shown(), n: k });
    if (seq !== state.stepSeq) return;
    $("step-explanation").textContent = doc.step.explanation;
    showWhy($("step-why"), doc.step, k);
    $("step-picture").innerHTML = doc.svg;
    $("step-picture").dataset.step = k;
    if (k === count) $("step-count").textContent = `Step ${k} of ${count} (the last: ${state.info.walk_end === "solved" ? "the grid is solved" : "the ladder stops here"})`;
  } catch (e) {
    if (seq === state.stepSeq) $("step-explanation").textContent = e.message;
  }
}

// ---- why a step removes what it removes ----

// The removed combinations listed before "Show all".
const WHY_SHOWN = 8;

function smallButton(text, label) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (label) b.setAttribute("aria-label", label);
  return b;
}

// Lists in `box` the cage combinations `step` removes, each with a "Why?" button
// showing its proof (a region step has one proof for the whole step, so one
// button). `n` is the step's number in the log, whose proofs /api/proof draws;
// without it (a hint, from the grid as it stands) a proof is told in words only.
function showWhy(box, step, n) {
  box.replaceChildren();
  const cuts = (step && step.combinations) || [];
  box.hidden = cuts.length === 0;
  if (box.hidden) return;
  const proofs = step.proof || [];
  const region = proofs.length > 0 && proofs[0].lines !== undefined;
  const panel = document.createElement("div");
  panel.className = "proof";
  panel.id = `${box.id}-proof`;
  panel.hidden = true;
  panel.setAttribute("aria-live", "polite");
  const why = (k, label) => {
    const b = smallButton("Why?", label);
    b.className = "why-button";
    b.setAttribute("aria-expanded", "false");
    b.setAttribute("aria-controls", panel.id);
    b.addEventListener("click", () => toggleProof(box, panel, b, step, n, k));
    return b;
  };
  let i = 0;
  for (const cut of cuts) {
    const block = document.createElement("div");
    block.className = "cage";
    block.hidden = i >= WHY_SHOWN;
    const head = document.createElement("p");
    const lost = cut.removed.length;
    head.textContent = `Cage ${cut.cage} (${cut.cells.join(", ")}) loses ${lost} of its ${cut.before} combinations:`;
    const list = document.createElement("ul");
    list.setAttribute("aria-label", `The combinations cage ${cut.cage} loses`);
    for (const digits of cut.removed) {
      const item = document.createElement("li");
      item.append(digits.join(", "));
      if (!region && i < proofs.length) {
        item.append(why(i + 1, `Why? ${cut.cells.join(", ")} cannot be ${digits.join(", ")}`));
      }
      item.hidden = i >= WHY_SHOWN;
      list.append(item);
      i++;
    }
    block.append(head, list);
    box.append(block);
  }
  if (i > WHY_SHOWN) {
    const more = smallButton(`Show all ${i}`);
    more.className = "why-more";
    more.addEventListener("click", () => {
      for (const e of box.querySelectorAll(".cage[hidden], li[hidden]")) e.hidden = false;
      more.remove();
    });
    box.append(more);
  }
  if (region) {
    const line = document.createElement("p");
    line.append("One reason for them all:", why(1, "Why? The reason these combinations go"));
    box.append(line);
  }
  box.append(panel);
}

// Shows proof `k` in `panel` (or hides it, when its button is pressed again).
async function toggleProof(box, panel, b, step, n, k) {
  const open = b.getAttribute("aria-expanded") === "true";
  for (const other of box.querySelectorAll("button.why-button")) other.setAttribute("aria-expanded", "false");
  const seq = ++state.proofSeq;
  panel.hidden = open;
  if (open) return;
  b.setAttribute("aria-expanded", "true");
  const text = document.createElement("p");
  const picture = document.createElement("div");
  const proof = (step.proof || [])[k - 1];
  text.textContent = proof ? proof.text : "";
  const premises = cutCombinations(proof);
  panel.replaceChildren(text, ...(premises ? [premises] : []), picture);
  delete panel.dataset.proof;
  if (n === undefined) {
    panel.dataset.proof = k;
    return;
  }
  try {
    const doc = await api("/api/proof", { ...shown(), n, k });
    if (seq !== state.proofSeq) return;
    text.textContent = doc.text;
    picture.innerHTML = doc.svg;
    panel.dataset.proof = `${n}:${k}`;
  } catch (e) {
    if (seq !== state.proofSeq) return;
    text.textContent = e.message;
    text.className = "error";
  }
}

// The combinations earlier steps cut that a cage comparison's proof leans on
// (the candidates still allow them), cage by cage, each step that cut them a
// button that shows that step of the solution; null when the proof leans on
// none.
function cutCombinations(proof) {
  const narrowed = ((proof && proof.cages) || []).filter((c) => c.cut && c.cut.length);
  if (narrowed.length === 0) return null;
  const box = document.createElement("div");
  box.className = "premises";
  const head = document.createElement("span");
  head.textContent = "Cut by earlier steps, though the candidates allow them:";
  const list = document.createElement("ul");
  list.setAttribute("aria-label", "Combinations cut by earlier steps");
  for (const cage of narrowed) {
    const item = document.createElement("li");
    const tuples = cage.cut.map((d) => `(${d.join(", ")})`);
    item.append(`Cage ${cage.cage}: ${tuples.join(", ")} out at `);
    const steps = cage.narrowed_by || [];
    if (steps.length === 0) item.append("an earlier step");
    steps.forEach((n, i) => {
      if (i > 0) item.append(i === steps.length - 1 ? " and " : ", ");
      const b = smallButton(`step ${n}`, `Show step ${n}, which cut combinations of cage ${cage.cage}`);
      b.className = "step-link";
      b.dataset.step = n;
      b.addEventListener("click", () => goToStep(n));
      item.append(b);
    });
    list.append(item);
  }
  box.append(head, list);
  return box;
}

// Shows step `n` of the solution and moves the focus to its text.
async function goToStep(n) {
  const at = $("step-text");
  at.setAttribute("tabindex", "-1");
  await showStep(n);
  at.focus();
  at.scrollIntoView({ block: "nearest" });
}

// ---- the file's puzzles ----

async function setUpFile() {
  let doc;
  try {
    doc = await api("/api/puzzles?offset=0&limit=1000");
  } catch (e) {
    return; // no FILE
  }
  $("file-name").textContent = doc.name;
  const list = $("file-list");
  for (const item of doc.items) {
    const o = document.createElement("option");
    o.value = item.puzzle;
    o.dataset.hideOps = item.hide_ops;
    const short = item.puzzle.length > 48 ? item.puzzle.slice(0, 47) + "…" : item.puzzle;
    o.textContent = `#${item.number}  ${short.replace(/\s+/g, " ")}`;
    list.append(o);
  }
  $("file-number").max = doc.total;
  let info = `${doc.total} puzzle(s)`;
  if (doc.total > doc.items.length) info += `; the list shows the first ${doc.items.length}, the number box reaches all`;
  $("file-info").textContent = info;
  $("file-picker").hidden = false;
}

// Opens the file's puzzle picked (by the list, or by its number); an entry
// that asks for its operations hidden turns the switch on.
async function openFromFile() {
  const number = $("file-number").value;
  const list = $("file-list");
  let text = list.value;
  let hideOps = list.selectedIndex >= 0 && list.options[list.selectedIndex].dataset.hideOps === "true";
  if (number) {
    try {
      const doc = await api(`/api/puzzles?offset=${Number(number) - 1}&limit=1`);
      if (!doc.items.length) throw new Error(`the file has ${doc.total} puzzle(s)`);
      text = doc.items[0].puzzle;
      hideOps = doc.items[0].hide_ops;
    } catch (e) {
      say($("load-message"), e.message, "error");
      return;
    }
  }
  if (!text) return;
  if (hideOps) $("hide-ops").checked = true;
  $("puzzle-text").value = text;
  load(text);
}

async function showLadder() {
  const table = $("ladder");
  if (table.rows.length) return;
  try {
    const doc = await api("/api/ladder");
    for (const t of doc.techniques) {
      const row = table.insertRow();
      row.insertCell().textContent = t.rating;
      row.insertCell().textContent = t.name + (t.enabled ? "" : " (off by default)");
      row.insertCell().textContent = t.summary;
    }
  } catch (e) { /* the paragraph above still says it */ }
}

// ---- kept across reloads, and shared by a link ----

const STORE = "kenken-grader";

// The page's address for a puzzle: `#p=` its text (and `&h=1` with its
// operations hidden), which opens it when followed.
function linkFor(puzzle, hideOps) {
  return `#p=${encodeURIComponent(puzzle)}${hideOps ? "&h=1" : ""}`;
}

// Keeps the puzzle shown and its position (for a reload), and puts the
// puzzle's link in the address bar.
function remember() {
  if (state.puzzle === null) return;
  const kept = { puzzle: state.puzzle, hideOps: state.hideOps, cells: state.cells, selected: state.selected };
  try {
    localStorage.setItem(STORE, JSON.stringify(kept));
  } catch (e) { /* storage full or refused: the page works without it */ }
  const link = linkFor(state.puzzle, state.hideOps);
  if (location.hash !== link) history.replaceState(null, "", link);
}

function saved() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE));
    return kept && typeof kept.puzzle === "string" ? kept : null;
  } catch (e) {
    return null;
  }
}

// Opens the puzzle of the address's `#p=`, else the one kept from the last
// visit, each with the position kept for it.
function restore() {
  const params = new URLSearchParams(location.hash.slice(1));
  const kept = saved();
  let puzzle = params.get("p");
  let hideOps = params.get("h") === "1";
  if (puzzle === null) {
    if (kept === null) return;
    puzzle = kept.puzzle;
    hideOps = kept.hideOps === true;
  }
  if (puzzle === state.puzzle && hideOps === state.hideOps) return;
  $("hide-ops").checked = hideOps || $("hide-ops").disabled;
  $("puzzle-text").value = puzzle;
  const position = kept && kept.puzzle === puzzle && kept.hideOps === hideOps ? kept : null;
  load(puzzle, false, position);
}

async function copyLink() {
  const link = new URL(linkFor(state.puzzle, state.hideOps), location.href).href;
  $("export-text").value = link;
  $("export-box").hidden = false;
  $("export-text").select();
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch (e) { /* no clipboard here: the link is selected to copy */ }
  say($("result"), copied ? "The puzzle's link, copied:" : "The puzzle's link (copy it):");
}

// ---- a new puzzle, made in the worker ----

// The bands offered, by the ladder's levels (see the rating's scale).
function band() {
  const [min, max] = $("new-band").value.split("-");
  return { min: Number(min), max: max === "" ? undefined : Number(max) };
}

async function newPuzzle(event) {
  event.preventDefault();
  const message = $("load-message");
  const size = Number($("new-size").value);
  const { min, max } = band();
  const hideOps = $("hide-ops").checked;
  const what = `a unique ${size}×${size} puzzle rated ${max === undefined ? `${min} or more` : min === max ? min : `${min} to ${max}`}`;
  say(message, `Making ${what}…`);
  const seq = ++state.loadSeq;
  let rows;
  try {
    rows = await engine.send(
      { kind: "generate", options: { size, min, max, count: 1, hideOps, timeout: 600 } },
      (p) => { if (seq === state.loadSeq) say(message, `Making ${what}… (${p.tried} attempt(s) so far)`); },
    );
  } catch (e) {
    if (seq === state.loadSeq) say(message, e.message, "error");
    return;
  }
  if (seq !== state.loadSeq) return;
  const puzzle = rows[0].puzzle;
  $("puzzle-text").value = puzzle;
  await load(puzzle);
}

function cancel() {
  engine.stop("Cancelled: the engine was stopped (it starts afresh for the next request).");
  if (state.pending !== null) state.pending = null;
  say($("load-message"), "Cancelled.", "error");
}

// ---- wiring ----

$("load").addEventListener("click", () => {
  const text = $("puzzle-text").value.trim();
  if (text) load(text); else say($("load-message"), "Paste a puzzle first.", "error");
});
$("puzzle-text").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); $("load").click(); }
});
$("file-open").addEventListener("click", openFromFile);
$("hide-ops").addEventListener("change", onHideOps);
$("file-list").addEventListener("change", () => { $("file-number").value = ""; });
$("cells").addEventListener("click", onCellClick);
document.addEventListener("keydown", onKey);
$("check").addEventListener("click", check);
for (const b of document.querySelectorAll("button.hint")) b.addEventListener("click", () => hint(b.dataset.level));
$("apply-hint").addEventListener("click", applyHint);
$("export").addEventListener("click", exportK6c);
$("link").addEventListener("click", copyLink);
$("clear").addEventListener("click", () => {
  state.cells.forEach((v, i) => { if (v !== 0) change(i, 0, true); });
  clearResult();
  state.marks.hint = [];
  redrawBoard();
});
$("step-first").addEventListener("click", () => showStep(1));
$("step-back").addEventListener("click", () => showStep(state.step - 1));
$("step-forward").addEventListener("click", () => showStep(state.step + 1));
$("step-last").addEventListener("click", () => showStep(state.info.steps.length));
$("step-range").addEventListener("input", (e) => showStep(Number(e.target.value)));
$("ladder-details").addEventListener("toggle", showLadder);
$("new-puzzle").addEventListener("submit", newPuzzle);
$("cancel").addEventListener("click", cancel);
window.addEventListener("hashchange", restore);
$("new-puzzle").hidden = BACKEND !== "worker";
setUpFile();
restore();
