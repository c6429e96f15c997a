// The npm package in Node, with Node's own test runner:
//
//   bash scripts/build-npm.sh target/npm
//   KENKEN_PACKAGE=target/npm GRADER=target/release/grader node --test crates/wasm/tests/node/
//
// Each function against `grader` (its JSON output, row for row), the options and
// their errors, hidden operations, and a bug reported without losing the engine.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const packageDir = path.resolve(root, process.env.KENKEN_PACKAGE ?? "target/npm");
const grader = path.resolve(root, process.env.GRADER ?? "target/release/grader");
const kenken = await import(pathToFileURL(path.join(packageDir, "kenken.js")).href);

const FOUR = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1";
const SIX = "6:a_a_aa_a_a_9a3ba__aa_a__aa__aa_a_,s2a9m6s3m18a5s2s3a6d3a7s2m12m20m24d2";
const POSITION = "4 6 . . . .\n. . . . . .\n. . 5 . . .\n. . . . . .\n. . . . . [12]\n. . . . . .\n";

// What `grader` prints for `args` (its exit code is not the test's business).
function run(args, input) {
  try {
    return execFileSync(grader, args, { cwd: root, input, encoding: "utf8" });
  } catch (e) {
    return e.stdout;
  }
}

test("read describes the puzzle and writes it in other formats", () => {
  const p = kenken.read(FOUR);
  assert.equal(p.size, 4);
  assert.equal(p.format, "tatham");
  assert.equal(p.cages.length, 7);
  assert.deepEqual({ ...p.cages[0] }, { op: "/", clue: 2, cells: ["A1", "B1"], positions: [[0, 0], [1, 0]] });
  assert.equal(p.toTatham(), FOUR);
  assert.equal(p.toText().split("\n")[0], "# 4");
  assert.throws(() => p.toK6c(), kenken.FormatError);
  const hidden = kenken.read(FOUR, { hideOps: true });
  assert.equal(hidden.hasHiddenOps, true);
  assert.equal(hidden.cages[0].op, null);
  assert.equal(kenken.read(hidden.toText()).hasHiddenOps, true);
});

