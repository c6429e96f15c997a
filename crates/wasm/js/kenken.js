// The KenKen grader in JavaScript: the engine of `grader` (crates/wasm, compiled
// to WebAssembly) behind the functions of the Python package, for Node and
// browsers. Every function returns what `grader` prints as JSON (the rows of
// `grader batch --format ndjson`, the documents of `grade --json`, `hint
// --json`, `check --json`, `solve --json`, `generate`'s rows), parsed.
//
// The module compiles the engine when it is imported (top-level await), so its
// functions are synchronous: in a browser, call them from a Web Worker when a
// long computation must not hold the page (the site's worker.js does).

import initEngine, * as firstEngine from "./kenken_wasm.js";

const GLUE_URL = new URL("./kenken_wasm.js", import.meta.url).href;
const WASM_URL = new URL("./kenken_wasm_bg.wasm", import.meta.url);

// ---- errors ----

/** The base class of the package's errors; messages are `grader`'s. */
export class KenkenError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = new.target.name;
  }
}
/** A puzzle string that cannot be read, or a puzzle a format cannot hold. */
export class FormatError extends KenkenError {}
/** An option out of range: an unknown mode or technique, a bad timeout, … */
export class OptionsError extends KenkenError {}
/** A generation request the generator refuses (checked before any search). */
export class GenerateError extends KenkenError {}
/** A picture that cannot be drawn (a step past the end of the log, …). */
export class RenderError extends KenkenError {}
/** A batch input that cannot be read; `rows` holds the rows before the place. */
export class BatchInputError extends KenkenError {}
/**
 * A generation run stopped (`maxTries`, `timeout`) before `count` puzzles were
 * found: `puzzles` holds the rows found, `tried` the attempts made.
 */
export class IncompleteError extends KenkenError {}
/** A bug in the grader (the engine panicked); the engine is started afresh. */
export class InternalError extends KenkenError {}

const KINDS = { FormatError, OptionsError, GenerateError, RenderError, BatchInputError, IncompleteError };

// ---- the engine ----

