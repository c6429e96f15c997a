// The page's behaviour: it keeps the position (one entry per cell: 0, a digit, or
// an array of pencil marks) and asks the server for everything else.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";

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

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new Error("the server cannot be reached (is `grader serve` still running?)");
  }
  let doc = null;
  try { doc = await response.json(); } catch (e) { /* not JSON */ }
  if (!response.ok) {
    const err = new Error((doc && doc.error) || `${response.status} ${response.statusText}`);
    err.doc = doc;
    err.status = response.status;
    throw err;
  }
  return doc;
}

function say(el, text, cls) {
  el.textContent = text;
  el.className = "message" + (cls ? " " + cls : "");
}

// ---- loading ----

// Loads `text`, its operations hidden when the "Hide operations" switch is on.
// With `keepPosition` (the same puzzle again, the switch turned), the grid
// keeps what was entered.
async function load(text, keepPosition) {
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
  if (!kept) {
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
  setUpOverlay();
  buildKeypad(n);
  showRating(info);
  clearResult();
  setUpSteps();
  if (kept ? state.cells.some((v) => v !== 0) : info.progress) await redrawBoard();
  else drawOverlay();
  $("board").focus({ preventScroll: true });
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

function setUpOverlay() {
  const f = state.info.frame;
  const overlay = $("overlay");
  overlay.setAttribute("viewBox", `0 0 ${f.width} ${f.height}`);
}

function cellRect(index, fill, stroke, opacity) {
  const f = state.info.frame;
  const r = Math.floor(index / f.n), c = index % f.n;
  const rect = document.createElementNS(SVG_NS, "rect");
  rect.setAttribute("x", f.left + c * f.cell);
  rect.setAttribute("y", f.top + r * f.cell);
  rect.setAttribute("width", f.cell);
  rect.setAttribute("height", f.cell);
  rect.setAttribute("fill", fill);
  rect.setAttribute("fill-opacity", opacity);
  if (stroke) {
    rect.setAttribute("stroke", stroke);
    rect.setAttribute("stroke-width", f.cell / 14);
  }
  return rect;
}

function drawOverlay() {
  const overlay = $("overlay");
  overlay.replaceChildren();
  for (const i of state.marks.hint) overlay.append(cellRect(i, "#3fb950", null, 0.28));
  for (const i of state.marks.conflicts) {
    const rect = cellRect(i, "#e03131", null, 0.3);
    rect.setAttribute("class", "conflict");
    overlay.append(rect);
  }
  const sel = cellRect(state.selected, "#1f5fbf", "#1f5fbf", state.pencil ? 0.06 : 0.12);
  sel.setAttribute("class", "selected");
  overlay.append(sel);
}

async function redrawBoard() {
  const seq = ++state.boardSeq;
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
  redrawBoard();
}

function move(dr, dc) {
  const n = state.info.size;
  const r = (Math.floor(state.selected / n) + dr + n) % n;
  const c = ((state.selected % n) + dc + n) % n;
  state.selected = r * n + c;
  drawOverlay();
}

function onBoardClick(event) {
  const f = state.info.frame;
  const box = $("overlay").getBoundingClientRect();
  const x = (event.clientX - box.left) * f.width / box.width;
  const y = (event.clientY - box.top) * f.height / box.height;
  const c = Math.floor((x - f.left) / f.cell), r = Math.floor((y - f.top) / f.cell);
  if (r >= 0 && r < f.n && c >= 0 && c < f.n) {
    state.selected = r * f.n + c;
    drawOverlay();
  }
  $("board").focus({ preventScroll: true });
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
  panel.replaceChildren(text, picture);
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
$("overlay").addEventListener("click", onBoardClick);
document.addEventListener("keydown", onKey);
$("check").addEventListener("click", check);
for (const b of document.querySelectorAll("button.hint")) b.addEventListener("click", () => hint(b.dataset.level));
$("apply-hint").addEventListener("click", applyHint);
$("export").addEventListener("click", exportK6c);
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
setUpFile();
