// Types of the KenKen grader's npm package (kenken.js). Option names are
// `grader`'s in camelCase (`maxDepth` for `--max-depth`); snake_case names
// (`max_depth`, as the Python package spells them) are taken too.

/** The base class of the package's errors; messages are `grader`'s. */
export class KenkenError extends Error {}
/** A puzzle string that cannot be read, or a puzzle a format cannot hold. */
export class FormatError extends KenkenError {}
/** An option out of range: an unknown mode or technique, a bad timeout, … */
export class OptionsError extends KenkenError {}
/** A generation request the generator refuses (checked before any search). */
export class GenerateError extends KenkenError {}
/** A picture that cannot be drawn (a step past the end of the log, …). */
export class RenderError extends KenkenError {}
/** A batch input that cannot be read; `rows` holds the rows before the place. */
export class BatchInputError extends KenkenError {
  rows?: GradeRow[];
}
/** A generation run stopped before `count` puzzles were found. */
export class IncompleteError extends KenkenError {
  puzzles: GeneratedRow[];
  tried: number;
}
/** A bug in the grader (the engine panicked); the engine is started afresh. */
export class InternalError extends KenkenError {}

export type Format = "tatham" | "k6c" | "d6c" | "text" | "letter-grid";

export interface Cage {
  /** `+`, `-`, `*`, `/`, `!` (a given); null when the operation is hidden. */
  readonly op: "+" | "-" | "*" | "/" | "!" | null;
  readonly clue: number;
  /** The cells by name (`B3`), in reading order. */
  readonly cells: readonly string[];
  /** The cells as 0-based [row, column], in reading order. */
  readonly positions: readonly (readonly [number, number])[];
}

/** A puzzle read by `read`. */
export class Puzzle {
  readonly source: string;
  readonly format: Format;
  readonly hideOps: boolean;
  readonly size: number;
  readonly cages: readonly Cage[];
  readonly boxes: readonly [number, number] | null;
  readonly hasHiddenOps: boolean;
  readonly warning: string | null;
  toTatham(): string;
  toK6c(): string;
  toD6c(): string;
  toText(): string;
  toSudokuwiki(): string;
  toString(): string;
}

export type PuzzleArg = string | Puzzle;

export interface ReadOptions {
  format?: Format;
  hideOps?: boolean;
}

export interface GradeOptions {
  /** n: the whole ladder; c: cage combinations only; b: both. */
  mode?: "n" | "c" | "b";
  /** Seconds for the whole grading of a puzzle. */
  timeout?: number;
  /** Technique ids to switch off (see `techniques()`). */
  disable?: string | string[];
  /** Technique ids, off by default, to switch on. */
  enable?: string | string[];
  /** 2 to 8. */
  maxDepth?: number;
  /** Bytes, or a size such as "512M". */
  maxMemory?: number | string;
  maxWork?: number;
  hideOps?: boolean;
}

export interface GradeRow {
  index: number;
  puzzle: string;
  status: "solved" | "stuck" | "ambiguous" | "impossible" | "timeout" | "limit" | "invalid" | "error";
  success?: boolean;
  max?: number;
  total?: number;
  steps?: number;
  depth?: number | null;
  cc_steps?: number;
  ms?: number;
  error?: string;
  [field: string]: unknown;
}

export interface CellDigit {
  cell: string;
  index: number;
  digit: number;
}

/** One step of the log, as `grader grade --json` gives it. */
export interface Step {
  technique: string;
  name: string;
  rating: number;
  text: string;
  placements: CellDigit[];
  eliminations: CellDigit[];
  combinations?: { cage: string; cells: string[]; before: number; removed: number[][] }[];
  proof?: ({ text: string } & Record<string, unknown>)[];
  explanation: string;
}

export interface SolveDoc {
  puzzle: string;
  size: number;
  verdict: "unique" | "ambiguous" | "impossible" | "timeout" | "limit";
  solution: number[][] | null;
}

export interface PositionOptions extends GradeOptions {
  /** The position: a grid of digits, `.` and `[…]` pencil marks, or a K6C/D6C with progress. */
  state?: string;
}

export interface HintDoc {
  status: "step" | "conflict" | "solved" | "stuck" | "ambiguous" | "contradicts-every" | "impossible" | "timeout" | "limit";
  message?: string;
  nudge?: string;
  technique?: string;
  cells?: string[];
  prior?: Step[];
  step?: Step;
  conflict?: string;
}

export interface CheckDoc {
  status: "consistent" | "conflicts" | "consistent-with-some" | "contradicts-every" | "impossible" | "timeout" | "limit";
  conflicts: { cell: string; kind: "wrong-digit" | "digit-removed"; entered?: number }[];
  filled: number;
  cells: number;
}

export interface GenerateOptions {
  size: number;
  min: number;
  max?: number;
  count?: number;
  seed?: number | bigint;
  ops?: string;
  strict?: boolean;
  cageSizes?: [number, number] | string;
  maxGivens?: number;
  maxMeanCage?: number;
  kendoku?: boolean;
  hideOps?: boolean;
  require?: string | string[];
  forbid?: string | string[];
  maxDepth?: number;
  steps?: number;
  maxTries?: number;
  timeout?: number;
}

export interface GeneratedRow {
  depth: number | null;
  hide_ops?: boolean;
  index: number;
  max: number;
  puzzle: string;
  /** The attempt's seed (64 bits): the same options with it make this puzzle first. */
  seed: bigint;
  size: number;
  technique: string;
  total: number;
}

export interface RenderOptions {
  step?: number;
  proof?: number;
  solution?: boolean;
  candidates?: boolean;
  caption?: boolean;
  state?: string;
  hideOps?: boolean;
}

export interface Technique {
  id: string;
  name: string;
  rating: string;
  enabled: boolean;
  summary: string;
}

export function read(text: string, options?: ReadOptions): Puzzle;
export function grade(puzzle: PuzzleArg, options?: GradeOptions & { times?: boolean }): GradeRow;
export function gradeMany(puzzles: Iterable<unknown>, options?: GradeOptions & { times?: boolean }): GradeRow[];
export function batch(input: string, options?: GradeOptions & { times?: boolean }): GradeRow[];
export function solve(puzzle: PuzzleArg, options?: { timeout?: number; hideOps?: boolean }): SolveDoc;
export function steps(puzzle: PuzzleArg, options?: GradeOptions): Step[];
export function hint(
  puzzle: PuzzleArg,
  options?: PositionOptions & { level?: "nudge" | "technique" | "cells" | "full" },
): HintDoc;
export function check(puzzle: PuzzleArg, options?: PositionOptions): CheckDoc;
export function generate(
  options: GenerateOptions,
  onProgress?: (progress: { found: number; tried: number }) => void,
): GeneratedRow[];
export function renderSvg(puzzle: PuzzleArg, options?: RenderOptions): string;
export function techniques(): Technique[];
export const version: string;
/** @internal Panics inside the engine: for the package's tests of how a bug is reported. */
export function _panicForTest(message: string): void;

/** The API of `grader serve`'s page, answered here (the site's Web Worker). */
export class PageEngine {
  constructor(hideOps?: boolean);
  answer(method: "GET" | "POST", path: string, body?: unknown): { status: number; body: any };
}