async function compileEngine() {
  const node = typeof process === "object" && process.versions && process.versions.node !== undefined;
  if (node && WASM_URL.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return WebAssembly.compile(await readFile(WASM_URL));
  }
  const response = await fetch(WASM_URL);
  if (WebAssembly.compileStreaming && response.headers.get("content-type") === "application/wasm") {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

const compiled = await compileEngine();
await initEngine({ module_or_path: compiled });
// The instance in use (null while a new one starts after a bug), how many
// have been in use, and a fresh copy of the glue module to start the next one
// from.
let engine = firstEngine;
let generation = 1;
let spare = null;
let copies = 0;

function copyOfGlue() {
  copies += 1;
  return import(/* webpackIgnore: true */ /* @vite-ignore */ `${GLUE_URL}?copy=${copies}`);
}

function prepareSpare() {
  copyOfGlue().then((glue) => { spare = glue; }, () => { spare = null; });
}

// After a panic the instance is not used again: a fresh one takes its place
// (at once where a module may be instantiated synchronously, as in Node and in
// workers; otherwise as soon as it is ready).
function replaceEngine() {
  const next = spare;
  engine = null;
  spare = null;
  generation += 1;
  const start = (glue) => {
    try {
      glue.initSync({ module: compiled });
      engine = glue;
    } catch {
      glue.default({ module_or_path: compiled }).then(() => { engine = glue; });
    }
  };
  if (next !== null) start(next);
  else copyOfGlue().then(start);
  prepareSpare();
}
prepareSpare();

function translate(error) {
  if (error instanceof WebAssembly.RuntimeError) {
    let why = null;
    try { why = engine.last_panic(); } catch { /* the instance is gone */ }
    replaceEngine();
    return new InternalError(`a bug in the grader: ${why || error.message}`, { cause: error });
  }
  if (error instanceof Error && KINDS[error.name]) {
    const translated = new KINDS[error.name](error.message);
    if (typeof error.details === "string") {
      const details = JSON.parse(error.details);
      if (details.puzzles) details.puzzles = details.puzzles.map(generatedRow);
      Object.assign(translated, details);
    }
    return translated;
  }
  if (error instanceof Error && error.name === "TypeError") return new TypeError(error.message);
  return error;
}

function call(name, ...args) {
  if (engine === null) {
    throw new InternalError("the engine is starting again after a bug: try again in a moment");
  }
  try {
    return engine[name](...args);
  } catch (error) {
    throw translate(error);
  }
}

// ---- puzzles ----

/** A puzzle read by `read` (or from a generated row): immutable. */
export class Puzzle {
  constructor(doc) {
    /** The text it was read from. */
    this.source = doc.source;
    /** The format it was read as: `tatham`, `k6c`, `d6c`, `text`, `letter-grid`. */
    this.format = doc.format;
    /** Whether it was read with every operation hidden (`hideOps`). */
    this.hideOps = doc.hide_ops;
    /** The grid's side: 3 to 16. */
    this.size = doc.size;
    /** The cages: `{op, clue, cells, positions}`; `op` is null when hidden. */
    this.cages = doc.cages.map((c) => Object.freeze({ ...c }));
    /** KenDoku boxes as [rows, columns], or null for plain KenKen. */
    this.boxes = doc.boxes;
    /** Whether any cage's operation is hidden. */
    this.hasHiddenOps = doc.has_hidden_ops;
    /** The rules relaxed to read it (a game ID read leniently), or null. */
    this.warning = doc.warning;
    Object.freeze(this.cages);
    Object.freeze(this);
  }

  #write(format) { return call("write_as", this.source, this.format, this.hideOps, format); }
  /** Simon Tatham's Keen game ID. */
  toTatham() { return this.#write("tatham"); }
  /** SudokuWiki's packed K6C string (6×6 KenKen only). */
  toK6c() { return this.#write("k6c"); }
  /** SudokuWiki's packed D6C string (6×6 KenDoku only). */
  toD6c() { return this.#write("d6c"); }
  /** The line-per-cage text format (`# 4`, then `/ 2 A1 B1`, …). */
  toText() { return this.#write("text"); }
  /** SudokuWiki's unpacked `KenKen6x6.aspx?bd=` URL (6×6 only). */
  toSudokuwiki() { return this.#write("sudokuwiki"); }
  toString() { return this.source; }
}

function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value === "object" ? value.constructor?.name || "object" : typeof value}`;
}

// The puzzle arguments of the engine's calls: text, format, read hidden.
function puzzleArgs(fn, puzzle) {
  if (typeof puzzle === "string") return [puzzle, undefined, false];
  if (puzzle instanceof Puzzle) return [puzzle.source, puzzle.format, puzzle.hideOps];
  throw new TypeError(`${fn}(): a puzzle is a string or a Puzzle, not ${describe(puzzle)}`);
}

// A generated row: its 64-bit seed as a BigInt.
function generatedRow(row) {
  return { ...row, seed: BigInt(row.seed) };
}

// ---- the functions ----

/**
 * Reads a puzzle string in any supported format (a Tatham Keen game ID or URL,
 * SudokuWiki K6C/D6C, the `# 6` text format, a letter grid). Options:
 * `format` (`tatham`, `k6c`, `d6c`, `text`, `letter-grid`; detected otherwise),
 * `hideOps` (hide every cage's operation).
 */
export function read(text, options) {
  if (typeof text !== "string") throw new TypeError(`read(): text must be a string, not ${describe(text)}`);
  return new Puzzle(JSON.parse(call("read", text, options)));
}

/**
 * Grades a puzzle as `grader batch` grades each of its puzzles: its row, with
 * the fields and values of a `grader batch --format ndjson` line (`index` 1).
 * Options are `grader`'s: `mode` (`"n"`, `"c"`, `"b"`, the default here),
 * `timeout` (seconds), `disable`, `enable` (technique ids), `maxDepth` (2 to 8),
 * `maxMemory` (bytes or `"512M"`), `maxWork`, `times` (adds `ms`), `hideOps`.
 */
export function grade(puzzle, options) {
  return JSON.parse(call("grade", ...puzzleArgs("grade", puzzle), options));
}

/**
 * Grades many puzzles (any iterable of strings and Puzzles) and returns their
 * rows in input order; an item that is not a puzzle gets an `invalid` row.
 * Options as `grade`'s.
 */
export function gradeMany(puzzles, options) {
  const jobs = [];
  let index = 0;
  for (const item of puzzles) {
    index += 1;
    if (typeof item === "string") {
      jobs.push({ index, text: item, problem: null, hide_ops: false, bytes: item.length });
    } else if (item instanceof Puzzle) {
      jobs.push({ index, text: item.source, problem: null, hide_ops: item.hideOps, bytes: item.source.length });
    } else {
      const shown = String(item);
      jobs.push({
        index,
        text: shown,
        problem: `item ${index} is ${describe(item)}, not a puzzle string or a Puzzle`,
        hide_ops: false,
        bytes: shown.length,
      });
    }
  }
  return JSON.parse(call("grade_many", JSON.stringify(jobs), options));
}

/**
 * Grades the text of a batch file (a JSON array of puzzle strings or `{"puzzle":
 * …}` objects, NDJSON, a category object, or one puzzle a line) and returns the
 * rows `grader batch --format ndjson FILE` writes, in order. Options as
 * `grade`'s (mode n by default, as `grader batch`).
 */
export function batch(input, options) {
  if (typeof input !== "string") throw new TypeError(`batch(): the input must be a string, not ${describe(input)}`);
  return JSON.parse(call("batch", input, options));
}

/**
 * Solves a puzzle by exhaustive search: `grader solve --json`'s document,
 * `{puzzle, size, verdict, solution}`. Options: `timeout`, `hideOps`.
 */
export function solve(puzzle, options) {
  return JSON.parse(call("solve", ...puzzleArgs("solve", puzzle), options));
}

/**
 * The step log as `grader grade --json` gives it: one object per step with
 * `technique`, `name`, `rating`, `text`, `placements`, `eliminations`,
 * `combinations`, `proof`, `explanation`. Options as `grade`'s (mode n by
 * default).
 */
export function steps(puzzle, options) {
  return JSON.parse(call("steps", ...puzzleArgs("steps", puzzle), options));
}

/**
 * The next step from a position, told as little as `level` asks (`nudge`,
 * `technique`, `cells`, `full`): `grader hint --json`'s document. `state` is the
 * position (a grid of digits, `.` and `[…]` pencil marks, or a K6C/D6C with
 * progress); without it, a K6C/D6C puzzle's progress or the empty grid.
 */
export function hint(puzzle, options) {
  return JSON.parse(call("hint", ...puzzleArgs("hint", puzzle), options));
}

/**
 * Which entries of a position (`state`, as `hint` takes it) contradict the
 * solution: `grader check --json`'s document.
 */
export function check(puzzle, options) {
  return JSON.parse(call("check", ...puzzleArgs("check", puzzle), options));
}

/**
 * Makes `count` unique `size`×`size` puzzles whose max rating lies in [`min`,
 * `max`]: `grader generate`'s rows (`seed` as a BigInt). Options are `grader
 * generate`'s: `size`, `min`, `max`, `count`, `seed`, `ops`, `strict`,
 * `cageSizes`, `maxGivens`, `maxMeanCage`, `kendoku`, `hideOps`, `require`,
 * `forbid`, `maxDepth`, `steps`, `maxTries`, `timeout`. `onProgress({found,
 * tried})` is called as attempts end.
 */
export function generate(options, onProgress) {
  return JSON.parse(call("generate", options, onProgress)).map(generatedRow);
}

/**
 * The grid as a self-contained SVG, as `grader render` draws it: empty, with a
 * `state`, the `solution`, the `candidates`, or `step` N of the log (with
 * `proof` K of it) drawn on the grid before it, captioned unless `caption` is
 * false. Options also `hideOps`.
 */
export function renderSvg(puzzle, options) {
  return call("render_svg", ...puzzleArgs("renderSvg", puzzle), options);
}

/** The techniques of the ladder, easiest first, as `grader techniques` lists them. */
export function techniques() {
  return JSON.parse(call("techniques"));
}

/** Panics inside the engine: for the package's tests of how a bug is reported. */
export function _panicForTest(message) {
  call("panic_for_test", message);
}

/** The package's version. */
export const version = firstEngine.version();

/**
 * The API of `grader serve`'s page answered here (the back end of the site's
 * Web Worker): `answer("POST", "/api/load", {puzzle})` gives `{status, body}`,
 * the status and JSON body the server answers with.
 */
export class PageEngine {
  #hideOps;
  #page = null;
  #generation = 0;

  constructor(hideOps = false) {
    this.#hideOps = hideOps;
  }

  answer(method, path, body) {
    if (this.#page === null || this.#generation !== generation) {
      if (engine === null) throw new InternalError("the engine is starting again after a bug: try again in a moment");
      this.#page = new engine.Page(this.#hideOps);
      this.#generation = generation;
    }
    const text = body === undefined || body === null ? "" : JSON.stringify(body);
    try {
      return JSON.parse(this.#page.answer(method, path, text));
    } catch (error) {
      this.#page = null;
      throw translate(error);
    }
  }
}
