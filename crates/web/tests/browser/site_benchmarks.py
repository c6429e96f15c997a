"""Measures the static site and the engine in headless chromium against the
native `grader`, on this machine:

* the site's size: every file, gzipped (-9), and the .wasm plus scripts;
* first contentful paint of the site from a local static file server (median
  of 10 fresh pages);
* grading reference/reference-ratings.ndjson in one Web Worker with the npm
  package's `batch` (modes n and b), checked row for row against `grader batch
  --jobs 1 --format ndjson` on the same file, and timed against it (the engine's
  time in the worker; the process's wall time natively; best of 3 each);
* generation in the worker against `grader generate --jobs 1`, the same
  options and seed (so the same puzzles, checked), best of 3.

    bash scripts/build-site.sh target/site
    python3 crates/web/tests/browser/site_benchmarks.py [--repeats 3]

It serves a copy of target/site (or $KENKEN_SITE) with one more file, the
benchmark's worker, and uses target/release/grader (or $GRADER) and the
installed /usr/bin/chromium, like the tests."""

import argparse
import gzip
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from conftest import CHROMIUM, CHROMIUM_ARGS, GRADER, ROOT, SITE, serve_static

REFERENCE = ROOT / "reference" / "reference-ratings.ndjson"
GENERATION = {"size": 6, "min": 4.4, "max": 4.4, "count": 20, "seed": 1}

BENCH_WORKER = """
import * as kenken from "./kenken.js";
self.onmessage = ({ data }) => {
  const started = performance.now();
  if (data.kind === "batch") {
    const rows = kenken.batch(data.text, data.options);
    postMessage({ ms: performance.now() - started, rows });
  } else {
    const rows = kenken.generate(data.options).map((r) => ({ ...r, seed: r.seed.toString() }));
    postMessage({ ms: performance.now() - started, rows });
  }
};
postMessage({ ready: true });
"""


def gzipped(path):
    return len(gzip.compress(path.read_bytes(), compresslevel=9))


def native(args, repeats):
    """`grader ARGS`: its output and its best wall time (s) of `repeats`."""
    best, out = None, None
    for _ in range(repeats):
        started = time.perf_counter()
        out = subprocess.run([str(GRADER), *args], capture_output=True, text=True, check=True).stdout
        took = time.perf_counter() - started
        best = took if best is None else min(best, took)
    return out, best


STARTS = []


def in_worker(page, message, repeats):
    """The bench worker's answer to `message` and its best time (s); the time
    each worker took to start (the engine fetched, compiled and instantiated)
    goes to STARTS."""
    best, answer = None, None
    for _ in range(repeats):
        answer = page.evaluate(
            """(message) => new Promise((done, fail) => {
                const started = performance.now();
                let ready = 0;
                const worker = new Worker('bench-worker.js', { type: 'module' });
                worker.onerror = (e) => fail(new Error(e.message));
                worker.onmessage = ({ data }) => {
                    if (data.ready) {
                        ready = performance.now() - started;
                        worker.postMessage(message);
                        return;
                    }
                    worker.terminate();
                    done({ ...data, start: ready });
                };
            })""",
            message,
        )
        STARTS.append(answer["start"])
        took = answer["ms"] / 1000
        best = took if best is None else min(best, took)
    return answer["rows"], best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    files = sorted(p for p in SITE.iterdir() if p.is_file())
    sizes = {p.name: gzipped(p) for p in files}
    engine = sum(size for name, size in sizes.items() if name.endswith((".wasm", ".js")))
    print("site files, gzipped: " + ", ".join(f"{n} {s / 1024:.0f} KiB" for n, s in sizes.items()))
    print(f".wasm plus scripts: {engine / 1024:.0f} KiB gzipped; the whole site {sum(sizes.values()) / 1024:.0f} KiB")
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / "site"
        shutil.copytree(SITE, copy)
        (copy / "bench-worker.js").write_text(BENCH_WORKER)
        server, url = serve_static(copy)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                paints = []
                for _ in range(10):
                    context = browser.new_context()
                    page = context.new_page()
                    page.goto(url)
                    page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
                    paints.append(page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime"))
                    context.close()
                print(f"first contentful paint: median {statistics.median(paints):.0f} ms, slowest {max(paints):.0f} ms (10 fresh pages)")
                page = browser.new_context(bypass_csp=True).new_page()
                page.goto(url)
                text = REFERENCE.read_text()
                for mode in ["n", "b"]:
                    rows, browser_s = in_worker(page, {"kind": "batch", "text": text, "options": {"mode": mode}}, repeats)
                    out, native_s = native(["batch", str(REFERENCE), "--jobs", "1", "--mode", mode, "--format", "ndjson"], repeats)
                    expected = [json.loads(line) for line in out.splitlines()]
                    same = "the same rows" if rows == expected else "ROWS DIFFER"
                    print(
                        f"grading the reference file ({len(rows)} puzzles), mode {mode}: worker {browser_s:.2f} s, "
                        f"native --jobs 1 {native_s:.2f} s, ratio {browser_s / native_s:.2f}; {same}"
                    )
                rows, browser_s = in_worker(page, {"kind": "generate", "options": GENERATION}, repeats)
                args = ["generate", "--jobs", "1"] + [f"--{k}={v}" for k, v in GENERATION.items()]
                out, native_s = native(args, repeats)
                expected = [json.loads(line) for line in out.splitlines()]
                for row in expected:
                    row["seed"] = str(row["seed"])
                # Python reads the 64-bit seeds whole; the worker gives them as text.
                same = "the same rows" if rows == expected else "ROWS DIFFER"
                print(
                    f"generating {GENERATION['count']} {GENERATION['size']}x{GENERATION['size']} rated {GENERATION['min']}: "
                    f"worker {browser_s:.2f} s, native --jobs 1 {native_s:.2f} s, ratio {browser_s / native_s:.2f}; {same}"
                )
                print(f"a worker's start (the engine fetched, compiled, instantiated): median {statistics.median(STARTS):.0f} ms")
                browser.close()
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