test("errors carry grader's messages and the package's classes", () => {
  assert.throws(() => kenken.read("17:_a,a1"), {
    name: "FormatError",
    message: /Grid size must be between 3 and 9 \(Tatham's limit\)/,
  });
  assert.throws(() => kenken.grade(FOUR, { maxDepth: 9 }), { name: "OptionsError", message: "max_depth must be 2 to 8, not 9" });
  assert.throws(() => kenken.grade(FOUR, { timeout: NaN }), {
    name: "OptionsError",
    message: "timeout must be a positive number of seconds, at most 1e9, not nan",
  });
  assert.throws(() => kenken.grade(FOUR, { bogus: 1 }), { name: "TypeError", message: "grade() got an unknown option 'bogus'" });
  assert.throws(() => kenken.grade(42), TypeError);
  assert.throws(() => kenken.grade(FOUR, { hideOps: "yes" }), { name: "OptionsError", message: /^hide_ops: invalid type/ });
});

test("grade gives the row grader batch writes, in every mode", () => {
  for (const mode of ["n", "c", "b"]) {
    const row = kenken.grade(SIX, { mode });
    const line = run(["batch", "-", "--mode", mode, "--format", "ndjson"], `${SIX}\n`).trim();
    assert.deepEqual(row, JSON.parse(line), mode);
  }
  assert.deepEqual(kenken.grade(FOUR, { hideOps: true }).status, "ambiguous");
});

test("batch and gradeMany give grader batch's rows for a whole file", () => {
  const file = "puzzles/sample.json";
  const expected = run(["batch", file, "--mode", "b", "--format", "ndjson"])
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  assert.deepEqual(kenken.batch(readFileSync(path.join(root, file), "utf8"), { mode: "b" }), expected);
  const many = kenken.gradeMany(["3:_a_aa_aa,s1m3a6m6", "garbage", kenken.read(FOUR), 5], { mode: "n" });
  assert.deepEqual(many.map((r) => [r.index, r.status]), [[1, "solved"], [2, "invalid"], [3, "solved"], [4, "invalid"]]);
  assert.match(many[3].error, /item 4 is a number/);
});

test("solve, steps, hint and check give grader's JSON documents", () => {
  assert.deepEqual(kenken.solve(FOUR), JSON.parse(run(["solve", FOUR, "--json"])));
  const log = JSON.parse(run(["grade", SIX, "--json"]));
  assert.deepEqual(kenken.steps(SIX), log.steps);
  for (const level of ["nudge", "technique", "cells", "full"]) {
    const doc = JSON.parse(run(["hint", SIX, "--state", "-", "--level", level, "--json"], POSITION.replace("[12]", ".")));
    assert.deepEqual(kenken.hint(SIX, { state: POSITION.replace("[12]", "."), level }), doc, level);
  }
  const checked = JSON.parse(run(["check", SIX, "--state", "-", "--json"], POSITION));
  assert.deepEqual(kenken.check(SIX, { state: POSITION }), checked);
  assert.equal(checked.status, "conflicts");
  assert.throws(() => kenken.check(SIX), kenken.OptionsError);
});

test("generate makes grader generate's puzzles for a seed", () => {
  const text = run(["generate", "--size", "6", "--min", "4.4", "--max", "4.4", "--count", "2", "--seed", "1"]);
  const expected = text.trim().split("\n").map((line) => JSON.parse(line));
  const seen = [];
  const rows = kenken.generate({ size: 6, min: 4.4, max: 4.4, count: 2, seed: 1 }, (p) => seen.push(p));
  assert.equal(rows.length, 2);
  assert.equal(typeof rows[1].seed, "bigint");
  // The seeds past 2^53 are compared as text (JSON.parse rounds them).
  assert.deepEqual(rows.map((r) => r.seed.toString()), [...text.matchAll(/"seed":(\d+)/g)].map((m) => m[1]));
  const same = (row) => ({ ...row, seed: undefined });
  assert.deepEqual(rows.map(same), expected.map(same));
  assert.ok(seen.length > 0 && seen.at(-1).found <= 2);
  // The seed of the second puzzle makes it first.
  assert.equal(kenken.generate({ size: 6, min: 4.4, max: 4.4, seed: rows[1].seed })[0].puzzle, rows[1].puzzle);
  const hidden = kenken.generate({ size: 4, min: 2, seed: 1, hideOps: true })[0];
  assert.equal(hidden.hide_ops, true);
  assert.ok(hidden.puzzle.startsWith("# 4\n?"));
  assert.throws(() => kenken.generate({ size: 3, min: 4.4, seed: 1, maxTries: 5 }), (e) => {
    assert.ok(e instanceof kenken.IncompleteError);
    assert.equal(e.tried, 5);
    assert.deepEqual(e.puzzles, []);
    return true;
  });
  assert.throws(() => kenken.generate({ size: 17, min: 1 }), kenken.GenerateError);
});

test("renderSvg draws what grader render draws", () => {
  for (const args of [[], ["--step", "7"], ["--solution"], ["--candidates"], ["--step", "7", "--proof", "1"]]) {
    const options = {};
    for (let i = 0; i < args.length; i++) {
      const name = args[i].slice(2);
      options[name] = args[i + 1] && !args[i + 1].startsWith("--") ? Number(args[++i]) : true;
    }
    const svg = run(["render", SIX, ...args]);
    assert.equal(kenken.renderSvg(SIX, options).trimEnd(), svg.trimEnd(), args.join(" "));
  }
  assert.throws(() => kenken.renderSvg(SIX, { step: 1000 }), kenken.RenderError);
});

test("techniques lists grader's ladder", () => {
  const listed = kenken.techniques();
  assert.equal(listed[0].id, "naked-single");
  assert.ok(listed.some((t) => t.id === "cage-combination"));
});

test("the README's examples give what it shows", () => {
  const readme = readFileSync(path.join(packageDir, "README.md"), "utf8");
  assert.deepEqual(kenken.grade(kenken.read(FOUR)), {
    index: 1, puzzle: FOUR, status: "solved", success: true, max: 1, total: 3, steps: 3, depth: 2, cc_steps: 7,
  });
  assert.ok(readme.includes("max: 1, total: 3, steps: 3, depth: 2, cc_steps: 7 }"));
  const h = kenken.hint(SIX, { level: "cells" });
  assert.ok(readme.includes(`nudge: '${h.nudge}'`) && readme.includes(`technique: '${h.technique}'`));
  const [made] = kenken.generate({ size: 6, min: 4.4, max: 4.4, seed: 1 });
  assert.ok(readme.includes(`made.puzzle; // '${made.puzzle}'`));
  // The repository's README shows the same three.
  const main = readFileSync(path.join(root, "README.md"), "utf8");
  assert.ok(main.includes(`grade(read("${FOUR}")).max;     // ${kenken.grade(kenken.read(FOUR)).max}`));
  assert.ok(main.includes(`const six = "${SIX}";`));
  assert.ok(main.includes(`hint(six, { level: "cells" }).cells;                     // [ '${h.cells.join("', '")}' ]`));
  assert.ok(main.includes(`// '${made.puzzle}'`));
});

test("a bug is an InternalError, and a fresh engine answers after it", async () => {
  const page = new kenken.PageEngine();
  assert.equal(page.answer("POST", "/api/load", { puzzle: FOUR }).body.status, "solved");
  // Wait for the spare copy of the engine's module to be ready.
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.throws(() => kenken._panicForTest("on purpose"), (e) => {
    assert.ok(e instanceof kenken.InternalError);
    assert.match(e.message, /^a bug in the grader: on purpose at crates\/wasm\/src\/lib\.rs:\d+$/);
    return true;
  });
  assert.equal(kenken.grade(FOUR).status, "solved");
  assert.equal(page.answer("POST", "/api/load", { puzzle: FOUR }).body.status, "solved");
});

test("the page's API answers as grader serve does", () => {
  const page = new kenken.PageEngine();
  const load = page.answer("POST", "/api/load", { puzzle: SIX });
  assert.equal(load.status, 200);
  assert.equal(load.body.cell_names[7], "B2");
  const cells = new Array(36).fill(0);
  cells[7] = 256;
  const wrong = page.answer("POST", "/api/board", { puzzle: SIX, cells });
  assert.deepEqual(wrong, {
    status: 422,
    body: {
      error: "cells[7] (B2): 256 is not a digit of a 6×6 grid; a cell is 0 for a blank, a digit from 1 to 6, or an array of distinct pencil marks from 1 to 6",
    },
  });
  assert.equal(page.answer("GET", "/api/puzzles").status, 404);
});
